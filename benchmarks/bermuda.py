"""Bermuda Triangle figures, one line each as ``name: value unit``.

``python -m benchmarks.bermuda`` from the repository root: whole four-fleet games by the
cautious (policy) bot on one core, the bots' thinking included; rounds per game, taps per seat
and the minutes a game takes at a tablet, with strict turns and with moves together.
``python -m benchmarks.bermuda --balance``: first the yardstick, two cautious against two fleets
of each other strategy (bold, port shuttle, cone-literal; and cone-literal against bold) in all
six seatings (``--games``/20 seeds): the share of decided games each finished first, mean
freight, losses, salvage paid, what short hauls did not pay and ships caught outside the drawn
cone; then 1,000 games (seeds
0-999) with two bold and two cautious fleets, with the default options and the "As printed"
preset, and the random bot's figures beside them.
"""

from __future__ import annotations

import argparse
import statistics
import time

from benchmarks import stand_in
from benchmarks.pace import ASSUMED, PLAY_MINUTES, Clock, spread
from scenarios.bermuda import ENGINE, PRESETS
from scenarios.bermuda.bots import BOTS, POLICY_BOT, head_to_head
from scenarios.bermuda.rules import EDITION

GAMES = 400
BALANCE = 1000
#: Seconds a student takes per sail at a tablet (read the cone, decide, tap): the evacuation
#: benchmark's assumption
SECONDS_PER_TAP = 15


def play(seed: int, kinds, options=None):
    """One game with ``kinds[seat]`` bots; its final state and each seat's taps."""
    return paced(seed, kinds, options)[:2]


def paced(seed: int, kinds, options=None):
    """One game; its final state, each seat's taps and its minutes at a human pace
    (``benchmarks.pace``: fleets moving together decide at once, fleets in turn one after
    another)."""
    state = ENGINE.setup(seed, len(kinds), options)
    taps = [0] * len(kinds)
    clock = Clock(len(kinds))
    while not ENGINE.finished(state):
        seats = ENGINE.to_act(state)
        clock.ready(seats, (state["round"], state["turn"]))
        seat = seats[0]
        ENGINE.apply(state, seat, BOTS[kinds[seat]](state, seat))
        taps[seat] += 1
        clock.tap(seat)
    return state, taps, clock.minutes


def human_minutes(options=None, games: int = 100) -> list[float]:
    """The minutes of ``games`` four-fleet games by the cautious bot at a human pace."""
    return [paced(seed, [POLICY_BOT] * 4, options)[2] for seed in range(games)]


def speed_main() -> None:
    policy = [POLICY_BOT] * 4
    play(10_000, policy)
    start, cpu = time.perf_counter(), time.process_time()
    games = [play(seed, policy) for seed in range(GAMES)]
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    rounds = statistics.median(s["round"] for s, _ in games)
    taps = statistics.median(statistics.median(t) for _, t in games)
    # CPU time of this process: on a shared machine wall time also counts other programs' turns
    print(f"bermuda_games_per_s: {GAMES / cpu:.0f} games/s (CPU time; {GAMES / elapsed:.0f} by the wall clock)")
    print(f"bermuda_rounds_per_game: {rounds:g} rounds")
    print(f"bermuda_taps_per_seat: {taps:g} taps")
    print(
        f"bermuda_minutes_per_game_in_turn: {rounds * 4 * SECONDS_PER_TAP / 60:.1f} min "
        f"(4 players, {SECONDS_PER_TAP} s a sail, one player after another)"
    )
    print(
        f"bermuda_minutes_per_game_together: {rounds * SECONDS_PER_TAP / 60:.1f} min "
        f"(4 players moving in the same round)"
    )
    for label, options in (("", None), ("_in_turn", {"turns": "in_turn"})):
        human = human_minutes(options)
        print(
            f"bermuda_minutes_per_game_human_pace{label}: {spread(human)}; rules edition {EDITION}, "
            f"{(options or {}).get('turns', 'default options')}; {ASSUMED}; "
            f"{'fits' if statistics.median(human) <= PLAY_MINUTES else 'does not fit'}"
        )
    printed = [play(seed, policy, PRESETS["as_printed"]) for seed in range(100)]
    prounds = statistics.median(s["round"] for s, _ in printed)
    print(
        f"bermuda_minutes_per_game_as_printed: {prounds * 4 * SECONDS_PER_TAP / 60:.1f} min "
        f"({prounds:g} rounds, 100 games)"
    )


