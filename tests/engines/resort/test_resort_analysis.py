"""The debrief's counterfactuals: re-running a seat's resorts through the same storm with no
options gives exactly the damage it paid plus what its options avoided, and all five options
never cost more than none, on this storm or across the deck."""

import pytest

from scenarios.resort import ENGINE, analysis
from scenarios.resort.bots import BOTS
from scenarios.resort.rules import PROGRAM_IDS


@pytest.mark.parametrize("storm", PROGRAM_IDS[::3])
def test_the_same_season_with_other_choices_adds_up(storm):
    names = ["prepared", "never", "always", "random"]
    state = ENGINE.setup(9, 4, {"storm": storm})
    while not ENGINE.finished(state):
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, BOTS[names[seat]](state, seat))
    for seat in range(4):
        story = analysis.seat_story(state, seat)
        assert story["storm_none"] == story["storm_damage"] + story["storm_saved"]
        assert story["storm_all"] <= story["storm_as_held"] <= story["storm_none"]
        assert story["deck_all"] <= story["deck_as_held"] <= story["deck_none"]
        assert story["cost_all"] >= story["cost_as_held"]
    summary = analysis.class_summary(
        [{"table": 1, "state": state, "holders": {0: None, 1: None, 2: None, 3: None}, "moves": []}]
    )
    assert summary["storms"][0]["key"] == storm and summary["seats"] == 4
    assert summary["exact"] <= summary["tracked"] and summary["saved"] == sum(
        analysis.seat_story(state, s)["storm_saved"] for s in range(4)
    )
