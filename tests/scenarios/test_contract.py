"""The contract every registered scenario gets tested against for free: add a package to the
registry line and these run for it (see README, "Add a scenario").

Engine-level checks, pure and quick: metadata, Django-free engine, random legal games, dump and
load, replay from the log, refusals that change nothing, and every bot playing to the end.
"""

import json
import random
import subprocess
import sys

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import get_template

from scenarios import registry
from scenarios.base import IllegalAction

SCENARIOS = registry.keys()
MAX_STEPS = 20_000


def system_step(scenario, engine, state):
    """What the platform does when no seat may act: the engine's own due step (``due``, a race
    settled), else the class step if offered, else end it."""
    due = getattr(engine, "due", None) and engine.due(state)
    if due:
        return due["action"]
    offered = engine.actions(state, None)
    step = scenario.class_step
    wanted = [a for a in offered if step and a.get("type") == step["action"]["type"]]
    return wanted[0] if wanted else {"type": "end_now"}


def play(scenario, seed, seats, choose, options=None):
    """A whole game; ``choose(state, seat, actions)`` picks each seat's action. Returns the final
    state and the log of ``(seat, action)``."""
    engine = scenario.engine
    state = engine.setup(seed, seats, options or {})
    log = []
    for _ in range(MAX_STEPS):
        if engine.finished(state):
            break
        acting = engine.to_act(state)
        if not acting:
            action = system_step(scenario, engine, state)
            engine.apply(state, None, action)
            log.append((None, action))
            continue
        for seat in acting:
            if engine.finished(state) or seat not in engine.to_act(state):
                continue
            action = choose(state, seat, engine.actions(state, seat))
            events = engine.apply(state, seat, action)
            assert isinstance(events, list)
            log.append((seat, action))
    else:
        engine.apply(state, None, {"type": "end_now"})
        log.append((None, {"type": "end_now"}))
    assert engine.finished(state)
    return state, log


def seat_counts(scenario):
    fewest, most = scenario.seats
    return sorted({fewest, most})


@pytest.mark.parametrize("key", SCENARIOS)
def test_metadata_is_complete(key):
    scenario = registry.get(key)
    assert scenario.engine.key == key and str(scenario.name) and str(scenario.blurb)
    fewest, most = scenario.seats
    assert 1 <= fewest <= most
    assert scenario.languages and scenario.age_band
    names = set()
    for option in scenario.options():
        assert {"name", "default"} <= set(option)
        names.add(option["name"])
    for preset, values in scenario.presets.items():
        assert isinstance(values, dict) and set(values) <= names, (preset, values)
    assert scenario.policy_bot in scenario.bots
    assert key in dict(registry.choices())


@pytest.mark.parametrize("key", SCENARIOS)
def test_the_renderer_and_templates_are_found(key):
    scenario = registry.get(key)
    assert finders.find(scenario.renderer) and finders.find(scenario.stylesheet)
    assert "export function render" in open(finders.find(scenario.renderer), encoding="utf-8").read()
    names = {path.name for path in scenario.folder.joinpath("templates").iterdir()}
    for name in names:
        get_template(scenario.template(name))
    # one shape: the debrief's pages by the same names in every scenario (the report, its one- or
    # two-page summary for the class's PDF), the kit's beside them
    report = "team_report.html" if scenario.team_play else "student_report.html"
    pages = {"debrief.html", report, "class_packet.html"}
    assert pages <= names
    assert all(name in pages | {"summary.html"} or name.startswith(("kit_", "_")) for name in names), sorted(names)