#: the strategies the cautious captain is measured against, and one more pairing: the
#: cone-literal captain (keeps out of the cone, not its margin) against the bold
DUELS = (
    ("cautious", "bold"),
    ("cautious", "port_shuttle"),
    ("cautious", "cone_literal"),
    ("cone_literal", "bold"),
)


def play_logged(seed: int, kinds) -> tuple[list[dict], list[dict]]:
    """One game of cautious students and fleets left to the stand-in (the same policy bot, its
    moves recorded as actor ``timer``): the results and the move log (``benchmarks.stand_in``)."""
    state = ENGINE.setup(seed, len(kinds), None)
    moves = []
    while not ENGINE.finished(state):
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, BOTS[POLICY_BOT](state, seat))
        moves.append({"seat": seat, "actor": "timer" if kinds[seat] == "stand_in" else "student"})
    return ENGINE.results(state), moves


def balance_main(games: int = BALANCE) -> None:
    seeds = max(1, games // 20)
    for careful, other in DUELS:
        duel = head_to_head(careful, other, seeds)
        print(
            f"{careful} against {other} (rules edition {EDITION}, default options; {duel['games']} 4-fleet games: "
            f"{seeds} seeds x 6 seatings of two fleets each; {duel['decided']} decided):"
        )
        for kind in (careful, other):
            m = duel["mean"][kind]
            print(
                f"  {kind:<12} first {duel['first'][kind]:>4} ({100 * duel['first'][kind] / max(1, duel['decided']):.1f} %)  "
                f"freight {m['freight']:.1f}k  lost {m['lost_freight']:.2f}k  ships lost {m['ships_lost']:.2f}  "
                f"salvage {m['salvage']:.1f}k  short hauls {m['haul_cut']:.1f}k  "
                f"caught outside the cone {m['caught_outside']:.2f}"
            )
    print(stand_in.line(stand_in.lets_the_bot_play(play_logged, seeds)))
    kinds = ["bold", "cautious", "bold", "cautious"]
    for label, options in (("default options", None), ("as_printed", PRESETS["as_printed"])):
        rows = {"bold": [], "cautious": []}
        for seed in range(games):
            state, _ = play(seed, kinds, options)
            for r in ENGINE.results(state):
                rows[kinds[r["seat"]]].append(r)
        for kind, results in rows.items():
            b = [r["breakdown"] for r in results]
            print(
                f"{label}, {kind} (2 of 4 fleets): freight {statistics.mean(x['freight'] for x in b):.1f}k, "
                f"freight lost {statistics.mean(x['lost_freight'] for x in b):.2f}k, "
                f"ships lost {statistics.mean(x['ships_lost'] for x in b):.2f}, "
                f"salvage {statistics.mean(x['salvage'] for x in b):.1f}k, "
                f"moves into the cone {100 * sum(x['into_cone'] for x in b) / max(1, sum(x['moves'] for x in b)):.0f} %, "
                f"first place {100 * sum(r['rank'] == 1 for r in results) / games:.1f} % of games"
            )
        rand = [
            r["breakdown"] for seed in range(games // 5) for r in ENGINE.results(play(seed, ["random"] * 4, options)[0])
        ]
        print(
            f"{label}, random (4 of 4 fleets, {games // 5} games): freight "
            f"{statistics.mean(x['freight'] for x in rand):.1f}k, freight lost "
            f"{statistics.mean(x['lost_freight'] for x in rand):.2f}k, ships lost "
            f"{statistics.mean(x['ships_lost'] for x in rand):.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bermuda")
    parser.add_argument(
        "--balance",
        action="store_true",
        help="bold against cautious fleets over 1,000 games, default options and as printed",
    )
    parser.add_argument("--games", type=int, default=BALANCE, help="games for --balance (default 1,000)")
    args = parser.parse_args()
    balance_main(args.games) if args.balance else speed_main()


if __name__ == "__main__":
    main()
