"""What the debrief reads from a finished Bermuda game: each fleet's freight and losses, how
often it sailed into the cone, and a counterfactual replay in which the same fleet keeps out of
the cone (the same cloud: the spinner's stream does not depend on the players). Pure Python.

The replay means what the lesson means by "keeping out of the cone": the same captain makes the
same moves, except that a move ending in the danger area the tablet drew (edition 2: the cone
and its 1-2-3 margin, cone first; edition 1: the cone of every spin) when a move ending less
exposed was offered is replaced by the best freight among the least exposed moves. Once the
game has gone another way, a logged move that is no longer offered is replaced the same way."""

from __future__ import annotations

from ..base import play_out
from .bots import BOTS, POLICY_BOT, _worth
from .rules import ENGINE, UNIT


def fleets(state) -> list[dict]:
    """One row per seat: the engine's results with the seat's moves into the cone."""
    rows = []
    for result in ENGINE.results(state):
        b = result["breakdown"]
        rows.append(
            {
                "seat": result["seat"],
                "rank": result["rank"],
                "freight": b["freight"],
                "lost_freight": b["lost_freight"],
                "ships_lost": b["ships_lost"],
                "moves": b["moves"],
                "into_cone": b["into_cone"],
                "cone_avoidable": b["cone_avoidable"],
                "into_margin": b["into_margin"],
                "caught_outside": b["caught_outside"],
                "docked": b["docked"],
                "cone_share": round(100 * b["into_cone"] / b["moves"]) if b["moves"] else 0,
            }
        )
    return rows


def keep_clear_move(state, seat, logged=None):
    """The move a captain keeping out of the cone makes: ``logged`` if it is offered and ends no
    deeper in the danger area than the least exposed move offered, else the best freight among
    the least exposed moves (ties: the ship and space first in the list)."""
    offered = ENGINE.moves(state, seat)
    zone = {(m["ship"], m["to"]): ENGINE.zone(state, m["to"]) for m in offered}
    least = min(zone.values())
    if logged and zone.get((logged.get("ship"), logged.get("to")), least + 1) <= least:
        return {"type": "sail", "ship": logged["ship"], "to": logged["to"]}
    ships = {s["id"]: s for s in state["ships"]}
    clear = [m for m in offered if zone[(m["ship"], m["to"])] == least]
    best = max(clear, key=lambda m: (_worth(state, m, ships[m["ship"]]), -offered.index(m)))
    return {"type": "sail", "ship": best["ship"], "to": best["to"]}


def replay(seed, seats, options, moves, keep_clear=None, until_round=None):
    """Play the table's logged moves again from the seed. With ``keep_clear`` set, that seat's
    captain keeps out of the cone (``keep_clear_move``) and otherwise makes its own logged moves,
    in order; other seats play their logged move while it is legal, else the policy bot.
    Returns the final state."""
    bot = BOTS[POLICY_BOT]
    state = ENGINE.setup(seed, seats, options)
    queue = {s: [m for seat, m in moves if seat == s] for s in range(seats)}

    def choose(state, seat):
        logged = queue[seat].pop(0) if queue[seat] else None
        if seat == keep_clear:
            return keep_clear_move(state, seat, logged)
        if logged is not None and logged in ENGINE.actions(state, seat):
            return logged
        return bot(state, seat)

    play_out(
        ENGINE,
        state,
        choose,
        first_seat=True,
        max_moves=10_000,
        unblock=lambda state: {"type": "end_now"},
        until=lambda state: bool(until_round) and state["round"] > until_round,
    )
    if not ENGINE.finished(state):
        ENGINE.apply(state, None, {"type": "end_now"})
    return state


def table_story(table) -> dict:
    """A finished table as the debrief tells it: each fleet with its holder and its
    counterfactual (the same fleet kept out of the cone, the same cloud, until the same round)."""
    state = ENGINE.load(table["state"])
    seats = state["seats_n"]
    moves = [(m["seat"], m["action"]) for m in table["moves"] if m["seat"] is not None]
    rows = fleets(state)
    for row in rows:
        holder = table["holders"].get(row["seat"])
        row["name"] = holder["name"] if holder else None
        row["stand_in"] = bool(holder and holder.get("stand_in"))  # its freight is the stand-in's
        clear = replay(
            table["seed"], seats, state["options"], moves, keep_clear=row["seat"], until_round=state["round"]
        )
        mine = {r["seat"]: r for r in fleets(clear)}[row["seat"]]
        row["clear"] = {k: mine[k] for k in ("freight", "lost_freight", "ships_lost", "into_cone", "into_margin")}
        row["clear"].update(freight_usd=mine["freight"] * UNIT, lost_usd=mine["lost_freight"] * UNIT)
        row.update(freight_usd=row["freight"] * UNIT, lost_usd=row["lost_freight"] * UNIT)
    return {
        "table": table["table"],
        "rounds": state["round"],
        "ended": state["ended"],
        "fleets": rows,
        "edition": state["options"].get("edition", 1),
        "caught": sum(r["ships_lost"] for r in rows),
    }


def class_summary(stories) -> dict:
    """The class's sentences: sums over the students' fleets, the rows the debrief's table
    marks as students' and totals in its last row (bots' fleets are listed, not summed)."""
    rows = [r for s in stories for r in s["fleets"]]
    students = [r for r in rows if r["name"]]
    moves = sum(r["moves"] for r in students) or 0
    return {
        "edition": max((s["edition"] for s in stories), default=2),
        "moves": moves,
        "into_cone": sum(r["into_cone"] for r in students),
        "caught_outside": sum(r["caught_outside"] for r in students),
        "tables": len(stories),
        "fleets": len(rows),
        "students": len(students),
        "freight": sum(r["freight"] for r in students),
        "lost_freight": sum(r["lost_freight"] for r in students),
        "ships_lost": sum(r["ships_lost"] for r in students),
        "cone_share": round(100 * sum(r["into_cone"] for r in students) / moves) if moves else 0,
        "clear_lost": sum(r["clear"]["lost_freight"] for r in students),
        "clear_ships_lost": sum(r["clear"]["ships_lost"] for r in students),
        "rows": rows,
        "freight_usd": sum(r["freight"] for r in students) * UNIT,
        "lost_usd": sum(r["lost_freight"] for r in students) * UNIT,
        "clear_lost_usd": sum(r["clear"]["lost_freight"] for r in students) * UNIT,
    }
