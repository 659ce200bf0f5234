"""Many random and bot games: they end, money adds up, yachts stay at sea, replays agree.

Set RESORT_EXAMPLES to run more."""

import os
import random

import pytest

from scenarios.resort import ENGINE
from scenarios.resort.bots import BOTS
from scenarios.resort.rules import PROGRAM_IDS, TRIANGLE, WATER

EXAMPLES = int(os.environ.get("RESORT_EXAMPLES", "60"))


def play(seed, seats, choose, options):
    state = ENGINE.setup(seed, seats, options)
    log = []
    for _ in range(20000):
        if ENGINE.finished(state):
            break
        seat = ENGINE.to_act(state)[0]
        action = choose(state, seat)
        ENGINE.apply(state, seat, action)
        log.append((seat, action))
        for s in state["seats"]:
            assert tuple(s["yacht"]) in WATER or tuple(s["yacht"]) == TRIANGLE
    return state, log


@pytest.mark.parametrize("case", range(EXAMPLES))
def test_random_and_bot_games_end_replay_and_keep_yachts_at_sea(case):
    rng = random.Random(case)
    seats = rng.choice([2, 3, 4])
    options = {
        "storm": rng.choice(["surprise"] + PROGRAM_IDS),
        "round_cap": rng.choice([20, 30, 40]),
        "track_bonus": rng.random() < 0.5,
        "edition": rng.choice([1, 2]),
    }
    bots = [rng.choice(list(BOTS)) for _ in range(seats)]
    state, log = play(
        case,
        seats,
        lambda s, seat: BOTS[bots[seat]](s, seat) if rng.random() < 0.8 else rng.choice(ENGINE.actions(s, seat)),
        options,
    )
    assert ENGINE.finished(state) and not state["ended"]
    assert state["line"] == len(ENGINE.program(state)["lines"])
    replay = ENGINE.setup(case, seats, options)
    for seat, action in log:
        ENGINE.apply(replay, seat, action)
    assert ENGINE.dump(replay) == ENGINE.dump(state)
    for row in ENGINE.results(state):
        b = row["breakdown"]
        assert b["saved_by_options"] >= 0 and b["damage"] >= 0 and b["tracked"] <= state["line"]
        assert row["score"] == b["cash"] + b["resort_value"]


def test_the_policy_bot_plays_a_four_seat_game_in_a_few_milliseconds_of_rules():
    """Not a timing test: a game by bots takes a bounded number of moves (the benchmark times it)."""
    state, log = play(3, 4, lambda s, seat: BOTS["prepared"](s, seat), {})
    assert len(log) < 800
