"""Balance (RULES.md, "Balance (bots)"): the careful policy (the photographer: takes a pile worth
its average, never one with the Rover, plays its safest card) beats the reckless habit (the
daredevil: slaps every pile, plays its most dangerous card) at four-seat tables of two each."""

import statistics

import pytest

from benchmarks.tornado_alert import play

LINEUP = ("photographer", "daredevil", "photographer", "daredevil")


@pytest.mark.parametrize("variant", ["turns", "free"])
def test_the_careful_policy_comes_first_in_most_decided_games_and_scores_more(variant):
    first = {"photographer": 0, "daredevil": 0}
    scores = {"photographer": [], "daredevil": []}
    for seed in range(120):
        _state, _taps, _seconds, results = play(seed, LINEUP, {"variant": variant})
        for row in results:
            scores[LINEUP[row["seat"]]].append(row["score"])
        winners = {LINEUP[row["seat"]] for row in results if row["rank"] == 1}
        if len(winners) == 1:  # decided: not a tie between the two habits
            first[winners.pop()] += 1
    decided = sum(first.values())
    assert decided >= 100
    assert first["photographer"] / decided >= 0.6, first
    assert statistics.mean(scores["photographer"]) > statistics.mean(scores["daredevil"]), scores
