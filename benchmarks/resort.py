"""Resort ("Hurricane") figures, one line each as ``name: value unit``.

``python -m benchmarks.resort``: whole 4-seat games by the policy bot on one core (the bots'
thinking included), taps per seat and an estimate of the minutes a 4-seat table needs.
``python -m benchmarks.resort --balance``: every real storm in the program deck, 4 seeds each,
with the four bots rotated through the seats of one table (so each meets the others on the same
storm), then each bot alone at a table: mean final worth, damage, option spending and savings.
"""
from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from scenarios.resort import ENGINE
from scenarios.resort.bots import BOTS, POLICY_BOT
from scenarios.resort.rules import PROGRAM_IDS

GAMES = 400
#: assumed seconds a child takes: a plain roll, a decision (buy, option, shelter), placing the
#: storm on the grid (all seats at once, so once per line), and reading an event
SECONDS = {"roll": 6, "decide": 20, "track": 25}


def play(seed: int, bots=None, options=None) -> tuple[dict, list[int], float]:
    """One 4-seat game; returns the final state, taps per seat and the estimated seconds."""
    state = ENGINE.setup(seed, 4, options or {})
    bots = bots or [POLICY_BOT] * 4
    taps = [0, 0, 0, 0]
    seconds = 0.0
    while not ENGINE.finished(state):
        seats = ENGINE.to_act(state)
        phase = state["phase"]
        if phase == "track":
            seconds += SECONDS["track"]
            for seat in seats:
                ENGINE.apply(state, seat, BOTS[bots[seat]](state, seat))
                taps[seat] += 1
            continue
        seat = seats[0]
        ENGINE.apply(state, seat, BOTS[bots[seat]](state, seat))
        taps[seat] += 1
        seconds += SECONDS["roll"] if phase == "roll" else SECONDS["decide"]
    return state, taps, seconds


def balance_main(seeds: int = 4) -> None:
    names = ["prepared", "never", "always", "random"]
    worth, damage, spent, saved, wins = (defaultdict(list) for _ in range(5))
    for storm in PROGRAM_IDS:
        for seed in range(seeds):
            for shift in range(4):
                bots = [names[(i + shift) % 4] for i in range(4)]
                state, _taps, _s = play(seed, bots, {"storm": storm})
                for row in ENGINE.results(state):
                    bot = bots[row["seat"]]
                    worth[bot].append(row["score"])
                    damage[bot].append(row["breakdown"]["damage"])
                    spent[bot].append(row["breakdown"]["spent_on_options"])
                    saved[bot].append(row["breakdown"]["saved_by_options"])
                    wins[bot].append(row["rank"] == 1)
    games = len(PROGRAM_IDS) * seeds * 4
    print(f"mixed tables ({games} games: {len(PROGRAM_IDS)} real storms x {seeds} seeds x 4 seatings):")
    print(f"  {'bot':<10} {'worth':>10} {'damage':>9} {'on options':>11} {'saved':>9} {'wins':>6}")
    for bot in names:
        print(f"  {bot:<10} {statistics.mean(worth[bot]):>10,.0f} {statistics.mean(damage[bot]):>9,.0f} "
              f"{statistics.mean(spent[bot]):>11,.0f} {statistics.mean(saved[bot]):>9,.0f} {100 * statistics.mean(wins[bot]):>5.0f}%")
    print("alone at a table (every seat the same bot):")
    for bot in names[:3]:
        values = []
        for storm in PROGRAM_IDS:
            for seed in range(seeds):
                state, _t, _s = play(seed, [bot] * 4, {"storm": storm})
                values += [r["score"] for r in ENGINE.results(state)]
        print(f"  resort_balance_{bot}_alone: mean worth {statistics.mean(values):,.0f} $")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.resort")
    parser.add_argument("--balance", action="store_true", help="final worth by bot over every real storm")
    args = parser.parse_args()
    if args.balance:
        balance_main()
        return
    start = time.perf_counter()
    results = [play(seed) for seed in range(GAMES)]
    elapsed = time.perf_counter() - start
    print(f"resort_games_per_s: {GAMES / elapsed:.0f} games/s")
    print(f"resort_taps_per_seat: {statistics.median(statistics.median(t) for _, t, _ in results):g} taps")
    print(f"resort_minutes_per_game: {statistics.median(s for _, _, s in results) / 60:.1f} minutes "
          f"(4 seats; assumed seconds {SECONDS})")


if __name__ == "__main__":
    main()
