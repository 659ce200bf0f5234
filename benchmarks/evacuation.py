"""Evacuation engine figures, one per line as ``name: value unit``.

    python -m benchmarks.evacuation            # speed, taps and turns (a few seconds)
    python -m benchmarks.evacuation --balance  # also the balance report (1,000 games per row)
                                               # and two careful against two of each habit

Speed is full 4-seat games between the policy bot on one core, best of three runs, in CPU
time of this process (so other work on a shared machine does not count against it). Taps count
every action a student sends (reason answers included); turns count the actions that play the
game (every tap except reasons).
"""

from __future__ import annotations

import statistics
import sys
import time

from benchmarks import stand_in
from benchmarks.pace import ASSUMED, PLAY_MINUTES, Clock, spread
from scenarios.evacuation import ENGINE
from scenarios.evacuation.bots import BOTS, POLICY_BOT, head_to_head, make_policy, never_fills_up

#: Seconds a student takes per tap at a tablet (read, decide, tap): an assumption for the lesson
#: budget, not a measurement.
SECONDS_PER_TAP = 15


def play(seed, policies, options=None):
    """Play one game to the end; ``policies`` is one bot per seat."""
    state = ENGINE.setup(seed, len(policies), options)
    while not ENGINE.finished(state):
        for seat in ENGINE.to_act(state):
            ENGINE.apply(state, seat, policies[seat](state, seat))
    return state


def human_minutes(seed, policies, options=None) -> float:
    """One game's minutes at a human pace (``benchmarks.pace``): every household plays on its
    own clock at once, each tap a decision (reason answers included)."""
    state = ENGINE.setup(seed, len(policies), options)
    clock = Clock(len(policies))
    while not ENGINE.finished(state):
        seats = ENGINE.to_act(state)
        clock.ready(seats)
        for seat in seats:
            ENGINE.apply(state, seat, policies[seat](state, seat))
            clock.tap(seat)
    return clock.minutes


def speed(games=400, runs=3):
    bot = BOTS[POLICY_BOT]
    best = None
    for run in range(runs):
        start = time.process_time()
        # Fresh seeds each run, so no run profits from the dice and deck memos of another.
        for seed in range(1000 + run * games, 1000 + (run + 1) * games):
            play(seed, [bot] * 4)
        elapsed = time.process_time() - start
        best = elapsed if best is None else min(best, elapsed)
    return games / best


def taps_and_turns(games=400):
    bot = BOTS[POLICY_BOT]
    taps, turns = [], []
    for seed in range(games):
        state = play(seed, [bot] * 4)
        for s in state["seats"]:
            taps.append(s["taps"])
            turns.append(s["turns"])
    return statistics.median(taps), statistics.median(turns), max(taps)


CAUTIOUS = {"bank": 2000, "bank_below": 1000, "supplies_below": 30}
VARIANTS = {
    "cautious (prepares, relative)": BOTS["cautious"],
    "  without the bank": make_policy("no_bank", bank=0, supplies_below=30),
    "  always to the bank": make_policy("always_bank", bank=2000, supplies_below=30),
    "  without home supplies": make_policy("no_home", **CAUTIOUS, home=False),
    "  without filling the tank": make_policy("no_fuel", **CAUTIOUS, fuel=False),
    "  never filling up": never_fills_up,
    "  without store supplies": make_policy("no_supplies", **CAUTIOUS, supplies=False),
    "  always buying 25 supplies": make_policy("more_supplies", bank=2000, bank_below=1000),
    "  plus friends": make_policy("friends", **CAUTIOUS, friends=True),
    "  to the hotel instead": make_policy("hotel", **CAUTIOUS, destinations=("hotel", "relative", "shelter")),
    "  to the shelter instead": make_policy("shelter", **CAUTIOUS, destinations=("shelter",)),
    "  leaving at hour 12 (warning)": make_policy("warning", **CAUTIOUS, leave_minute=720),
    "  leaving at hour 24": make_policy("day_two", **CAUTIOUS, leave_minute=1440),
    "bare (no errands, relative)": make_policy("bare", bank=0, home=False, fuel=False, supplies=False),
    "last_minute": BOTS["last_minute"],
    "bank_farming": BOTS["bank_farming"],
    "random": BOTS["random"],
}


