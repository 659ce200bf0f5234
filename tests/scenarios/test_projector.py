"""Every registered scenario gives the projector a line per table (``Engine.projector``): its
progress in the game's own terms, moving from nothing to done as bots play a whole game, what its
storm is doing, its moments worth a cheer, each named by a sentence of ``projector_words`` that
its numbers fill; a Gentle class never sees a moment that speaks of lives lost."""

import pytest

from scenarios import registry
from scenarios.base import projected
from tests.scenarios.test_contract import system_step

SCENARIOS = registry.keys()


def lines_of_a_bot_game(key, seed=7, seats=4):
    """The projector's line after every move of a game the policy bot plays, from the start."""
    scenario = registry.get(key)
    engine, bot = scenario.engine, scenario.bots[scenario.policy_bot]
    state = engine.setup(seed, seats, {})
    lines = [engine.projector(engine.view(state, None))]
    while not engine.finished(state):
        acting = engine.to_act(state)
        if not acting:
            engine.apply(state, None, system_step(scenario, engine, state))
        for seat in acting:
            if not engine.finished(state) and seat in engine.to_act(state):
                engine.apply(state, seat, bot(state, seat))
        lines.append(engine.projector(engine.view(state, None)))
        assert len(lines) < 20_000
    return lines


def fill(text, params):
    return text % {**params, "who": "Ana"}


@pytest.mark.parametrize("key", SCENARIOS)
def test_every_scenario_says_each_tables_progress_storm_and_moments_in_its_own_words(key):
    engine = registry.get(key).engine
    words = engine.projector_words
    storms, cheers = set(), set()
    for line in lines_of_a_bot_game(key):
        assert fill(words[line["unit"]], {**line["numbers"], "done": line["done"], "of": line["of"]})
        assert 0 <= line["percent"] <= 100 and 0 <= line["done"] <= line["of"]
        if line["storm"]:
            storms.add(line["storm"]["kind"])
            assert fill(words[line["storm"]["kind"]], line["storm"])
        for moment in line["cheers"]:
            cheers.add(moment["kind"])
            assert fill(words[moment["kind"]], moment) and moment["key"]
            assert all(isinstance(v, (int, float, bool, str, type(None))) for v in moment.values())
    assert cheers, f"{key}: a whole game had no moment worth a cheer"
    if key != "tornado_alert":  # a tornado shows itself only when it strikes
        assert storms, f"{key}: the projector never said what the storm is doing"


@pytest.mark.parametrize("key", SCENARIOS)
def test_a_tables_progress_goes_from_nothing_to_done_over_a_game(key):
    lines = lines_of_a_bot_game(key)
    first, last = lines[0], lines[-1]
    assert first["percent"] == 0 and first["done"] == 0
    assert last["percent"] == 100 and last["done"] == last["of"]
    steps = {line["percent"] for line in lines}
    assert len(steps) >= 4, f"{key}: the bar only ever showed {sorted(steps)}"
    halfway = lines[len(lines) // 2]["percent"]
    assert 0 < halfway < 100


def test_a_gentle_class_never_sees_a_moment_of_lives_lost():
    scenario = registry.get("stormfury")
    engine = scenario.engine
    state = engine.setup(3, 4, {})
    view = engine.view(state, None)
    view["last_storm"] = [
        {"type": "held", "space": "msy_pumps", "city": "new_orleans", "left": 0},
        {"type": "people_hit", "space": "houma_people", "city": "houma", "damage": 2},
    ]
    line = engine.projector(view)
    assert [c["kind"] for c in projected(line, gentle=False)["cheers"]] == ["held", "people_hit"]
    assert [c["kind"] for c in projected(line, gentle=True)["cheers"]] == ["held"]
    assert [c["kind"] for c in line["cheers"]] == ["held", "people_hit"]  # the line itself is left as it was