@pytest.mark.parametrize("key", SCENARIOS)
def test_the_engine_imports_no_django(key):
    """The engine package (with its bots) imports in a Python where Django cannot be imported."""
    package = registry.get(key).package
    code = (
        "import sys; sys.modules.update(dict.fromkeys(['django', 'channels', 'celery'], None));"
        f"import {package}, {package}.bots; print({package}.ENGINE.key)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=settings.BASE_DIR, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == key, done.stderr


@pytest.mark.parametrize("key", SCENARIOS)
def test_random_legal_games_end_with_a_result_for_every_seat(key):
    scenario = registry.get(key)
    engine = scenario.engine
    for seats in seat_counts(scenario):
        for seed in range(3):
            rng = random.Random(seed)
            state, log = play(scenario, seed, seats, lambda s, seat, actions, rng=rng: rng.choice(actions))
            results = engine.results(state)
            assert sorted(r["seat"] for r in results) == list(range(seats))
            assert all({"seat", "score", "rank", "breakdown"} <= set(r) for r in results)
            json.dumps(engine.dump(state))
            json.dumps(engine.view(state, None))


@pytest.mark.parametrize("key", SCENARIOS)
def test_dump_load_and_replay_from_the_log_give_the_same_game(key):
    scenario = registry.get(key)
    engine = scenario.engine
    seats = scenario.seats[1]
    rng = random.Random(7)
    checked = []

    def choose(state, seat, actions):
        # at every tenth decision, the stored form of the state plays on exactly as the live one
        if len(checked) % 10 == 0:
            again = engine.load(json.loads(json.dumps(engine.dump(state))))
            assert engine.dump(again) == engine.dump(state)
            assert engine.view(again, seat) == engine.view(state, seat)
        checked.append(seat)
        return rng.choice(actions)

    state, log = play(scenario, 11, seats, choose)
    replayed = engine.setup(11, seats, {})
    for seat, action in log:
        engine.apply(replayed, seat, action)
    assert engine.dump(replayed) == engine.dump(state)
    assert engine.results(replayed) == engine.results(state)


@pytest.mark.parametrize("key", SCENARIOS)
def test_a_refused_action_changes_nothing(key):
    scenario = registry.get(key)
    engine = scenario.engine
    seats = scenario.seats[0]
    state = engine.setup(3, seats, {})
    rng = random.Random(3)
    for _step in range(40):
        if engine.finished(state):
            break
        acting = engine.to_act(state)
        idle = [s for s in range(seats) if s not in acting]
        before = json.dumps(engine.dump(state), sort_keys=True)
        bad = [{"type": "no-such-action"}, {}, {"type": None}, {"type": "run", "to": {"deep": [1] * 5}}]
        for seat in acting[:1] + idle[:1]:
            for action in bad:
                with pytest.raises(IllegalAction):
                    engine.apply(state, seat, action)
        for seat in idle[:1]:  # a seat that may not act now cannot play another's move
            if (
                acting
                and engine.actions(state, acting[0])
                and engine.actions(state, acting[0])[0] not in engine.actions(state, seat)
            ):
                with pytest.raises(IllegalAction):
                    engine.apply(state, seat, engine.actions(state, acting[0])[0])
        assert json.dumps(engine.dump(state), sort_keys=True) == before
        if not acting:
            engine.apply(state, None, system_step(scenario, engine, state))
        else:
            engine.apply(state, acting[0], rng.choice(engine.actions(state, acting[0])))


@pytest.mark.parametrize("key", SCENARIOS)
def test_every_bot_plays_every_seat_to_the_end(key):
    scenario = registry.get(key)
    for name, bot in scenario.bots.items():
        state, _log = play(scenario, 5, scenario.seats[1], lambda state, seat, actions, bot=bot: bot(state, seat))
        assert (None, {"type": "end_now"}) not in _log, f"{name} did not finish the game by itself"
        assert len(scenario.engine.results(state)) == scenario.seats[1]


def test_collectstatic_gathers_every_registered_renderer(settings, tmp_path):
    """A deployment's collected static files hold each renderer where the pages link it."""
    from django.core.management import call_command

    settings.STATIC_ROOT = tmp_path
    call_command("collectstatic", interactive=False, verbosity=0)
    for scenario in registry.all():
        assert (tmp_path / scenario.renderer).is_file() and (tmp_path / scenario.stylesheet).is_file()


@pytest.mark.parametrize("key", SCENARIOS)
def test_the_new_session_form_offers_its_options_but_not_those_set_per_table(key):
    from classroom.forms import SessionForm

    scenario = registry.get(key)
    form = SessionForm(scenario_options={s.key: s.options() for s in registry.all()})
    offered = {name.split("__", 1)[1] for name in form.fields if name.startswith(f"{key}__")}
    assert not offered & set(scenario.managed_options)
    wanted = {o["name"] for o in scenario.options() if isinstance(o["default"], bool) or o.get("choices")}
    assert wanted - set(scenario.managed_options) <= offered
    assert {o["name"] for o in scenario.session_options} <= offered