def balance(games=1000, options=None):
    """Seat 0 plays each variant against three cautious bots on the same seeds (paired)."""
    rows = []
    baseline = None
    for name, policy in VARIANTS.items():
        scores, safe = [], {"in_time": 0, "secured": 0, "supplies": 0, "fuel": 0, "cash": 0.0, "half_tank": 0}
        for seed in range(games):
            state = play(seed, [policy] + [BOTS["cautious"]] * 3, options)
            row = ENGINE.results(state)[0]
            scores.append(row["score"])
            safety = row["breakdown"]["safety"]
            safe["in_time"] += safety["arrived_in_time"]
            safe["secured"] += safety["home_secured"]
            safe["supplies"] += safety["supplies"]
            safe["fuel"] += safety["fuel"]
            safe["cash"] += row["breakdown"]["points"]["cash"]
            safe["half_tank"] += row["breakdown"]["points"].get("half_tank", 0) > 0
        mean = statistics.mean(scores)
        if baseline is None:
            baseline = mean
        rows.append((name, mean, mean - baseline, {k: v / games for k, v in safe.items()}))
    return rows


#: The habits the careful household is held against head to head (two seats of each)
HABITS = {
    "last_minute": "last_minute",
    "bank_farming": "bank_farming",
    "random": "random",
    "bare (no errands)": VARIANTS["bare (no errands, relative)"],
    "never fills up": never_fills_up,
}


def duels(seeds=50, options=None):
    """Two careful households against two of each habit, all six seatings, ``seeds`` seeds."""
    return {name: head_to_head(POLICY_BOT, habit, seeds, options) for name, habit in HABITS.items()}


def play_logged(seed, kinds, options=None):
    """One game of careful students and seats left to the stand-in (the same policy bot, its
    moves recorded as actor ``timer``): the results and the move log (``benchmarks.stand_in``)."""
    bot = BOTS[POLICY_BOT]
    state = ENGINE.setup(seed, len(kinds), options)
    moves = []
    while not ENGINE.finished(state):
        for seat in ENGINE.to_act(state):
            ENGINE.apply(state, seat, bot(state, seat))
            moves.append({"seat": seat, "actor": "timer" if kinds[seat] == "stand_in" else "student"})
    return ENGINE.results(state), moves


def main(argv):
    print(f"evacuation_games_per_s: {speed():.0f} games/s")
    taps, turns, most = taps_and_turns()
    print(f"evacuation_taps_per_seat: {taps:g} taps")
    print(f"evacuation_turns_per_seat: {turns:g} turns")
    print(f"evacuation_max_taps_per_seat: {most} taps")
    print(f"evacuation_real_minutes_per_seat: {taps * SECONDS_PER_TAP / 60:.1f} min (at {SECONDS_PER_TAP} s a tap)")
    bot = BOTS[POLICY_BOT]
    human = [human_minutes(seed, [bot] * 4) for seed in range(200)]
    print(
        f"evacuation_minutes_per_game_human_pace: {spread(human)}; {ASSUMED}; "
        f"{'fits' if statistics.median(human) <= PLAY_MINUTES else 'does not fit'}"
    )
    if "--balance" in argv:
        for label, options in (
            ("default options (rules edition 2)", None),
            ("half_tank off (edition 1)", {"half_tank": "off"}),
        ):
            print(
                f"# head to head, {label}: two careful households against two of each habit "
                "(50 seeds x 6 seatings = 300 4-seat games each)"
            )
            for name, duel in duels(options=options).items():
                print(
                    f"#   {name:<18} careful first in {duel['first']['careful']} of {duel['decided']} decided games "
                    f"({100 * duel['first_share']:.1f} %), mean {duel['mean']['careful']:.1f} against "
                    f"{duel['mean']['reckless']:.1f}"
                )
        print(f"#   {stand_in.line(stand_in.lets_the_bot_play(play_logged))}")
        for options in (
            {"bank_scoring": "net", "race_points": "clock"},
            {"bank_scoring": "net", "race_points": "clock", "half_tank": "off"},
            {"bank_scoring": "net", "race_points": "half"},
            {"bank_scoring": "net", "race_points": "on"},
            {"bank_scoring": "book", "race_points": "on", "half_tank": "off"},
        ):
            print(f"# balance, seat 0 vs three cautious bots, 1000 games, options {options}")
            print(
                "#   variant                          mean score  vs cautious  in time  secured  supplies  fuel  cash pts  half tank"
            )
            for name, mean, delta, safe in balance(options=options):
                print(
                    f"#   {name:<34} {mean:9.1f}  {delta:+10.1f}  {safe['in_time']:7.0%}  {safe['secured']:7.0%}"
                    f"  {safe['supplies']:8.1f}  {safe['fuel']:4.1f}  {safe['cash']:8.1f}  {safe['half_tank']:8.0%}"
                )


if __name__ == "__main__":
    main(sys.argv[1:])
