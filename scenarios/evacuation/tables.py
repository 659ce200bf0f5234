"""The rule book as data: the board's content, its constants and the teacher's options."""

from __future__ import annotations

from pathlib import Path

from ..base import IllegalAction, load_content, rules_fingerprint
from ..words import gettext_noop  # gettext_noop marks sentences for the web layer to translate

VERSION = "1.3.0"
SCHEMA_VERSION = 1
#: The chance deck's words by edition (RULES.md, "Content versions"): a file a stored game was
#: set up with is never edited; corrected words come as a new file with the same rules.
CARD_FILES = {1: "cards.json", 2: "cards_2.json"}
CARDS_EDITION = 2
CONTENT, CONTENT_HASH = load_content(
    Path(__file__).parent / "content", ["network.json", CARD_FILES[CARDS_EDITION], "rules.json"]
)
CONTENT["cards"] = CONTENT.pop(CARD_FILES[CARDS_EDITION].removesuffix(".json"))
#: Content fields that are words, and a claim's tags for its readers (``scenarios.audience``):
#: what makes each edition's rules the same (RULES.md, "Content versions").
WORDS = frozenset(
    {
        "about",
        "title",
        "text",
        "basis",
        "source",
        "fact",
        "grade",
        "url",
        "label",
        "name",
        "reasons",
        "consequences",
        "deaths",
        "age_band",
    }
)
RULES_FINGERPRINT = rules_fingerprint(CONTENT, WORDS)
NETWORK = CONTENT["network"]
CARDS = {card["id"]: card for card in CONTENT["cards"]["cards"]}
CARD_IDS = [card["id"] for card in CONTENT["cards"]["cards"]]
BOOK = CONTENT["rules"]

END = BOOK["clock"]["end_minute"]
LINK_MIN = BOOK["clock"]["link_minutes"]
FAIL_MIN = BOOK["clock"]["failed_roll_minutes"]
MINUTES = BOOK["minutes"]
MONEY = BOOK["money"]
START = BOOK["start"]
TANK = START["tank"]
MIN_SUPPLIES = START["min_supplies_on_arrival"]
BASE_SYSTEM = BOOK["system"]
DESTINATIONS = BOOK["destinations"]
REASONS = BOOK["reasons"]
HOME = "H"

NODES = {node["id"]: node for node in NETWORK["nodes"]}
NODE_IDS = [node["id"] for node in NETWORK["nodes"]]
DEST_NODE = {n["destination"]: n["id"] for n in NETWORK["nodes"] if n["kind"] == "destination"}
NODE_DEST = {v: k for k, v in DEST_NODE.items()}
GAS = tuple(n["id"] for n in NETWORK["nodes"] if n.get("activity") == "gas")
STOPS = frozenset(n["id"] for n in NETWORK["nodes"] if n["kind"] in ("activity", "destination"))
CHANCE = frozenset(n["id"] for n in NETWORK["nodes"] if n["kind"] == "chance")
LINKS = []
for _i, _link in enumerate(NETWORK["links"]):
    LINKS.append(
        {
            "id": f"L{_i + 1}",
            "a": _link["a"],
            "b": _link["b"],
            "black": _link.get("black"),
            "red": _link.get("red"),
            "bridge": _link.get("bridge"),
            "name": _link.get("name"),
            "contraflow": bool(_link.get("contraflow")),
        }
    )
# Per link, for the drive loop: (black, red, contraflow, id); black is None for a bridge.
_LINK_FAST = [(lk["black"], lk["red"], lk["contraflow"], lk["id"]) for lk in LINKS]
# ADJ[node] = [(neighbour, link index, inbound)]: inbound means driving b -> a, toward home.
ADJ = {node_id: [] for node_id in NODE_IDS}
for _i, _link in enumerate(LINKS):
    ADJ[_link["a"]].append((_link["b"], _i, False))
    ADJ[_link["b"]].append((_link["a"], _i, True))

