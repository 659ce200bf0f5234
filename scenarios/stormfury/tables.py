"""Project Stormfury's content and the static tables built from it once, at import.

The engine's other modules read these and never change them. Every rule interpretation is in
``RULES.md`` beside this file ("RULES.md §n" in comments).
"""

from __future__ import annotations

from pathlib import Path

from ..base import load_content
from .hexes import DIRECTIONS

#: The cards' words come in editions too (RULES.md, "Editions"): ``hurricane_cards.json`` and
#: ``resource_cards.json`` keep the words stored games were set up with; the ``_2`` files correct
#: words and tag each claim for its readers (``scenarios.audience``), with the same rules.
CONTENT_FILES = ["map.json", "map_2.json", "hurricane_cards_2.json", "resource_cards_2.json", "roles.json"]
CONTENT, CONTENT_HASH = load_content(Path(__file__).parent / "content", CONTENT_FILES)
CONTENT["hurricane_cards"] = CONTENT.pop("hurricane_cards_2")
CONTENT["resource_cards"] = CONTENT.pop("resource_cards_2")

VERSION = "1.1.0"
SCHEMA_VERSION = 2

# --- Static tables built once from the content --------------------------------------------------

#: The rules edition a game is set up with (RULES.md "Editions"). Edition 1 is engine 1.0.0:
#: ``map.json``, the starting footprint hit again every turn, any hand card onto the Relief pile,
#: every trade offer counted. Edition 2: ``map_2.json``, each hex hit once per turn, only cards
#: drawn this turn onto the pile, accepted offers not counted. Stored games keep theirs.
EDITION = 2
MAPS = {1: CONTENT["map"], 2: CONTENT["map_2"]}
TERRAINS: dict[int, dict[tuple[int, int], str]] = {
    g: {(h["q"], h["r"]): h["terrain"] for h in m["hexes"]} for g, m in MAPS.items()
}
TERRAIN = TERRAINS[EDITION]
MAP = MAPS[EDITION]
CITIES = {c["id"]: c for c in MAP["cities"]}
CITY_IDS = [c["id"] for c in MAP["cities"]]
CITY_HEX = {c["id"]: (c["q"], c["r"]) for c in MAP["cities"]}
SPACES = {s["id"]: dict(s, city=c["id"]) for c in MAP["cities"] for s in c["spaces"]}
SPACE_IDS = list(SPACES)
POP_SPACE = {cid: f"{cid}_people" for cid in CITY_IDS}
INFRA = {cid: [s["id"] for s in CITIES[cid]["spaces"] if s["kind"] == "infrastructure"] for cid in CITY_IDS}
ROADS = {r["id"]: r for r in MAP["roads"]}
ROAD_IDS = list(ROADS)
ROADS_AT: dict[str, list[tuple[str, str]]] = {cid: [] for cid in CITY_IDS}
for _r in MAP["roads"]:
    ROADS_AT[_r["a"]].append((_r["id"], _r["b"]))
    ROADS_AT[_r["b"]].append((_r["id"], _r["a"]))
NEIGHBOURS = {cid: [other for _, other in ROADS_AT[cid]] for cid in CITY_IDS}
STORM_STARTS = [tuple(h) for h in MAP["storm_starts"]]

HCARDS = {c["id"]: c for c in CONTENT["hurricane_cards"]["cards"]}
DECKS = {
    deck: [c["id"] for c in CONTENT["hurricane_cards"]["cards"] if c["deck"] == deck] for deck in ("ocean", "land")
}
CARD_STEPS = {cid: [DIRECTIONS[d] for d in c["steps"]] for cid, c in HCARDS.items()}
CATEGORY = {int(k): v for k, v in CONTENT["hurricane_cards"]["categories"].items()}
RADIUS = {k: v["radius"] for k, v in CATEGORY.items()}
SPEED = {k: v["draws"] for k, v in CATEGORY.items()}
FORECAST_SIZE = 5

RCARDS = {c["kind"]: c for c in CONTENT["resource_cards"]["cards"]}
KINDS = list(RCARDS)
FORTIFY_KINDS = [k for k in KINDS if k.startswith("fortify_")]
ROLES = {r["id"]: r for r in CONTENT["roles"]["roles"]}
ROLE_IDS = list(ROLES)

HAND_LIMIT = 5
START_HAND = 5
DRAW = 2
MOVES = 2
#: Offers a player may make in a turn that are not accepted (RULES.md §15): each one pops up on
#: a tablemate's tablet. Accepted trades are not counted, so trading stays unlimited.
OFFERS_PER_TURN = 3
#: The box's 90 chits (option ``chits``). 30 dam chits are one per road end, so they never run out.
CHITS = {"damage": 30, "fortification": 30, "dam": 30}
#: The centre one of the map's three start hexes, the one ``storm_start=single`` uses (§20).
CENTRE_START = 1
