"""A Stormfury table's state: the options, a new table, loading a stored one (with the schema
upgrades), who may act, and the small helpers every rule uses on the state.

``Bookkeeping`` is the part of the ``Stormfury`` engine class (``rules.py``) that sets a table
up and reads where it stands.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import IllegalAction, draw, json_copy, shuffled
from ..words import gettext_noop  # marks refusal sentences for the web layer to translate
from .tables import (
    CENTRE_START,
    CITIES,
    CITY_IDS,
    CONTENT,
    CONTENT_HASH,
    EDITION,
    KINDS,
    MAPS,
    RCARDS,
    ROAD_IDS,
    ROLE_IDS,
    SCHEMA_VERSION,
    SPACE_IDS,
    START_HAND,
    STORM_STARTS,
    VERSION,
)

# --- Options ------------------------------------------------------------------------------------

#: seconds of a round's Player Phase before the storm moves by itself (RULES.md, "The class
#: timer"): a round of five decisions at a child's pace, and the hesitant child's most of them
STORM_TIMER = 120

OPTIONS = [
    {
        "name": "storm_seed",
        "label": gettext_noop("Storm seed"),
        "default": None,
        "choices": None,
        "description": gettext_noop(
            "Seed of the storm alone (forecast deals and flips). Give every table of a "
            "class the same number and they face the same storm. Empty: from the seed."
        ),
    },
    {
        "name": "hold_storm",
        "label": gettext_noop("Hold the storm for the class"),
        "default": False,
        "choices": [False, True],
        "description": gettext_noop(
            "When every player has ended the Player Phase, wait for the 'storm moves' "
            "button (so the whole class's storm moves at once)."
        ),
    },
    {
        "name": "storm_timer",
        "label": gettext_noop("The storm moves by itself after"),
        "default": STORM_TIMER,
        "choices": [0, 60, 90, 120, 150, 180, 240],
        "choice_labels": {
            0: gettext_noop("Never: it waits for every player or the teacher"),
            60: gettext_noop("1 minute"),
            90: gettext_noop("1½ minutes"),
            120: gettext_noop("2 minutes"),
            150: gettext_noop("2½ minutes"),
            180: gettext_noop("3 minutes"),
            240: gettext_noop("4 minutes"),
        },
        "description": gettext_noop(
            "The class timer: this long after a Player Phase begins the storm moves, whoever "
            "is still playing (their turn ends as if skipped). It moves sooner when every "
            "player has ended, or when the teacher presses 'Storm moves'."
        ),
    },
    {
        "name": "turn_order",
        "label": gettext_noop("Turn order"),
        "default": "simultaneous",
        "choices": ["simultaneous", "round_table"],
        "choice_labels": {"simultaneous": gettext_noop("All at once"), "round_table": gettext_noop("Round the table")},
        "description": gettext_noop(
            "Everyone plays the Player Phase at once, or one after another round the table as in the rule book."
        ),
    },
    {
        "name": "turn_cap",
        "label": gettext_noop("Most turns"),
        "default": 12,
        "choices": [6, 8, 10, 12, 15, 20],
        "description": gettext_noop("The game ends after this many turns even if the storm has not died out."),
    },
    {
        "name": "open_hands",
        "label": gettext_noop("Open hands"),
        "default": True,
        "choices": [True, False],
        "description": gettext_noop("Players see each other's cards (it is a team game)."),
    },
    {
        "name": "hits",
        "label": gettext_noop("Storm hits"),
        "default": "per_turn",
        "choices": ["per_turn", "per_step"],
        "choice_labels": {"per_turn": gettext_noop("Once per turn"), "per_step": gettext_noop("Once per hex")},
        "description": gettext_noop(
            "A city under the storm is hit once per turn, or once for every hex the storm's center passes through."
        ),
    },
    {
        "name": "final_move_damage",
        "label": gettext_noop("Damage on the storm's last move"),
        "default": True,
        "choices": [True, False],
        "description": gettext_noop("The storm's last move, the one in which it dies out, still does damage."),
    },
    {
        "name": "land_decay",
        "label": gettext_noop("Storms weaken over land"),
        "default": True,
        "choices": [True, False],
        "description": gettext_noop("A storm that ends its move over land always weakens one category."),
    },
    {
        "name": "trade_expiry",
        "label": gettext_noop("Trade offers expire after (actions)"),
        "default": 8,
        "choices": [4, 8, 16],
        "description": gettext_noop(
            "A trade offer nobody answers expires after this many actions at the table "
            "(and always at the end of the Player Phase)."
        ),
    },
    {
        "name": "chits",
        "label": gettext_noop("Only the box's chits"),
        "default": False,
        "choices": [False, True],
        "description": gettext_noop(
            "Only the box's chits: at most 30 fortification tokens on the board at once, "
            "and no more damage once all 30 damage chits are used."
        ),
    },
    {
        "name": "storm_start",
        "label": gettext_noop("Where the storm starts"),
        "default": "seeded",
        "choices": ["seeded", "single"],
        "choice_labels": {"seeded": gettext_noop("One of three hexes"), "single": gettext_noop("Always the center")},
        "description": gettext_noop(
            "The storm starts on one of three hexes far out in the Gulf (west, center "
            "or east, drawn by lot), or always on the center one."
        ),
    },
    {
        "name": "edition",
        "label": gettext_noop("Rules edition"),
        "default": EDITION,
        "choices": None,
        "description": gettext_noop(
            "The rules edition a game was set up with; 1 replays games stored by engine 1.0.0."
        ),
    },
]
_DEFAULTS = {o["name"]: o["default"] for o in OPTIONS}


def _options(options: Mapping | None, seed: int) -> dict:
    opts = dict(_DEFAULTS)
    for name, value in (options or {}).items():
        if name not in opts:
            raise ValueError(f"unknown Stormfury option {name!r}")
        opts[name] = value
    for o in OPTIONS:
        if o["choices"] is not None and opts[o["name"]] not in o["choices"]:
            value = opts[o["name"]]
            if o["name"] in ("turn_cap", "storm_timer") and isinstance(value, int) and not isinstance(value, bool):
                if value > 0:  # any number of turns or seconds, beside those the form offers
                    continue
            raise ValueError(f"bad value {opts[o['name']]!r} for Stormfury option {o['name']!r}")
    if opts["edition"] not in MAPS:
        raise ValueError(f"bad value {opts['edition']!r} for Stormfury option 'edition'")
    if opts["storm_seed"] is None:
        opts["storm_seed"] = draw(seed, "storm_seed", None, 0) % 2**31
    if not isinstance(opts["storm_seed"], int):
        raise ValueError("storm_seed must be an integer")
    return opts


# --- Small state helpers ------------------------------------------------------------------------


def _upgrade_1_to_2(state: dict) -> None:
    """Schema 1 to 2: the game plays on by the rules edition it was set up with (edition 1),
    without chit limits, from the start hex it had."""
    state["schema"] = 2
    state["options"].update(edition=1, chits=False, storm_start="seeded")
    for p in state["players"]:
        p["pile_cards"] = {}


def _refuse(code: str, message: str, **params: Any) -> IllegalAction:
    return IllegalAction(code, message, **params)


def _hand_size(hand: dict) -> int:
    return sum(hand.values())


def _draw_cards(state: dict, n: int) -> list[str]:
    """Take ``n`` cards from the resource deck, reshuffling the discards when it runs out."""
    out = []
    deck = state["deck"]
    for _ in range(n):
        if not deck:
            if not state["discards"]:
                break
            state["ctr"]["deck"] += 1
            deck[:] = shuffled(
                sorted(state["discards"], key=KINDS.index), state["seed"], "deck", None, state["ctr"]["deck"]
            )
            state["discards"] = []
        out.append(deck.pop())
    return out


def _counts(cards: list[str]) -> dict[str, int]:
    c: dict[str, int] = {}
    for k in cards:
        c[k] = c.get(k, 0) + 1
    return c


def _check_cards(hand: dict, cards: Any, n: int, reserve: dict | None = None) -> dict[str, int]:
    """Check that ``cards`` is a list of ``n`` card kinds the hand holds beyond ``reserve``."""
    if not isinstance(cards, list) or len(cards) != n or not all(k in RCARDS for k in cards):
        raise _refuse("bad_cards", gettext_noop("Choose exactly %(need)s cards from your hand."), need=n)
    want = _counts(cards)
    for k, c in want.items():
        have = hand.get(k, 0) - (reserve or {}).get(k, 0)
        if have < c:
            sentence = (
                gettext_noop("You don't have %(need)s %(card_name)s cards to spare.")
                if c > 1
                else gettext_noop("You don't have %(need)s %(card_name)s card to spare.")
            )
            raise _refuse("missing_card", sentence, card=k, need=c, have=max(have, 0), card_name=RCARDS[k]["name"])
    return want


def _spend(state: dict, hand: dict, cards: dict[str, int]) -> None:
    for k, c in cards.items():
        hand[k] -= c
        state["discards"].extend([k] * c)


def _city_name(cid: str) -> str:
    return CITIES[cid]["name"] if cid in CITIES else str(cid)


class Bookkeeping:
    """Setting a table up and reading where it stands (a part of the ``Stormfury`` engine class,
    see ``rules.py``)."""

    def setup(self, seed: int, seats: int, options: Mapping | None = None) -> dict:
        """A new table: storm at sea as category 2, five cards each, roles still to pick."""
        if not 1 <= seats <= len(ROLE_IDS):
            raise ValueError("Stormfury is played by 1 to 4 seats")
        opts = _options(options, seed)
        storm_seed = opts["storm_seed"]
        if opts["storm_start"] == "single":
            start = STORM_STARTS[CENTRE_START]
        else:
            start = STORM_STARTS[draw(storm_seed, "start", None, 0) % len(STORM_STARTS)]
        deck = [c["kind"] for c in CONTENT["resource_cards"]["cards"] for _ in range(c["count"])]
        state = {
            "schema": SCHEMA_VERSION,
            "version": VERSION,
            "content_hash": CONTENT_HASH,
            "seed": seed,
            "seats": seats,
            "options": opts,
            "phase": "roles",
            "round": 0,
            "turn": None,
            "ended": None,
            "moves_made": 0,
            "ctr": {"deck": 0},
            "deck": shuffled(deck, seed, "deck", None, 0),
            "discards": [],
            "pile": [],
            "storm": {"at": list(start), "category": 2, "deck": "ocean", "history": []},
            "forecast": [],
            "players": [],
            "fortifications": {sid: 0 for sid in SPACE_IDS},
            "destroyed": [],
            "population": {cid: CITIES[cid]["population"] for cid in CITY_IDS},
            "dams": {rid: [] for rid in ROAD_IDS},
            "flooded": [],
            "damage": {"total": 0, "infrastructure": 0, "population": 0, "roads": 0},
            "damage_by_city": {cid: 0 for cid in CITY_IDS},
            "damage_track": [],
            "offers": [],
            "next_offer": 1,
            "last_storm": [],
        }
        for seat in range(seats):
            hand = {k: 0 for k in KINDS}
            for k in _draw_cards(state, START_HAND):
                hand[k] += 1
            state["players"].append(
                {
                    "seat": seat,
                    "role": None,
                    "city": None,
                    "hand": hand,
                    "status": "waiting",
                    "moves": 0,
                    "drawn": 0,
                    "to_pile": 0,
                    "pile_cards": {},
                    "power_used": False,
                    "offers_made": 0,
                    "stats": {
                        "fortifications": 0,
                        "dams": 0,
                        "evacuated": 0,
                        "trades": 0,
                        "cards_played": 0,
                        "moved": 0,
                    },
                }
            )
        return state

    def load(self, data: dict) -> dict:
        """A state from ``dump``'s output, upgraded to the current schema step by step."""
        state = json_copy(data)
        schema = state.get("schema")
        if schema == 1:
            _upgrade_1_to_2(state)
            schema = state["schema"]
        if schema != SCHEMA_VERSION:
            raise ValueError(f"cannot load Stormfury state schema {schema!r}")
        return state

    def finished(self, state: dict) -> bool:
        """True once the storm has died out, the turn cap is reached or the teacher ended it."""
        return state["phase"] == "over"

    def to_act(self, state: dict) -> list[int]:
        """Seats that may act now (a seat with a trade offer to answer included)."""
        phase = state["phase"]
        if phase == "roles":
            return [p["seat"] for p in state["players"] if p["role"] is None]
        if phase != "player":
            return []
        seats = {p["seat"] for p in state["players"] if p["status"] not in ("ended", "waiting")}
        seats.update(o["to"] for o in state["offers"])
        return sorted(seats)