OPTIONS = [
    {
        "name": "destination_points",
        "label": gettext_noop("Points for the destination"),
        "default": "scoring",
        "choices": ["scoring", "table"],
        "choice_labels": {"scoring": gettext_noop("Scoring section"), "table": gettext_noop("Destination table")},
        "description": gettext_noop(
            "Points for where you end up. Scoring section (of the rule book): relative 25, "
            "hotel 20, shelter 5. Destination table (of the book): relative 50, hotel 25, "
            "shelter 5."
        ),
    },
    {
        "name": "bank_scoring",
        "label": gettext_noop("Cash from the bank"),
        "default": "net",
        "choices": ["net", "book"],
        "choice_labels": {"net": gettext_noop("Savings"), "book": gettext_noop("As the book")},
        "description": gettext_noop(
            "Savings: cash taken from the bank is your own savings moved to your pocket, "
            "so it does not add points (it lets you pay on the road). As the book: every "
            "dollar in your pocket scores (bank trips then add up to 40 points)."
        ),
    },
    {
        "name": "race_points",
        "label": gettext_noop("Points for arriving early"),
        "default": "clock",
        "choices": ["clock", "on", "half", "off"],
        "choice_labels": {
            "clock": gettext_noop("By the clock"),
            "on": gettext_noop("Full"),
            "half": gettext_noop("Half"),
            "off": gettext_noop("Off"),
        },
        "description": gettext_noop(
            "By the clock (default): 15 points for arriving at least a day before the "
            "tropical-storm winds (by hour 24), 10 for 18 hours before (hour 30), 5 for 12 "
            "hours before (hour 36), however the others do: leaving early pays, racing "
            "the other players does not. Full (the book): 30/20/10 to the first, second "
            "and third at the table. Half: 15/10/5. Off: none. The 20 points for arriving "
            "in time always stay."
        ),
    },
    {
        "name": "timeline",
        "label": gettext_noop("Warning timeline"),
        "default": "on",
        "choices": ["on", "off"],
        "choice_labels": {"on": gettext_noop("On"), "off": gettext_noop("Off")},
        "description": gettext_noop(
            "On: the warning timeline changes the roads on the clock (contraflow at "
            "hour 14, heavy traffic 16-30, fuel limits at 36, causeway closes at 40, all "
            "bridges at 44). Off: only chance cards change the state of the system."
        ),
    },
    {
        "name": "reasons",
        "label": gettext_noop("Ask why"),
        "default": "on",
        "choices": ["on", "off"],
        "choice_labels": {"on": gettext_noop("On"), "off": gettext_noop("Off")},
        "description": gettext_noop("Ask a one-tap reason when a player leaves home and chooses a destination."),
    },
    {
        "name": "half_tank",
        "label": gettext_noop("Points for half a tank"),
        "default": "on",
        "choices": ["on", "off"],
        "choice_labels": {"on": gettext_noop("On"), "off": gettext_noop("Off")},
        "description": gettext_noop(
            "On (default): 5 points for arriving with at least half a tank (10 gallons): a "
            "family can drive on if the storm turns, even when the stations nearby are dry or "
            "without power. Off (the book): fuel in the tank only counts at its price."
        ),
    },
]
#: Rules edition 2 (engine 1.3.0, RULES.md "Editions"): ``half_tank`` on by default. A state
#: stored without the option (engine 1.2.0 and older, rules edition 1) plays without it.
#: ``(gallons, points)`` for arriving with at least half a tank (fact ``half-tank``).
HALF_TANK = (10, 5)
RACE_FACTOR = {"on": 1, "half": 0.5, "off": 0, "clock": 0}
#: ``race_points="clock"``: (minute, points) for arriving at or before it: 24, 18 and 12 hours
#: before the tropical-storm winds the warning expects at hour 48 (RULES.md, scoring)
CLOCK_POINTS = ((1440, 15), (1800, 10), (2160, 5))
OPTION_DEFAULTS = {o["name"]: o["default"] for o in OPTIONS}


def _chance_in_10(threshold):
    """Of the d10's ten faces (``_die``: 1..10), how many make a road that needs ``threshold``."""
    return 11 - threshold


def _refuse(code, message, **params):
    raise IllegalAction(code, message, **params)
