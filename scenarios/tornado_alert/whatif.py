"""Tornado Alert!'s "what if we had played it safe?": each table dealt again from its own seed
(the same shuffle, the same seats, the same rules edition) and played to the end with only the
way of playing changed: every seat keeps a safe place on top of its stack (the ``sheltered``
bot: it takes a pile only when its top photo is from the storm cellar or the submarine). So the
debrief sets what the class did beside the safe play on the same cards, counting what the safety
advice is about: photos from places with no shelter, and tornado strikes on a player's own
photos (which only a photo from a place with no shelter can draw: rules edition 2 never strikes
a safe place). Until 2026-12-07 the replay played the greedy photographer (the policy bot, which
takes any pile worth its average), so "playing it safe" showed more strikes than the class.

It speaks to the engine only through its public interface (``setup``, ``results`` and the
bots, played by ``scenarios.base.play_out``), so it follows the rules of whatever edition the
table was set up with. Pure: no Django; the same table always gives the same replay.
"""

from __future__ import annotations

from scenarios.base import play_out

from . import ENGINE
from .bots import BOTS, sheltered

#: the ways of playing the same deal that the debrief compares with the class
STYLES = {"safe": sheltered}


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
    """The results of the deal of ``seed`` played to the end with every seat playing ``style`` (a
    name in ``STYLES`` or ``bots.BOTS``)."""
    state = ENGINE.setup(seed, seats, options)
    play_out(ENGINE, state, STYLES.get(style) or BOTS[style], unblock=_system_step)
    return ENGINE.results(state)


def what_if(tables: list[dict], sheltered: set) -> dict:
    """For the class's tables (``table_records``: each with ``seed`` and ``state``): what the class
    did, and the same deals played safe, each as photos taken, the share from dangerous places,
    tornado strikes on the players' own photos and the mean score."""
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
