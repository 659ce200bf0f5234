"""Resort ("Hurricane") figures, one line each as ``name: value unit``.

``python -m benchmarks.resort``: whole 4-seat games by the policy bot on one core (the bots'
thinking included), taps per seat and an estimate of the minutes a 4-seat table needs.
``python -m benchmarks.resort --balance``: the yardstick (the prepared policy bot against the
never-protect habit, two seats each in all six seatings, on every real storm of the deck: the
share of decided games each finished first and their mean worth), the same for the insured
owner, the prepared owner who plots at random and the owner who buys all five options at once
against never protecting, and for the prepared owner against the first two; then four bots rotated
through the seats of one table: mean worth, building damage, insurance claims, option spending,
damage avoided by the seawall and reinforcement, resort hits with and without an evacuation plan.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from benchmarks import stand_in
from benchmarks.pace import ASSUMED, PLAY_MINUTES, Clock, spread
from scenarios.resort import ENGINE
from scenarios.resort.bots import BOTS, POLICY_BOT, head_to_head
from scenarios.resort.rules import EDITION, PROGRAM_IDS

GAMES = 400
#: assumed seconds a child takes: a plain roll, a decision (buy, option, shelter), placing the
#: storm on the grid (all seats at once, so once per line), and reading an event
SECONDS = {"roll": 6, "decide": 20, "track": 25}
#: at a human pace (``benchmarks.pace``) a roll is half a decision: a tap and a look at the die
ROLL_DECISIONS = 0.5


def play(seed: int, bots=None, options=None) -> tuple[dict, list[int], float, float]:
    """One 4-seat game; returns the final state, taps per seat, the estimated seconds at the
    assumed ``SECONDS`` and the minutes at a human pace (``benchmarks.pace``)."""
    state = ENGINE.setup(seed, 4, options or {})
    bots = bots or [POLICY_BOT] * 4
    taps = [0, 0, 0, 0]
    seconds = 0.0
    clock = Clock(4)
    while not ENGINE.finished(state):
        seats = ENGINE.to_act(state)
        phase = state["phase"]
        clock.ready(seats, (state["round"], state["turn"], phase))
        if phase == "track":
            seconds += SECONDS["track"]
            for seat in seats:
                ENGINE.apply(state, seat, BOTS[bots[seat]](state, seat))
                taps[seat] += 1
                clock.tap(seat)
            continue
        seat = seats[0]
        ENGINE.apply(state, seat, BOTS[bots[seat]](state, seat))
        taps[seat] += 1
        clock.tap(seat, ROLL_DECISIONS if phase == "roll" else 1)
        seconds += SECONDS["roll"] if phase == "roll" else SECONDS["decide"]
    return state, taps, seconds, clock.minutes


#: the yardstick and the strategies measured against never protecting (the insured owner, the
#: prepared owner who plots at random, and "always", who buys all five options at once) and
#: against the prepared owner
DUELS = (
    ("prepared", "never"),
    ("insured", "never"),
    ("plot_random", "never"),
    ("always", "never"),
    ("prepared", "insured"),
    ("prepared", "plot_random"),
)


def play_logged(seed: int, kinds) -> tuple[list[dict], list[dict]]:
    """One game of prepared students and seats left to the stand-in (the same policy bot, its
    moves recorded as actor ``timer``): the results and the move log (``benchmarks.stand_in``)."""
    state = ENGINE.setup(seed, len(kinds), {})
    moves = []
    while not ENGINE.finished(state):
        for seat in ENGINE.to_act(state):
            ENGINE.apply(state, seat, BOTS[POLICY_BOT](state, seat))
            moves.append({"seat": seat, "actor": "timer" if kinds[seat] == "stand_in" else "student"})
    return ENGINE.results(state), moves


def balance_main(seeds: int = 4) -> None:
    for careful, other in DUELS:
        duel = head_to_head(careful, other, seeds)
        print(
            f"{careful} against {other} (rules edition {EDITION}; {duel['games']} 4-seat games: {len(PROGRAM_IDS)} "
            f"real storms x {seeds} seeds x 6 seatings of two seats each; {duel['decided']} decided):"
        )
        for bot in (careful, other):
            print(
                f"  {bot:<11} first {duel['first'][bot]:>4} ({100 * duel['first'][bot] / duel['decided']:.1f} %)  "
                f"mean worth {duel['mean_worth'][bot]:,.0f} $"
            )
    print(stand_in.line(stand_in.lets_the_bot_play(play_logged)))
    names = ["prepared", "never", "always", "random"]
    rows = defaultdict(lambda: defaultdict(list))
    for storm in PROGRAM_IDS:
        for seed in range(seeds):
            for shift in range(4):
                bots = [names[(i + shift) % 4] for i in range(4)]
                state, _taps, _s, _m = play(seed, bots, {"storm": storm})
                for row in ENGINE.results(state):
                    b, out = row["breakdown"], rows[bots[row["seat"]]]
                    out["worth"].append(row["score"])
                    out["damage"].append(b["damage"])
                    out["claims"].append(b["claims"])
                    out["spent"].append(b["spent_on_options"])
                    out["avoided"].append(b["saved_by_options"])
                    out["safe"].append(b["people_safe"])
                    out["risk"].append(b["people_at_risk"])
                    out["wins"].append(row["rank"] == 1)
    games = len(PROGRAM_IDS) * seeds * 4
    print(f"mixed tables ({games} games: {len(PROGRAM_IDS)} real storms x {seeds} seeds x 4 seatings; means per seat):")
    print(
        f"  {'bot':<10} {'worth':>10} {'damage':>9} {'claims':>8} {'on options':>11} {'avoided':>9} "
        f"{'hits, plan':>10} {'hits, none':>10} {'first':>6}"
    )
    for bot in names:
        r = {k: statistics.mean(v) for k, v in rows[bot].items()}
        print(
            f"  {bot:<10} {r['worth']:>10,.0f} {r['damage']:>9,.0f} {r['claims']:>8,.0f} {r['spent']:>11,.0f} "
            f"{r['avoided']:>9,.0f} {r['safe']:>10.2f} {r['risk']:>10.2f} {100 * r['wins']:>5.0f}%"
        )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.resort")
    parser.add_argument("--balance", action="store_true", help="final worth by bot over every real storm")
    parser.add_argument("--seeds", type=int, default=4, help="seeds per storm for --balance (default 4)")
    args = parser.parse_args()
    if args.balance:
        balance_main(args.seeds)
        return
    start = time.perf_counter()
    results = [play(seed) for seed in range(GAMES)]
    elapsed = time.perf_counter() - start
    print(f"resort_games_per_s: {GAMES / elapsed:.0f} games/s")
    print(f"resort_rounds_per_game: {statistics.median(s['round'] for s, *_ in results):g} rounds")
    print(f"resort_taps_per_seat: {statistics.median(statistics.median(t) for _, t, *_ in results):g} taps")
    print(
        f"resort_minutes_per_game: {statistics.median(s for _, _, s, _ in results) / 60:.1f} minutes "
        f"(4 seats; assumed seconds {SECONDS})"
    )
    human = [m for *_, m in results]
    print(
        f"resort_minutes_per_game_human_pace: {spread(human)}; {ASSUMED}, a roll half a decision; "
        f"{'fits' if statistics.median(human) <= PLAY_MINUTES else 'does not fit'}"
    )


if __name__ == "__main__":
    main()
