"""Random legal games (2-6 seats) keep the invariants; dumps, replays and refusals are exact.

Run more examples with HYPOTHESIS_PROFILE=slow (and EVACUATION_GAMES=20000 for the loop test).
"""

import json
import os

import pytest
from evacuation_helpers import play_out
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scenarios.base import IllegalAction, draw
from scenarios.evacuation import ENGINE, rules
from scenarios.evacuation.bots import BOTS

settings.register_profile("default", max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("slow", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

OPTIONS = st.fixed_dictionaries(
    {
        "destination_points": st.sampled_from(["scoring", "table"]),
        "bank_scoring": st.sampled_from(["net", "book"]),
        "timeline": st.sampled_from(["on", "off"]),
        "reasons": st.sampled_from(["on", "off"]),
        "race_points": st.sampled_from(["on", "half", "off", "clock"]),
        "half_tank": st.sampled_from(["on", "off"]),
    }
)
POLICIES = st.sampled_from(sorted(BOTS))

JUNK = [
    {"type": "drive", "to": "nowhere"},
    {"type": "drive"},
    {"type": "withdraw", "amount": 99999},
    {"type": "buy_fuel", "gallons": 0},
    {"type": "buy_fuel", "gallons": 21},
    {"type": "buy_supplies", "units": 7},
    {"type": "set_destination", "destination": "moon"},
    {"type": "reason", "about": "leave", "choice": "nope"},
    {"type": "teleport"},
    {},
    {"type": "drive", "to": "RE"},
    {"type": "drive", "to": "HO"},
    {"type": "buy_home_supplies"},
    {"type": "pick_up_friends"},
    {"type": "tow"},
    {"type": "stay_home"},
]


def check_invariants(state, clocks):
    for s in state["seats"]:
        assert 0 <= s["fuel"] <= rules.TANK
        assert 0 <= s["clock"] <= rules.END
        if s["status"] == "playing":
            assert s["clock"] < rules.END, "still travelling at hour 48"
        assert s["clock"] >= clocks[s["seat"]], "time went backward"
        clocks[s["seat"]] = s["clock"]
        assert s["cash"] == s["start_cash"] + s["withdrawn"] - s["spent"]
        assert 0 <= s["withdrawn"] <= rules.MONEY["bank_total"]
        assert s["supplies"] >= 0
        assert s["status"] in ("playing", "arrived", "stayed", "out_of_time", "stopped")
        if s["status"] == "arrived":
            assert s["supplies"] >= rules.MIN_SUPPLIES and s["pos"] in rules.NODE_DEST
            assert rules.NODE_DEST[s["pos"]] == s["destination"]


def random_game(seed, seats, options, policy_names, teacher=True, check_every=True):
    """Play to the end with a mix of bots and a teacher who sometimes skips or ends the game."""
    state = ENGINE.setup(seed, seats, options)
    log, clocks, step = [], [0] * seats, 0
    policies = [BOTS[policy_names[i % len(policy_names)]] for i in range(seats)]
    while not ENGINE.finished(state):
        playing = ENGINE.to_act(state)
        assert playing
        step += 1
        assert step < 5000, "the game did not end"
        roll = draw(seed, "test", None, step)
        if teacher and roll % 97 == 0:
            action = {"type": "skip", "seat": playing[roll % len(playing)]}
            ENGINE.apply(state, None, action)
            log.append((None, action))
        elif teacher and roll % 1499 == 0:
            ENGINE.apply(state, None, {"type": "end_now"})
            log.append((None, {"type": "end_now"}))
        else:
            seat = playing[roll % len(playing)]
            action = policies[seat](state, seat)
            assert rules.legal(state, seat, action), action
            ENGINE.apply(state, seat, action)
            log.append((seat, action))
        if check_every:
            check_invariants(state, clocks)
    return state, log


@given(
    seed=st.integers(0, 2**40),
    seats=st.integers(2, 6),
    options=OPTIONS,
    policy_names=st.lists(POLICIES, min_size=1, max_size=6),
)
def test_random_games_keep_the_invariants(seed, seats, options, policy_names):
    """Any mix of bots and teacher actions ends, keeps the invariants and scores consistently."""
    state, log = random_game(seed, seats, options, policy_names)
    assert ENGINE.finished(state) and ENGINE.to_act(state) == []
    rows = ENGINE.results(state)
    assert sorted(r["seat"] for r in rows) == list(range(seats))
    for row in rows:
        p = row["breakdown"]["points"]
        assert row["score"] == pytest.approx(
            p["cash"] + p["destination"] + p["in_time"] + p["arrival_order"] + p.get("half_tank", 0), abs=0.011
        )
        safety = row["breakdown"]["safety"]
        half_tank = options["half_tank"] == "on" and safety["arrived_in_time"] and safety["fuel"] >= rules.TANK / 2
        assert p.get("half_tank", 0) == (5 if half_tank else 0) and ("half_tank" in p) == (options["half_tank"] == "on")
        assert row["rank"] == 1 + sum(1 for other in rows if other["score"] > row["score"])
        safety = row["breakdown"]["safety"]
        assert safety["arrived_in_time"] == (p["in_time"] > 0)
    arrived = sum(1 for s in state["seats"] if s["status"] == "arrived")
    if options["race_points"] == "clock":  # each household by its own arrival hour
        for row, s in zip(rows, state["seats"]):
            hour = s["arrived_at"] if s["status"] == "arrived" else None
            early = 0 if hour is None else 15 if hour <= 1440 else 10 if hour <= 1800 else 5 if hour <= 2160 else 0
            assert row["breakdown"]["points"]["arrival_order"] == early
    else:
        assert sum(r["breakdown"]["points"]["arrival_order"] for r in rows) == pytest.approx(
            sum(rules.BOOK["time_points"]["order"][:arrived]) * rules.RACE_FACTOR[options["race_points"]], abs=0.05
        )

    # load(dump(s)) == s, and the dump is plain JSON.
    data = ENGINE.dump(state)
    assert ENGINE.dump(ENGINE.load(json.loads(json.dumps(data)))) == data

    # Replaying the log from setup reproduces the state exactly.
    replay = ENGINE.setup(seed, seats, options)
    for seat, action in log:
        ENGINE.apply(replay, seat, action)
    assert ENGINE.dump(replay) == data


@given(
    seed=st.integers(0, 2**40),
    seats=st.integers(2, 6),
    stop=st.integers(0, 80),
    junk=st.lists(st.sampled_from(JUNK), min_size=1, max_size=6),
)
def test_refused_actions_change_nothing(seed, seats, stop, junk):
    """Mid-game, every refused action leaves the state exactly as it was; views stay JSON."""
    state = ENGINE.setup(seed, seats)
    policies = [BOTS["random"], BOTS["cautious"]]
    for step in range(stop):
        if ENGINE.finished(state):
            break
        seat = ENGINE.to_act(state)[step % len(ENGINE.to_act(state))]
        ENGINE.apply(state, seat, policies[seat % 2](state, seat))
    for seat in range(seats):
        json.dumps(ENGINE.view(state, seat))
        for action in junk:
            before = ENGINE.dump(state)
            try:
                ENGINE.apply(state, seat, action)
            except IllegalAction as error:
                assert error.code and error.message
                assert ENGINE.dump(state) == before
            else:
                assert action in ENGINE.actions(ENGINE.load(before), seat)
    json.dumps(ENGINE.view(state, None))


def test_thousands_of_random_games():
    """Random-legal bots against policy bots in 2-6 seats: every game ends with sane results."""
    games = int(os.environ.get("EVACUATION_GAMES", "1500"))
    names = sorted(BOTS)
    for seed in range(games):
        seats = 2 + seed % 5
        state, _ = random_game(
            seed, seats, None, [names[seed % 4], "random"], teacher=seed % 10 == 0, check_every=seed % 5 == 0
        )
        check_invariants(state, [0] * seats)
        assert all(r["rank"] >= 1 for r in ENGINE.results(state))


def test_bots_are_deterministic_and_finish_every_game():
    """The same seed and bots give the same game, move for move."""
    for name in BOTS:
        first = ENGINE.setup(11, 4)
        second = ENGINE.setup(11, 4)
        log_a = play_out(first, [BOTS[name]] * 4)
        log_b = play_out(second, [BOTS[name]] * 4)
        assert log_a == log_b and ENGINE.dump(first) == ENGINE.dump(second)


@given(
    seed=st.integers(0, 2**40),
    seats=st.integers(2, 6),
    handover=st.integers(0, 120),
    policy=st.sampled_from(["cautious", "last_minute", "bank_farming"]),
)
def test_policy_bots_take_over_any_reachable_state(seed, seats, handover, policy):
    """'Hand to bot' after random play: the policy bot only ever plays legal actions, to the end."""
    state = ENGINE.setup(seed, seats)
    for step in range(handover):
        if ENGINE.finished(state):
            return
        seat = ENGINE.to_act(state)[step % len(ENGINE.to_act(state))]
        ENGINE.apply(state, seat, BOTS["random"](state, seat))
    bot = BOTS[policy]
    steps = 0
    while not ENGINE.finished(state):
        for seat in ENGINE.to_act(state):
            action = bot(state, seat)
            assert rules.legal(state, seat, action), (action, state["seats"][seat])
            ENGINE.apply(state, seat, action)
            steps += 1
            assert steps < 5000


@settings(max_examples=60)
@given(
    seed=st.integers(0, 2**40),
    seats=st.integers(2, 6),
    options=OPTIONS,
    policy_names=st.lists(POLICIES, min_size=1, max_size=6),
)
def test_a_seat_whose_own_part_is_unchanged_needs_only_its_others_part(seed, seats, options, policy_names):
    """After any move, a seat whose ``own`` part compares equal has the view it had before with
    only its ``others`` part replaced by ``others``: what a tablet does with an ``others``
    message gives the full view."""
    state = ENGINE.setup(seed, seats, options)
    policies = [BOTS[policy_names[i % len(policy_names)]] for i in range(seats)]
    step, kept = 0, 0
    while not ENGINE.finished(state) and step < 400:
        step += 1
        playing = ENGINE.to_act(state)
        roll = draw(seed, "progress-test", None, step)
        seat = playing[roll % len(playing)]
        actor, action = (
            (None, {"type": "skip", "seat": seat}) if roll % 53 == 0 else (seat, policies[seat](state, seat))
        )
        before = ENGINE.load(ENGINE.dump(state))
        views_before = [ENGINE.view(before, s) for s in range(seats)]
        ENGINE.apply(state, actor, action)
        for s in range(seats):
            if ENGINE.own(before, s) == ENGINE.own(state, s):
                kept += 1
                assert ENGINE.view(state, s) == {**views_before[s], "others": ENGINE.others(state, s)}
    assert kept  # tablemates' moves usually leave a seat's own view alone
