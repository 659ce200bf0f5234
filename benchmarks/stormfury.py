"""Stormfury figures, one line each as ``name: value unit``.

``python -m benchmarks.stormfury`` from the repository root: whole games with 4 cooperative
policy bots on one core (the bots' thinking included), rounds per game, taps per seat and the
minutes a 4-seat table needs at a person's pace (assumptions printed with the figure; the storm
dies out before the "Most turns" cap in most games, so the cap rarely sets the length).
``python -m benchmarks.stormfury --geometry``: 1,000 storms (storm seeds 0–999) on each rules
edition (RULES.md "Editions"): how often a move runs into a map edge, and how many city
hits come only from the footprint the move started from.
``python -m benchmarks.stormfury --balance``: 1,000 four-seat games (seeds 0–999) by the random
and the cooperative bot, with the default options and with the "As printed" preset (RULES.md's
balance table).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from benchmarks.pace import ASSUMED, PLAY_MINUTES, Clock, spread
from scenarios.stormfury import ENGINE, PRESETS, rules
from scenarios.stormfury.bots import BOTS, POLICY_BOT

GAMES = 400
STORMS = 1000
# A person's pace (assumed): a tap after reading the hand and the map, and the storm's move
# read out and its damage looked at once a round.
SECONDS_PER_TAP = 15
STORM_SECONDS = 45


def play(seed: int, options=None) -> tuple[int, int, float]:
    """One 4-seat game by the policy bot; returns (rounds, median taps per seat, minutes at a
    person's pace: the seats play each Player Phase at once, so a round lasts as long as its
    busiest seat's taps, plus the storm's move read aloud)."""
    rounds, taps, minutes, _human = paced(seed, options)
    return rounds, taps, minutes


def paced(seed: int, options=None) -> tuple[int, int, float, float]:
    """``play``'s figures and the minutes at a human pace (``benchmarks.pace``), with the class
    timer: a Player Phase lasts until its slowest seat is done or ``storm_timer`` runs out,
    whichever is first (the storm then moves and those still playing are skipped)."""
    state = ENGINE.setup(seed, 4, options)
    bot = BOTS[POLICY_BOT]
    taps = [0, 0, 0, 0]
    this_round = [0, 0, 0, 0]
    seconds = 0.0
    clock = Clock(4)
    began = None  # when this round's Player Phase began, at a human pace
    timer = state["options"].get("storm_timer")

    def storm_moved():
        # the Player Phase is over (its slowest seat, or the timer), then the storm's move is read
        nonlocal seconds, this_round, began
        seconds += max(this_round) * SECONDS_PER_TAP + STORM_SECONDS
        this_round = [0, 0, 0, 0]
        if timer and began is not None:
            clock.cap(began, timer)
        clock.wait(STORM_SECONDS)
        began = None

    while state["phase"] != "over":
        seats = ENGINE.to_act(state)
        if state["phase"] == "player" and began is None:
            began = clock.now
        clock.ready(seats, (state["round"], state["phase"]))
        if not seats:  # the storm held for the class: it moves now
            storm_moved()
            ENGINE.apply(state, None, {"type": "storm_moves"})
            continue
        seat = seats[0]
        before = state["round"]
        ENGINE.apply(state, seat, bot(state, seat))
        taps[seat] += 1
        this_round[seat] += 1
        clock.tap(seat)
        if state["round"] != before or state["phase"] == "over":  # the last seat ended: the storm moved
            storm_moved()
    return state["round"], int(statistics.median(taps)), seconds / 60, clock.minutes


def _edge(q: int, r: int, terrain: dict) -> str:
    """Which edge an off-map hex lies beyond: north, south, west or east."""
    if q < min(x for x, _ in terrain):
        return "west"
    if q > max(x for x, _ in terrain):
        return "east"
    rows = [y for x, y in terrain if x == q]
    return "north" if r < min(rows) else "south"


def storm_geometry(edition: int, storms: int = STORMS) -> dict:
    """Play ``storms`` storms alone (a storm never depends on the players) and count moves that
    ran into an edge and city hits that only the starting footprint gave."""
    terrain = rules.TERRAINS[edition]
    moves = edge_moves = north_row = 0
    edges: Counter = Counter()
    hits = start_only = 0
    rounds, ended, inland = [], Counter(), []
    for seed in range(storms):
        state = ENGINE.setup(seed, 1, {"storm_seed": seed, "edition": edition})
        ENGINE.apply(state, None, {"type": "auto_roles"})
        deepest = 0
        while not ENGINE.finished(state):
            start = tuple(state["storm"]["at"])
            radius = rules.RADIUS[state["storm"]["category"]]
            events = ENGINE.apply(state, None, {"type": "storm_moves"})
            path = [start] + [tuple(e["at"]) for e in events if e["type"] == "storm_step"]
            blocked = {
                _edge(
                    e["at"][0] + rules.DIRECTIONS[e["direction"]][0],
                    e["at"][1] + rules.DIRECTIONS[e["direction"]][1],
                    terrain,
                )
                for e in events
                if e["type"] == "storm_blocked"
            }
            moves += 1
            edge_moves += bool(blocked)
            edges.update(blocked)
            entered = path[1:] or path[:1]
            counted = {c for h in rules.hit_centres(path, edition) for c in rules.cover(*h, radius)[0]}
            moved = {c for h in entered for c in rules.cover(*h, radius)[0]}
            hits += len(counted)
            start_only += len(counted - moved)
            q, r = state["storm"]["at"]
            north_row += (q, r - 1) not in terrain
            deepest = max(deepest, -(r + q // 2))
        rounds.append(state["round"])
        ended[state["ended"]] += 1
        inland.append(deepest)
    return {
        "moves": moves,
        "edge": edge_moves,
        "north_row": north_row,
        "edges": edges,
        "hits": hits,
        "start_only": start_only,
        "rounds": rounds,
        "ended": ended,
        "inland": inland,
    }


def geometry_main() -> None:
    for edition in sorted(rules.MAPS):
        g = storm_geometry(edition)
        rows = len({q // 2 + r for q, r in rules.TERRAINS[edition]})
        print(
            f"edition {edition} ({rows} rows, {len(rules.TERRAINS[edition])} hexes), "
            f"{STORMS} storms, {g['moves']} storm moves:"
        )
        print(
            f"  stormfury_edge_moves: {100 * g['edge'] / g['moves']:.1f} % of moves "
            f"(north {100 * g['edges']['north'] / g['moves']:.1f} %, "
            f"west {100 * g['edges']['west'] / g['moves']:.1f} %, "
            f"east {100 * g['edges']['east'] / g['moves']:.1f} %, "
            f"south {100 * g['edges']['south'] / g['moves']:.1f} %)"
        )
        print(
            f"  stormfury_moves_ending_on_north_edge: {100 * g['north_row'] / g['moves']:.1f} % "
            "of moves end on a hex with no map north of it"
        )
        print(
            f"  stormfury_start_only_city_hits: {100 * g['start_only'] / max(1, g['hits']):.1f} % "
            f"of {g['hits']} city hits"
        )
        print(
            f"  stormfury_storm_rounds: median {statistics.median(g['rounds']):g}, "
            f"ended {dict(sorted(g['ended'].items()))}"
        )
        beyond = [n for n in g["inland"] if n > 0]
        print(
            f"  stormfury_storms_north_of_map_1: {100 * len(beyond) / STORMS:.1f} % of storms "
            f"take their centre north of map 1's top row (at most {max(beyond, default=0)} rows)"
        )


def whole_game(seed: int, bot: str, options: dict | None = None) -> dict:
    """One 4-seat game with ``bot`` in every seat; its final state."""
    state = ENGINE.setup(seed, 4, options)
    while not ENGINE.finished(state):
        seats = ENGINE.to_act(state)
        if seats:
            ENGINE.apply(state, seats[0], BOTS[bot](state, seats[0]))
        else:
            ENGINE.apply(state, None, {"type": "storm_moves"})
    return state


def balance_main() -> None:
    for label, options in (("default options", None), ("as_printed", PRESETS["as_printed"])):
        for bot in ("random", POLICY_BOT):
            games = [whole_game(seed, bot, options) for seed in range(STORMS)]
            damage = sorted(g["damage"]["total"] for g in games)
            kinds = {
                k: statistics.mean(g["damage"][k] for g in games) for k in ("infrastructure", "population", "roads")
            }
            print(
                f"{label}, {bot}: mean damage {statistics.mean(damage):.1f}, median "
                f"{statistics.median(damage):g}, 10th-90th pct {damage[STORMS // 10]}-"
                f"{damage[9 * STORMS // 10]}, infrastructure/people/roads "
                f"{kinds['infrastructure']:.1f}/{kinds['population']:.1f}/{kinds['roads']:.1f}, "
                f"30 or more: {100 * sum(d >= 30 for d in damage) / STORMS:.1f} %"
            )
        rounds = Counter(g["round"] for g in games)
        peak = Counter(max([h["category"] for h in g["storm"]["history"]] or [2]) for g in games)
        print(
            f"{label}: rounds {dict(sorted(rounds.items()))}, peak category "
            f"{dict(sorted(peak.items()))}, ended {dict(Counter(g['ended'] for g in games))}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.stormfury")
    parser.add_argument(
        "--geometry", action="store_true", help="storm-edge and start-footprint figures over 1,000 storms"
    )
    parser.add_argument(
        "--balance", action="store_true", help="damage by bot over 1,000 games, default options and as printed"
    )
    args = parser.parse_args()
    if args.geometry:
        geometry_main()
        return
    if args.balance:
        balance_main()
        return
    play(10_000)  # warm the forecast and footprint caches' code paths, not their contents
    start = time.perf_counter()
    results = [paced(seed) for seed in range(GAMES)]
    elapsed = time.perf_counter() - start
    print(f"stormfury_games_per_s: {GAMES / elapsed:.0f} games/s")
    print(f"stormfury_rounds_per_game: {statistics.median(r for r, *_ in results):g} rounds")
    print(f"stormfury_taps_per_seat: {statistics.median(t for _, t, *_ in results):g} taps")
    assumed = f"(4 seats playing at once, {SECONDS_PER_TAP} s a tap, {STORM_SECONDS} s for each storm move)"
    print(f"stormfury_minutes_per_game: {statistics.median(m for _, _, m, _ in results):.1f} min {assumed}")
    human = [h for *_, h in results]
    print(
        f"stormfury_minutes_per_game_human_pace: {spread(human)}; the storm moving on its class timer of "
        f"{ENGINE.setup(0, 4)['options'].get('storm_timer')} s, {STORM_SECONDS} s for each storm move; {ASSUMED}; "
        f"{'fits' if statistics.median(human) <= PLAY_MINUTES else 'does not fit'}"
    )
    untimed = [paced(seed, {"storm_timer": 0})[3] for seed in range(GAMES)]
    print(f"stormfury_minutes_per_game_human_pace_no_timer: {spread(untimed)} (the storm waits for every seat)")


if __name__ == "__main__":
    main()
