"""Stormfury figures, one line each as ``name: value unit``.

``python -m benchmarks.stormfury`` from the repository root: whole games with 4 cooperative
policy bots on one core (the bots' thinking included), rounds per game and taps per seat.
"""
from __future__ import annotations

import statistics
import time

from scenarios.stormfury import ENGINE
from scenarios.stormfury.bots import BOTS, POLICY_BOT

GAMES = 400


def play(seed: int) -> tuple[int, int]:
    """One 4-seat game by the policy bot; returns (rounds, median taps per seat)."""
    state = ENGINE.setup(seed, 4)
    bot = BOTS[POLICY_BOT]
    taps = [0, 0, 0, 0]
    while state["phase"] != "over":
        seats = ENGINE.to_act(state)
        if not seats:
            ENGINE.apply(state, None, {"type": "storm_moves"})
            continue
        seat = seats[0]
        ENGINE.apply(state, seat, bot(state, seat))
        taps[seat] += 1
    return state["round"], int(statistics.median(taps))


def main() -> None:
    play(10_000)  # warm the forecast and footprint caches' code paths, not their contents
    start = time.perf_counter()
    results = [play(seed) for seed in range(GAMES)]
    elapsed = time.perf_counter() - start
    print(f"stormfury_games_per_s: {GAMES / elapsed:.0f} games/s")
    print(f"stormfury_rounds_per_game: {statistics.median(r for r, _ in results):g} rounds")
    print(f"stormfury_taps_per_seat: {statistics.median(t for _, t in results):g} taps")


if __name__ == "__main__":
    main()
