"""Every engine stores only what it knows: ``canonical`` keeps every legal action as it is and
refuses unknown fields and free text (no database needed)."""

import random

import pytest

from scenarios.base import IllegalAction
from scenarios.registry import ENGINES

SCENARIOS = list(ENGINES)


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_legal_action_is_already_canonical(scenario, seed):
    """Random legal games, seats and teacher alike: each action offered comes back unchanged, so
    the engine's field lists cover every action the game can take (a new action type or field
    fails here until it is listed)."""
    engine = ENGINES[scenario]
    rng = random.Random(seed)
    state = engine.setup(seed, 4, {})
    assert engine.canonical({"type": "end_now"}) == {"type": "end_now"}  # the teacher's "end now"
    for _ in range(400):
        if engine.finished(state):
            break
        for seat in range(4):
            for action in engine.actions(state, seat):
                assert engine.canonical(action) == action, (scenario, seat, action)
        seats = engine.to_act(state)
        if not seats:  # the game waits for the system (a held storm)
            system = next(a for a in engine.actions(state, None) if a["type"] != "end_now")
            assert engine.canonical(system) == system
            engine.apply(state, None, system)
            continue
        seat = rng.choice(seats)
        choices = [a for a in engine.actions(state, seat) if a["type"] != "stay_home"] or engine.actions(state, seat)
        engine.apply(state, seat, rng.choice(choices))


@pytest.mark.parametrize(
    "scenario, action",
    [
        ("evacuation", {"type": "wait", "note": "my name is Ana Lopez"}),
        ("evacuation", {"type": "reason", "about": "leave", "choice": "because my mum said so"}),
        ("evacuation", {"type": "drive", "to": ["H", {"x": "text"}]}),
        ("stormfury", {"type": "end_turn", "comment": "call me at 555-0100"}),
        ("stormfury", {"type": "draw", "from": "deck", "cards": ["my address is 12 Elm St"]}),
        ("stormfury", {"type": "shout"}),
    ],
)
def test_unknown_fields_and_free_text_are_refused(scenario, action):
    """A field the action type does not have, or text that is none of the engine's words, is
    refused with a clear error."""
    with pytest.raises(IllegalAction) as refused:
        ENGINES[scenario].canonical(action)
    assert refused.value.code in ("unknown_field", "unknown_word", "unknown_value", "unknown_action")
    assert "this game does not know" in refused.value.message or "not an action" in refused.value.message
