"""What the game rewards: households that prepare and leave early beat the last-minute habit.

Four-seat games, two seats the careful policy bot (secures the home, buys supplies and fuel,
leaves at the watch) and two the last-minute habit, seats alternated between games.
"""

import statistics

import pytest

from benchmarks.evacuation import play
from scenarios.evacuation import ENGINE
from scenarios.evacuation.bots import BOTS, POLICY_BOT, head_to_head

GAMES = 120


def test_the_careful_household_finishes_first_in_most_decided_games_and_scores_more():
    firsts = decided = 0
    careful_scores, reckless_scores = [], []
    for seed in range(GAMES):
        careful = {0, 2} if seed % 2 == 0 else {1, 3}
        policies = [BOTS[POLICY_BOT] if seat in careful else BOTS["last_minute"] for seat in range(4)]
        results = ENGINE.results(play(seed, policies))
        best = max(r["score"] for r in results)
        winners = {r["seat"] for r in results if r["score"] == best}
        for r in results:
            (careful_scores if r["seat"] in careful else reckless_scores).append(r["score"])
        if winners <= careful or not winners & careful:
            decided += 1
            firsts += winners <= careful
    assert decided >= GAMES // 2
    assert firsts / decided >= 0.6, f"careful first in {firsts} of {decided} decided games"
    assert statistics.mean(careful_scores) > statistics.mean(reckless_scores)


@pytest.mark.parametrize("habit", ["bank_farming", "last_minute", "random"])
def test_two_careful_households_beat_two_of_each_reckless_habit_head_to_head(habit):
    """Two careful households against two of the habit, all six seatings, default options: the
    careful ones finish first in most decided games and score more on average (bank farming and
    racing the table to be first no longer pay: points for arriving early go by the clock)."""
    duel = head_to_head(POLICY_BOT, habit, seeds=6)
    assert duel["decided"] >= duel["games"] // 2
    assert duel["first_share"] >= 0.6, f"careful first in {duel['first']['careful']} of {duel['decided']}"
    assert duel["mean"]["careful"] > duel["mean"]["reckless"]


def test_filling_the_tank_pays_against_a_household_that_never_fills_up():
    """Rules edition 2 (the default) gives 5 points for arriving with half a tank: two careful
    households finish first against two that buy only the gallons their drive needs in most
    decided games, and score more. Without those points (edition 1, ``half_tank=off``) the full
    tank was money moved from the wallet to the tank and scored the same."""
    from scenarios.evacuation.bots import never_fills_up

    duel = head_to_head(POLICY_BOT, never_fills_up, seeds=6)
    assert duel["first_share"] >= 0.6, f"careful first in {duel['first']['careful']} of {duel['decided']}"
    assert duel["mean"]["careful"] > duel["mean"]["reckless"] + 2
    tanks = {
        kind: statistics.mean(r["breakdown"]["points"]["half_tank"] for r in rows)
        for kind, rows in duel["rows"].items()
    }
    assert tanks["careful"] > 3 * tanks["reckless"]
