"""Project Stormfury: the cooperative hurricane-response game as a pure, deterministic engine.

The state is a plain JSON-ready dict (so ``load(dump(s)) == s`` holds by construction). Every
rule interpretation is written down in ``RULES.md`` beside this file; the numbered decisions
there are referred to as "RULES.md §n" in comments.

This module is the engine's one public face: it assembles the ``Stormfury`` class from the parts
kept in this package's section modules (and ``scenarios.base.EngineBasics``), and re-exports the tables and functions the bots, the
debrief and the tests read. The sections:

- ``tables``: the content and the static tables built from it once;
- ``state``: the options, a new table, load's schema upgrades, who may act, small state helpers;
- ``actions``: every legal action now;
- ``moves``: ``apply`` (checks, then one handler per action type), what ``canonical`` keeps;
- ``turns``: a round's Forecast Phase, each turn, the end of the Player Phase and of the game;
- ``storm``: what the storm covers, the forecast's outlook, the Hurricane Phase;
- ``screens``: the board, the views and the results.
"""

from __future__ import annotations

from ..base import EngineBasics
from . import projector as _projector
from .actions import LegalActions
from .moves import Moves
from .screens import Screens
from .state import OPTIONS, Bookkeeping
from .storm import HurricanePhase, cover, footprint, forecast_outlook, hit_centres
from .tables import (
    CARD_STEPS,
    CATEGORY,
    CENTRE_START,
    CHITS,
    CITIES,
    CITY_HEX,
    CITY_IDS,
    CONTENT,
    CONTENT_HASH,
    DECKS,
    DIRECTIONS,
    DRAW,
    EDITION,
    FORECAST_SIZE,
    FORTIFY_KINDS,
    HAND_LIMIT,
    HCARDS,
    INFRA,
    KINDS,
    MAP,
    MAPS,
    MOVES,
    NEIGHBOURS,
    OFFERS_PER_TURN,
    POP_SPACE,
    RADIUS,
    RCARDS,
    ROAD_IDS,
    ROADS,
    ROADS_AT,
    ROLE_IDS,
    ROLES,
    SCHEMA_VERSION,
    SPACE_IDS,
    SPACES,
    SPEED,
    START_HAND,
    STORM_STARTS,
    TERRAIN,
    TERRAINS,
    VERSION,
)
from .turns import TurnFlow


class Stormfury(Bookkeeping, Screens, LegalActions, Moves, TurnFlow, HurricanePhase, EngineBasics):
    """The Project Stormfury engine (see the module docstring and RULES.md)."""

    key = "stormfury"

    #: the projector's sentences (``scenarios.base.Engine.projector``)
    projector_words = _projector.WORDS

    def projector(self, view: dict) -> dict:
        """This table on the projector, from its teacher view (``projector.py``)."""
        return _projector.line(view)

    version = VERSION
    schema_version = SCHEMA_VERSION
    content_hash = CONTENT_HASH
    OPTIONS = OPTIONS

    def turn(self, state: dict, seat: int):
        """A seat's turn is its part of the round's phase (choosing a role, or its Player Phase
        turn): an idle player's stand-in plays it to the end (cards played, a hand over the limit
        discarded, the turn ended), never one action of it."""
        return [state["round"], state["phase"]]

    def due(self, state: dict) -> dict | None:
        """The class timer (RULES.md, "The class timer"): ``storm_timer`` seconds after a round's
        Player Phase begins the storm moves, those still playing ending as if skipped. It holds
        for its time when every player has ended and the storm waits for the class, so a table
        that finished early still moves with the others (``scenarios.base``, ``due``). Games set
        up before the timer existed have none."""
        seconds = state["options"].get("storm_timer") or 0
        if not seconds or state["phase"] not in ("player", "storm"):
            return None
        return {
            "key": f"storm-{state['round']}",
            "seconds": seconds,
            "action": {"type": "storm_moves"},
            "hold": True,
        }


__all__ = [
    "CARD_STEPS",
    "CATEGORY",
    "CENTRE_START",
    "CHITS",
    "CITIES",
    "CITY_HEX",
    "CITY_IDS",
    "CONTENT",
    "CONTENT_HASH",
    "DECKS",
    "DIRECTIONS",
    "DRAW",
    "EDITION",
    "FORECAST_SIZE",
    "FORTIFY_KINDS",
    "HAND_LIMIT",
    "HCARDS",
    "INFRA",
    "KINDS",
    "MAP",
    "MAPS",
    "MOVES",
    "NEIGHBOURS",
    "OFFERS_PER_TURN",
    "OPTIONS",
    "POP_SPACE",
    "RADIUS",
    "RCARDS",
    "ROAD_IDS",
    "ROADS",
    "ROADS_AT",
    "ROLE_IDS",
    "ROLES",
    "SCHEMA_VERSION",
    "SPACE_IDS",
    "SPACES",
    "SPEED",
    "START_HAND",
    "STORM_STARTS",
    "TERRAIN",
    "TERRAINS",
    "VERSION",
    "Stormfury",
    "cover",
    "footprint",
    "forecast_outlook",
    "hit_centres",
]
