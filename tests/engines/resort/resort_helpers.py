"""Helpers for the resort engine's tests: put a pawn where the next roll lands it."""

from scenarios.base import roll
from scenarios.resort import ENGINE
from scenarios.resort.rules import DIE, OUTER


def next_die(state, seat):
    return roll(state["seed"], "die", seat, state["rolls"], sides=DIE)


def land_on(state, seat, index):
    """Roll for ``seat`` so that its pawn lands on outer space ``index``; the roll's events."""
    assert state["turn"] == seat and state["phase"] == "roll"
    state["seats"][seat]["pawn"] = (index - next_die(state, seat)) % len(OUTER)
    return ENGINE.apply(state, seat, {"type": "roll"})


def space(kind, after=0):
    """The first outer space of ``kind`` (or that resort id) at or after ``after``."""
    return next(i for i in range(after, len(OUTER)) if OUTER[i] == kind)


def give(state, seat, rid, options=0):
    state["owner"][rid], state["held"][rid] = seat, options
