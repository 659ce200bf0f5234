"""Tornado Alert!'s "what if": each table dealt again from its own seed and played to the end
with every seat taking care (the photographer bot: its safest card, only piles worth having),
so the debrief can set what the class did beside a careful class on the same cards. (Replaying
with the daredevil as well doubled the page's time for little more to say.)

It speaks to the engine only through its public interface (``setup``, ``results`` and the
bots, played by ``scenarios.base.play_out``), so it follows the rules of whatever edition the
table was set up with. Pure: no Django; the same table always gives the same replay.
"""

from __future__ import annotations

from scenarios.base import play_out

from . import ENGINE
from .bots import BOTS

#: the ways of playing the same deal that the debrief compares with the class
STYLES = ("photographer",)


def measure(results: list[dict], sheltered: set) -> dict:
    """Photos taken, how many and what share came from dangerous places (not in ``sheltered``),
    tornado strikes in all and per player, and the mean score, over ``results`` rows."""
    photos = risky = strikes = 0
    for result in results:
        b = result["breakdown"]
        photos += sum(b["locations"].values())
        risky += sum(n for loc, n in b["locations"].items() if loc not in sheltered)
        strikes += b["tornado"]
    players = len(results) or 1
    return {
        "photos": photos,
        "risky": risky,
        "risky_share": round(100 * risky / photos) if photos else 0,
        "tornado": strikes,
        "tornado_per_player": round(strikes / players, 1),
        "score": round(sum(r["score"] for r in results) / players, 2),
    }


def _system_step(state: dict) -> dict:
    """When no seat may act: the step the game's own clock takes next (a race settled, the next
    card), or the end if there is none."""
    due = ENGINE.due(state)
    return due["action"] if due else {"type": "end_now"}


def replay(seed: int, seats: int, options: dict, style: str) -> list[dict]:
    """The results of the deal of ``seed`` played to the end with every seat playing ``style``."""
    state = ENGINE.setup(seed, seats, options)
    play_out(ENGINE, state, BOTS[style], unblock=_system_step)
    return ENGINE.results(state)


def what_if(tables: list[dict], sheltered: set) -> dict:
    """For the class's tables (``table_records``: each with ``seed`` and ``state``): what the class
    did, and the same deals played carefully, each as photos taken, the share from dangerous
    places, tornado strikes and the mean score."""
    actual, styled = [], {style: [] for style in STYLES}
    for table in tables:
        state = ENGINE.load(table["state"])
        actual += ENGINE.results(state)
        for style in STYLES:
            styled[style] += replay(table["seed"], state["seats"], state["options"], style)
    return {
        "class": measure(actual, sheltered),
        **{style: measure(rows, sheltered) for style, rows in styled.items()},
        "tables": len(tables),
    }
