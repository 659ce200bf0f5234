"""Helpers for the resort engine's tests: put a pawn where the next roll lands it, find NOAA's
best-track file."""

import os
from pathlib import Path

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


def hurdat2() -> str:
    """The HURDAT2 best-track file the programs were built from: ``$STORMWISE_HURDAT2``, else
    ``shared/data/hurdat2_notable.txt`` beside the checkout or above it (where the project's
    machines keep the shared data). A clear failure when there is none."""
    named = os.environ.get("STORMWISE_HURDAT2")
    if named:
        return named
    for folder in Path(__file__).resolve().parents:
        found = folder / "shared" / "data" / "hurdat2_notable.txt"
        if found.is_file():
            return str(found)
    raise AssertionError(
        "No HURDAT2 file: set STORMWISE_HURDAT2 to NOAA NHC's best-track file (README, 'Hurricane programs')."
    )
