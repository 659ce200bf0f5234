"""Every scenario's default fits the lesson's 20 minutes of play at a human pace: whole games by
each scenario's policy bot, their taps timed by ``benchmarks.pace`` (12 s a decision, one
hesitant child per table at 25 s), computed from the taps, never timed."""

import statistics

import pytest

from benchmarks import bermuda, evacuation, resort, stormfury, tornado_alert
from benchmarks.pace import PLAY_MINUTES
from scenarios.evacuation.bots import BOTS as EVACUATION_BOTS
from scenarios.evacuation.bots import POLICY_BOT as EVACUATION_POLICY

GAMES = 40


def minutes(scenario: str) -> list[float]:
    seeds = range(GAMES)
    if scenario == "resort":
        return [resort.play(seed)[3] for seed in seeds]
    if scenario == "bermuda":
        return [bermuda.paced(seed, [bermuda.POLICY_BOT] * 4)[2] for seed in seeds]
    if scenario == "stormfury":
        return [stormfury.paced(seed)[3] for seed in seeds]
    if scenario == "tornado_alert":
        return [tornado_alert.human_minutes(seed) for seed in seeds]
    return [evacuation.human_minutes(seed, [EVACUATION_BOTS[EVACUATION_POLICY]] * 4) for seed in seeds]


@pytest.mark.parametrize("scenario", ["evacuation", "stormfury", "resort", "bermuda", "tornado_alert"])
def test_the_default_game_fits_twenty_minutes_of_play_at_a_childs_pace(scenario):
    played = sorted(minutes(scenario))
    assert statistics.median(played) <= PLAY_MINUTES, played
    assert played[int(0.9 * len(played))] <= PLAY_MINUTES, played  # nine games in ten


def test_a_hesitant_child_slows_a_game_in_turns_more_than_one_played_together():
    """The clock itself: the same Bermuda game takes longer in strict turns, where every captain
    waits for the others, than together, where a round lasts as long as its slowest captain."""
    together = bermuda.paced(3, [bermuda.POLICY_BOT] * 4)
    in_turn = bermuda.paced(3, [bermuda.POLICY_BOT] * 4, {"turns": "in_turn"})
    assert together[0]["round"] == in_turn[0]["round"]
    assert in_turn[2] > 2 * together[2]


def test_tornado_alerts_next_card_waits_for_the_pile_before_to_open():
    """A card is laid only once the pile before has opened: its hold counts once per pile, never
    longer than the reaction allowance, and the game's minutes include it."""
    import random

    from scenarios.tornado_alert import ENGINE
    from scenarios.tornado_alert.bots import BOTS, POLICY_BOT

    state, draw, counted, held = ENGINE.setup(3, 4, {}), random.Random(0), set(), 0.0
    while not held:
        seat = (ENGINE.to_act(state) or [None])[0]
        action = BOTS[POLICY_BOT](state, seat) if seat is not None else ENGINE.due(state)["action"]
        ENGINE.apply(state, seat, action)
        held = tornado_alert.hold_seconds(state, draw, counted)
    assert 0 < held <= state["hold"]["ms"] / 1000
    assert tornado_alert.hold_seconds(state, draw, counted) == 0  # the same pile counts once
    without = ENGINE.setup(3, 4, {"allowance_ms": 0})
    assert not without.get("hold") and tornado_alert.human_minutes(3) > tornado_alert.human_minutes(
        3, options={"allowance_ms": 0}
    )
