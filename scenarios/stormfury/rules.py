"""Project Stormfury: the cooperative hurricane-response game as a pure, deterministic engine.

The state is a plain JSON-ready dict (so ``load(dump(s)) == s`` holds by construction). Every
rule interpretation is written down in ``RULES.md`` beside this file; the numbered decisions
there are referred to as "RULES.md §n" in comments.
"""
from __future__ import annotations

import math
from functools import lru_cache
from itertools import combinations
from pathlib import Path
from typing import Any, Mapping

from ..base import IllegalAction, canonical, draw, json_copy, load_content, shuffled
from ..words import gettext_noop  # marks refusal sentences for the web layer to translate
from .hexes import DIRECTIONS, disk, distance

CONTENT_FILES = ["map.json", "map_2.json", "hurricane_cards.json", "resource_cards.json",
                 "roles.json"]
CONTENT, CONTENT_HASH = load_content(Path(__file__).parent / "content", CONTENT_FILES)

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
    g: {(h["q"], h["r"]): h["terrain"] for h in m["hexes"]} for g, m in MAPS.items()}
TERRAIN = TERRAINS[EDITION]
MAP = MAPS[EDITION]
CITIES = {c["id"]: c for c in MAP["cities"]}
CITY_IDS = [c["id"] for c in MAP["cities"]]
CITY_HEX = {c["id"]: (c["q"], c["r"]) for c in MAP["cities"]}
SPACES = {s["id"]: dict(s, city=c["id"]) for c in MAP["cities"] for s in c["spaces"]}
SPACE_IDS = list(SPACES)
POP_SPACE = {cid: f"{cid}_people" for cid in CITY_IDS}
INFRA = {cid: [s["id"] for s in CITIES[cid]["spaces"] if s["kind"] == "infrastructure"]
         for cid in CITY_IDS}
ROADS = {r["id"]: r for r in MAP["roads"]}
ROAD_IDS = list(ROADS)
ROADS_AT: dict[str, list[tuple[str, str]]] = {cid: [] for cid in CITY_IDS}
for _r in MAP["roads"]:
    ROADS_AT[_r["a"]].append((_r["id"], _r["b"]))
    ROADS_AT[_r["b"]].append((_r["id"], _r["a"]))
NEIGHBOURS = {cid: [other for _, other in ROADS_AT[cid]] for cid in CITY_IDS}
STORM_STARTS = [tuple(h) for h in MAP["storm_starts"]]

HCARDS = {c["id"]: c for c in CONTENT["hurricane_cards"]["cards"]}
DECKS = {deck: [c["id"] for c in CONTENT["hurricane_cards"]["cards"] if c["deck"] == deck]
         for deck in ("ocean", "land")}
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

# Per (centre, radius): the cities whose hex the storm covers and the roads it touches.
_COVER: dict[tuple[int, int, int], tuple[tuple[str, ...], tuple[str, ...]]] = {}
_ROAD_HEXES = {rid: {tuple(h) for h in r["hexes"]} for rid, r in ROADS.items()}


def cover(q: int, r: int, radius: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Cities and roads under a storm of ``radius`` centred on ``(q, r)``, in content order."""
    key = (q, r, radius)
    hit = _COVER.get(key)
    if hit is None:
        hexes = set(disk((q, r), radius))
        cities = tuple(c for c in CITY_IDS if CITY_HEX[c] in hexes)
        roads = tuple(rid for rid in ROAD_IDS if _ROAD_HEXES[rid] & hexes)
        hit = _COVER[key] = (cities, roads)
    return hit


def footprint(q: int, r: int, radius: int, edition: int = EDITION) -> list[list[int]]:
    """The storm's footprint: every map hex within ``radius`` of its centre."""
    return [[h[0], h[1]] for h in _map_disk(q, r, radius, edition)]


def hit_centres(path: list[tuple[int, int]], edition: int = EDITION) -> list[tuple[int, int]]:
    """The centres whose footprint a move hits (§1): each centre entered this turn, or where the
    storm stands if it took no step. Edition 1 also hits the centre the move started from."""
    if edition == 1:
        return path
    return path[1:] or path[:1]


@lru_cache(maxsize=None)  # a few hundred hexes × radii × editions
def _map_disk(q: int, r: int, radius: int, edition: int = EDITION) -> tuple:
    terrain = TERRAINS[edition]
    return tuple(h for h in disk((q, r), radius) if h in terrain)


@lru_cache(maxsize=2048)
def forecast_outlook(start: tuple[int, int], category: int, cards: tuple[str, ...],
                     edition: int = EDITION) -> dict:
    """Every way the forecast can play out: all orders of every draw of ``SPEED`` cards.

    Returns ``reach`` (possible end centres), ``threat`` (hexes the storm may cover) and
    ``city_risk`` / ``road_risk``: the share of equally likely flips in which each city or road
    is hit. Cached, since every table of a class shares the storm (callers only read it). The
    orders are walked as a tree, so flips that share their first cards share the work.
    """
    terrain = TERRAINS[edition]
    k = min(SPEED[category], len(cards))
    radius = RADIUS[category]
    reach: set = set()
    centres: set = set()
    city_count: dict[str, int] = {}
    road_count: dict[str, int] = {}
    leaves = 0
    steps = [CARD_STEPS[c] for c in cards]
    cs0, rs0 = cover(start[0], start[1], radius)
    standing = (frozenset(cs0), frozenset(rs0))

    def walk(q, r, used, depth, cities, roads, moved):
        nonlocal leaves
        if depth == k:
            leaves += 1
            reach.add((q, r))
            if not moved:
                centres.add(start)
                cities, roads = standing
            for c in cities:
                city_count[c] = city_count.get(c, 0) + 1
            for rd in roads:
                road_count[rd] = road_count.get(rd, 0) + 1
            return
        for i, card_steps in enumerate(steps):
            if used >> i & 1:
                continue
            q2, r2, c2, rd2, m2 = q, r, cities, roads, moved
            for dq, dr in card_steps:
                if (q2 + dq, r2 + dr) in terrain:
                    q2, r2, m2 = q2 + dq, r2 + dr, True
                    centres.add((q2, r2))
                    cs, rs = cover(q2, r2, radius)
                    if cs:
                        c2 = c2.union(cs)
                    if rs:
                        rd2 = rd2.union(rs)
            walk(q2, r2, used | 1 << i, depth + 1, c2, rd2, m2)

    if edition == 1:
        centres.add(start)
        walk(start[0], start[1], 0, 0, standing[0], standing[1], True)
    else:
        walk(start[0], start[1], 0, 0, frozenset(), frozenset(), False)
    threat: set = set()
    for q, r in centres:
        threat.update(_map_disk(q, r, radius, edition))
    out = {
        "reach": sorted(reach),
        "threat": sorted(threat),
        "city_risk": {c: city_count[c] / leaves for c in CITY_IDS if c in city_count},
        "road_risk": {rd: road_count[rd] / leaves for rd in ROAD_IDS if rd in road_count},
    }
    return out


# --- Options ------------------------------------------------------------------------------------

OPTIONS = [
    {"name": "storm_seed", "label": gettext_noop("Storm seed"),
     "default": None, "choices": None,
     "description": gettext_noop("Seed of the storm alone (forecast deals and flips). Give every table of a "
                                 "class the same number and they face the same storm. Empty: from the seed.")},
    {"name": "hold_storm", "label": gettext_noop("Hold the storm for the class"),
     "default": False, "choices": [False, True],
     "description": gettext_noop("When every player has ended the Player Phase, wait for the 'storm moves' "
                                 "button (so the whole class's storm moves at once).")},
    {"name": "turn_order", "label": gettext_noop("Turn order"),
     "default": "simultaneous", "choices": ["simultaneous", "round_table"],
     "choice_labels": {"simultaneous": gettext_noop("All at once"), "round_table": gettext_noop("Round the table")},
     "description": gettext_noop("Everyone plays the Player Phase at once, or one after another round the "
                                 "table as in the rule book.")},
    {"name": "turn_cap", "label": gettext_noop("Most turns"),
     "default": 12, "choices": [6, 8, 10, 12, 15, 20],
     "description": gettext_noop("The game ends after this many turns even if the storm has not died out.")},
    {"name": "open_hands", "label": gettext_noop("Open hands"),
     "default": True, "choices": [True, False],
     "description": gettext_noop("Players see each other's cards (it is a team game).")},
    {"name": "hits", "label": gettext_noop("Storm hits"),
     "default": "per_turn", "choices": ["per_turn", "per_step"],
     "choice_labels": {"per_turn": gettext_noop("Once per turn"), "per_step": gettext_noop("Once per hex")},
     "description": gettext_noop("A city under the storm is hit once per turn, or once for every hex the "
                                 "storm's centre passes through.")},
    {"name": "final_move_damage", "label": gettext_noop("Damage on the storm's last move"),
     "default": True, "choices": [True, False],
     "description": gettext_noop("The storm's last move, the one in which it dies out, still does damage.")},
    {"name": "land_decay", "label": gettext_noop("Storms weaken over land"),
     "default": True, "choices": [True, False],
     "description": gettext_noop("A storm that ends its move over land always weakens one category.")},
    {"name": "trade_expiry", "label": gettext_noop("Trade offers expire after (actions)"),
     "default": 8, "choices": [4, 8, 16],
     "description": gettext_noop("A trade offer nobody answers expires after this many actions at the table "
                                 "(and always at the end of the Player Phase).")},
    {"name": "chits", "label": gettext_noop("Only the box's chits"),
     "default": False, "choices": [False, True],
     "description": gettext_noop("Only the box's chits: at most 30 fortification tokens on the board at once, "
                                 "and no more damage once all 30 damage chits are used.")},
    {"name": "storm_start", "label": gettext_noop("Where the storm starts"),
     "default": "seeded", "choices": ["seeded", "single"],
     "choice_labels": {"seeded": gettext_noop("One of three hexes"), "single": gettext_noop("Always the centre")},
     "description": gettext_noop("The storm starts on one of three hexes far out in the Gulf (west, centre, "
                                 "east; the storm seed picks), or always on the centre one.")},
    {"name": "edition", "label": gettext_noop("Rules edition"),
     "default": EDITION, "choices": None,
     "description": gettext_noop("The rules edition a game was set up with; 1 replays games stored by "
                                 "engine 1.0.0.")},
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
            if o["name"] == "turn_cap" and isinstance(opts["turn_cap"], int) and opts["turn_cap"] > 0:
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
            deck[:] = shuffled(sorted(state["discards"], key=KINDS.index), state["seed"],
                               "deck", None, state["ctr"]["deck"])
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
            sentence = (gettext_noop("You don't have %(need)s %(card_name)s cards to spare.") if c > 1
                        else gettext_noop("You don't have %(need)s %(card_name)s card to spare."))
            raise _refuse("missing_card", sentence, card=k, need=c, have=max(have, 0), card_name=RCARDS[k]["name"])
    return want


def _spend(state: dict, hand: dict, cards: dict[str, int]) -> None:
    for k, c in cards.items():
        hand[k] -= c
        state["discards"].extend([k] * c)


def _city_name(cid: str) -> str:
    return CITIES[cid]["name"] if cid in CITIES else str(cid)


def _nearest_city(at: tuple[int, int]) -> dict:
    """The city nearest the storm's centre (the first in map order on a tie), and how many hex
    steps away it is."""
    city = min(CITY_IDS, key=lambda c: distance(at, CITY_HEX[c]))
    return {"city": city, "hexes": distance(at, CITY_HEX[city])}


def _sealed(state: dict, rid: str) -> bool:
    """A road with a dam at both ends never floods (as ``_resolve_damage`` holds it)."""
    return len(state["dams"][rid]) == 2


def _seals_with_one_more(state: dict, rid: str) -> bool:
    """One more dam would seal this road: it has a dam at one end and is not flooded."""
    return len(state["dams"][rid]) == 1 and rid not in state["flooded"]


def _held(state: dict) -> dict:
    """What the team kept, as the results screen lists it: [standing, of] pairs and counts."""
    infra = sum(len(spaces) for spaces in INFRA.values())
    people = sum(c["population"] for c in CITIES.values())
    return {
        "infrastructure": [infra - len(state["destroyed"]), infra],
        "roads": [len(ROAD_IDS) - len(state["flooded"]), len(ROAD_IDS)],
        "sealed": sum(1 for rid in ROAD_IDS if _sealed(state, rid)),
        "people_evacuated": [people - sum(state["population"].values()), people],
        "fortifications": sum(state["fortifications"].values()),
    }


def _progress(state: dict) -> int:
    """How far the table is through its storm, in percent (the projector's bar)."""
    if state["phase"] == "over":
        return 100
    cap = state["options"]["turn_cap"] or 12
    return max(0, min(100, round(100 * len(state["storm"]["history"]) / cap)))


def _multisets(hand: dict, n: int, reserve: dict | None = None) -> list[list[str]]:
    """Every distinct choice of ``n`` cards from ``hand`` (minus ``reserve``), kinds sorted."""
    pool = []
    for k in KINDS:
        pool.extend([k] * max(0, min(n, hand.get(k, 0) - (reserve or {}).get(k, 0))))
    return [list(c) for c in sorted(set(combinations(pool, n)), key=lambda c: [KINDS.index(k) for k in c])]


class Stormfury:
    """The Project Stormfury engine (see the module docstring and RULES.md)."""

    key = "stormfury"
    version = VERSION
    schema_version = SCHEMA_VERSION
    content_hash = CONTENT_HASH

    # --- setup and bookkeeping ------------------------------------------------------------

    def options(self) -> list[dict]:
        """The teacher's form: each option's name, default, choices and description."""
        return [dict(o) for o in OPTIONS]

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
            "schema": SCHEMA_VERSION, "version": VERSION, "content_hash": CONTENT_HASH,
            "seed": seed, "seats": seats, "options": opts,
            "phase": "roles", "round": 0, "turn": None, "ended": None, "moves_made": 0,
            "ctr": {"deck": 0},
            "deck": shuffled(deck, seed, "deck", None, 0), "discards": [], "pile": [],
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
            "offers": [], "next_offer": 1,
            "last_storm": [],
        }
        for seat in range(seats):
            hand = {k: 0 for k in KINDS}
            for k in _draw_cards(state, START_HAND):
                hand[k] += 1
            state["players"].append({
                "seat": seat, "role": None, "city": None, "hand": hand, "status": "waiting",
                "moves": 0, "drawn": 0, "to_pile": 0, "pile_cards": {}, "power_used": False,
                "offers_made": 0,
                "stats": {"fortifications": 0, "dams": 0, "evacuated": 0, "trades": 0,
                          "cards_played": 0, "moved": 0},
            })
        return state

    def dump(self, state: dict) -> dict:
        """A JSON-ready copy of the state."""
        return json_copy(state)

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

    # --- the board and views -------------------------------------------------------------

    def board(self) -> dict:
        """Everything that never changes during a game: enough to draw the map and the cards."""
        return {
            "key": self.key, "version": VERSION, "content_hash": CONTENT_HASH,
            "layout": MAP["layout"],
            "directions": {k: list(v) for k, v in DIRECTIONS.items()},
            "hexes": MAP["hexes"],
            "cities": MAP["cities"],
            "roads": MAP["roads"],
            "storm_starts": MAP["storm_starts"],
            "frame": MAP["frame"],
            "categories": CONTENT["hurricane_cards"]["categories"],
            "category_source": CONTENT["hurricane_cards"]["category_source"],
            "hurricane_cards": CONTENT["hurricane_cards"]["cards"],
            "resource_cards": CONTENT["resource_cards"]["cards"],
            "roles": CONTENT["roles"]["roles"],
            "hand_limit": HAND_LIMIT, "forecast_size": FORECAST_SIZE, "draw": DRAW,
            "evacuate": {"card": "evacuate", "cards_per_person": 2},
            "damage_words": {"population": "people not yet evacuated"},
        }

    def view(self, state: dict, seat: int | None) -> dict:
        """The changing state as ``seat`` may see it (``None``: the teacher sees every hand)."""
        storm = state["storm"]
        q, r = storm["at"]
        cat = storm["category"]
        open_hands = state["options"]["open_hands"]
        players = []
        for p in state["players"]:
            size = _hand_size(p["hand"])
            pv = {"seat": p["seat"], "role": p["role"], "city": p["city"], "status": p["status"],
                  "moves_left": p["moves"], "power_used": p["power_used"], "hand_size": size}
            # Only when they apply, to keep the view small: cards to discard before the turn can
            # end, and cards the Relief Corps may still put on the pile.
            if size > HAND_LIMIT:
                pv["over_limit"] = size - HAND_LIMIT
            if p["role"] == "relief_corps":
                pv["to_pile"] = p["to_pile"]
            if open_hands or seat is None or seat == p["seat"]:
                pv["hand"] = dict(p["hand"])
            players.append(pv)
        forecast = {"cards": list(state["forecast"]), "draws": min(SPEED[cat], FORECAST_SIZE),
                    "deck": storm["deck"], "reach": [], "threat": []}
        if state["forecast"] and state["phase"] in ("player", "storm"):
            outlook = forecast_outlook((q, r), cat, tuple(state["forecast"]),
                                       state["options"]["edition"])
            forecast["reach"] = [list(h) for h in outlook["reach"]]
            forecast["threat"] = [list(h) for h in outlook["threat"]]
            forecast["city_risk"] = outlook["city_risk"]
        offers = [dict(o) for o in state["offers"]
                  if seat is None or seat in (o["from"], o["to"])]
        me = state["players"][seat] if seat is not None and 0 <= seat < state["seats"] else None
        out = {
            "phase": state["phase"], "round": state["round"],
            "turn_cap": state["options"]["turn_cap"], "turn_order": state["options"]["turn_order"],
            "turn": state["turn"], "ended": state["ended"], "to_act": self.to_act(state),
            "storm": {"at": [q, r], "category": cat, "radius": RADIUS[cat],
                      "across": 2 * RADIUS[cat] + 1, "nearest": _nearest_city((q, r)),
                      "over": TERRAINS[state["options"]["edition"]][(q, r)],
                      "footprint": footprint(q, r, RADIUS[cat], state["options"]["edition"]),
                      "history": [dict(h) for h in storm["history"]]},
            "forecast": forecast,
            "players": players,
            "hand": dict(me["hand"]) if me else None,
            "damage": dict(state["damage"]),
            "damage_by_city": dict(state["damage_by_city"]),
            "damage_track": list(state["damage_track"]),
            "fortifications": {k: v for k, v in state["fortifications"].items() if v},
            "destroyed": list(state["destroyed"]),
            "dams": {k: list(v) for k, v in state["dams"].items() if v},
            "sealed": [rid for rid in ROAD_IDS if _sealed(state, rid)],
            "dam_seals": [rid for rid in ROAD_IDS if _seals_with_one_more(state, rid)],
            "flooded": list(state["flooded"]),
            "population": dict(state["population"]),
            "relief_pile": list(state["pile"]),
            "deck_left": len(state["deck"]),
            "chits_left": self.chits_left(state),
            "offers": offers,
            "last_storm": [dict(e) for e in state["last_storm"]],
            "actions": self.actions(state, seat),
        }
        if state["phase"] == "over":
            out["held"] = _held(state)
        if seat is None:
            out["progress"] = _progress(state)
        return out

    def chits_left(self, state: dict) -> dict | None:
        """Chits still in the box by kind, when the ``chits`` option limits them; else None."""
        if not state["options"]["chits"]:
            return None
        return {
            "damage": CHITS["damage"] - state["damage"]["total"],
            "fortification": CHITS["fortification"] - sum(state["fortifications"].values()),
            "dam": CHITS["dam"] - sum(len(ends) for ends in state["dams"].values()),
        }

    def results(self, state: dict) -> list[dict]:
        """Per seat: the team's damage (the same for all; lower is better), rank 1, own part."""
        by_type: dict[str, int] = {}
        for sid in state["destroyed"]:
            t = SPACES[sid]["type"]
            by_type[t] = by_type.get(t, 0) + 1
        team = {
            "better": "lower",
            "damage_total": state["damage"]["total"],
            "damage_by_type": {k: state["damage"][k]
                               for k in ("infrastructure", "population", "roads")},
            "damage_by_city": dict(state["damage_by_city"]),
            "infrastructure_lost": by_type,
            "flooded_roads": list(state["flooded"]),
            "people_not_evacuated": sum(state["population"].values()),
            "rounds": state["round"],
            "ended": state["ended"],
            "complete": state["ended"] in ("dissipated", "turn_cap"),
        }
        return [{"seat": p["seat"], "score": state["damage"]["total"], "rank": 1,
                 "breakdown": {"team": team, "role": p["role"], "contributions": dict(p["stats"])}}
                for p in state["players"]]

    # --- legal actions --------------------------------------------------------------------

    def actions(self, state: dict, seat: int | None) -> list[dict]:
        """Every legal action for ``seat`` now (``None``: the teacher's and system's actions)."""
        phase = state["phase"]
        if seat is None:
            return self._system_actions(state)
        if phase == "over" or not isinstance(seat, int) or not 0 <= seat < state["seats"]:
            return []
        p = state["players"][seat]
        if phase == "roles":
            if p["role"] is not None:
                return []
            taken = {q["role"] for q in state["players"]}
            return [{"type": "pick_role", "role": role, "city": city}
                    for role in ROLE_IDS if role not in taken for city in CITY_IDS]
        if phase != "player":
            return []
        out: list[dict] = []
        for o in state["offers"]:
            if o["to"] == seat and self._offer_ok(state, o):
                out.append({"type": "accept_trade", "offer": o["id"]})
            if o["to"] == seat:
                out.append({"type": "decline_trade", "offer": o["id"]})
        status = p["status"]
        if status in ("ended", "waiting"):
            return out
        hand = p["hand"]
        if status == "start":
            return [{"type": "draw", "from": "deck"}] + [
                {"type": "draw", "from": "pile", "cards": c}
                for c in self._pile_choices(state)] + out
        city = p["city"]
        if p["moves"] > 0:
            for rid, other in ROADS_AT[city]:
                if rid not in state["flooded"]:
                    out.append({"type": "move", "to": other})
        can_play = status in ("drawn", "played")
        if can_play:
            tokens_left = self._fortification_chits(state)
            for kind in FORTIFY_KINDS:
                if hand[kind] and RCARDS[kind]["tokens"] <= tokens_left \
                        and self._fortify_payment(p, kind) is not None:
                    for sid in CITIES[city]["spaces"]:
                        sid = sid["id"]
                        if self._space_open(state, sid):
                            out.append({"type": "fortify", "card": kind, "space": sid})
            if hand["dam"] and hand["sandbag"]:
                for rid, end in self._dam_targets(state, p):
                    out.append({"type": "dam", "road": rid, "city": end})
            if hand["evacuate"] and state["population"][city]:
                for people in range(1, state["population"][city] + 1):
                    for cards in _multisets(hand, 2 * people, {"evacuate": 1}):
                        out.append({"type": "evacuate", "people": people, "discard": cards})
        role = p["role"]
        if role == "evac_specialist" and state["population"][city]:
            for cards in _multisets(hand, 2):
                out.append({"type": "use_role", "discard": cards})
        if role == "relief_corps" and p["to_pile"] > 0:
            loose = state["options"]["edition"] == 1
            for k in KINDS:
                if hand[k] and (loose or p["pile_cards"].get(k)):
                    out.append({"type": "use_role", "card": k})
        if status == "drawn":
            out.append({"type": "draw_more", "from": "deck"})
            if role != "relief_corps":
                out.extend({"type": "draw_more", "from": "pile", "cards": c}
                           for c in self._pile_choices(state))
        if p["offers_made"] < OFFERS_PER_TURN:
            for other in state["players"]:
                if other["seat"] == seat or other["city"] != city:
                    continue
                for give in KINDS:
                    if not hand[give]:
                        continue
                    for get in KINDS:
                        if get != give and (other["hand"][get] or not state["options"]["open_hands"]):
                            out.append({"type": "offer_trade", "to": other["seat"],
                                        "give": give, "get": get})
        if _hand_size(hand) > HAND_LIMIT:
            out.extend({"type": "discard", "card": k} for k in KINDS if hand[k])
        else:
            out.append({"type": "end_turn"})
        return out

    def _system_actions(self, state: dict) -> list[dict]:
        phase = state["phase"]
        if phase == "over":
            return []
        out: list[dict] = [{"type": "end_now"}]
        if phase == "roles":
            out.append({"type": "auto_roles"})
            out.extend({"type": "skip", "seat": p["seat"]}
                       for p in state["players"] if p["role"] is None)
        elif phase == "player":
            out.append({"type": "storm_moves"})
            out.extend({"type": "skip", "seat": p["seat"]}
                       for p in state["players"] if p["status"] not in ("ended", "waiting"))
        elif phase == "storm":
            out.append({"type": "storm_moves"})
        return out

    def _pile_choices(self, state: dict) -> list[list[str]]:
        n = min(DRAW, len(state["pile"]))
        return _multisets(_counts(state["pile"]), n) if n else []

    def _space_open(self, state: dict, sid: str) -> bool:
        space = SPACES[sid]
        if space["kind"] == "population":
            return state["population"][space["city"]] > 0
        return sid not in state["destroyed"]

    def _fortification_chits(self, state: dict) -> float:
        """Fortification tokens left in the box (§19); unlimited without the ``chits`` option."""
        if not state["options"]["chits"]:
            return math.inf
        return CHITS["fortification"] - sum(state["fortifications"].values())

    def _fortify_payment(self, p: dict, kind: str) -> dict | None:
        """What a Fortify card costs this player now, or None if she cannot pay (§9)."""
        need = RCARDS[kind]["cost"]["material"]
        hand = p["hand"]
        if hand["material"] >= need:
            return {"material": need}
        if (p["role"] == "architect" and not p["power_used"] and hand["sandbag"]
                and hand["material"] >= need - 1):
            pay = {"sandbag": 1}
            if need > 1:
                pay["material"] = need - 1
            return pay
        return None

    def _dam_targets(self, state: dict, p: dict) -> list[tuple[str, str]]:
        cities = [p["city"]]
        if p["role"] == "aquatic_engineer":
            cities += NEIGHBOURS[p["city"]]
        out = []
        flooded = state["flooded"]
        for c in cities:
            for rid, _ in ROADS_AT[c]:
                if rid not in flooded and c not in state["dams"][rid]:
                    out.append((rid, c))
        return out

    def _offer_ok(self, state: dict, o: dict) -> bool:
        a, b = state["players"][o["from"]], state["players"][o["to"]]
        return a["city"] == b["city"] and a["hand"][o["give"]] > 0 and b["hand"][o["get"]] > 0

    # --- applying actions -----------------------------------------------------------------

    def apply(self, state: dict, seat: int | None, action: dict) -> list[dict]:
        """Validate ``action`` for ``seat`` (None: teacher/system), then play it; its events.

        Raises ``IllegalAction`` before any change when the action is not allowed.
        """
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise _refuse("bad_action", gettext_noop("That is not an action this game knows."))
        kind = action["type"]
        if state["phase"] == "over":
            raise _refuse("game_over", gettext_noop("The game is over: the storm has gone."))
        if seat is None:
            handler = self._SYSTEM.get(kind)
            if handler is None:
                raise _refuse("unknown_action", gettext_noop("The teacher cannot do that here."), action=kind)
            events = handler(self, state, action)
        else:
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["seats"]:
                raise _refuse("no_such_seat", gettext_noop("There is no such seat at this table."), seat=seat)
            handler = self._PLAYER.get(kind)
            if handler is None:
                raise _refuse("unknown_action", gettext_noop("That is not an action this game knows."),
                              action=kind)
            events = handler(self, state, seat, action)
        state["moves_made"] += 1
        if state["offers"]:
            self._prune_offers(state, events)
        return events

    # roles

    def _pick_role(self, state: dict, seat: int, action: dict) -> list[dict]:
        if state["phase"] != "roles":
            raise _refuse("wrong_phase", gettext_noop("Roles are chosen before the first turn."))
        p = state["players"][seat]
        if p["role"] is not None:
            raise _refuse("role_chosen", gettext_noop("You already have a role."), role=p["role"])
        role = action.get("role")
        if role not in ROLES:
            raise _refuse("no_such_role", gettext_noop("Pick one of the four roles."), role=role)
        if any(q["role"] == role for q in state["players"]):
            raise _refuse("role_taken", gettext_noop("Someone at your table is already the %(role_name)s: pick another role."),
                          role=role, role_name=ROLES[role]["name"])
        city = action.get("city", ROLES[role]["start_city"])
        if city not in CITIES:
            raise _refuse("no_such_city", gettext_noop("Pick a city on the map to start in."), city=city)
        p["role"], p["city"] = role, city
        events = [{"type": "role_picked", "seat": seat, "role": role, "city": city}]
        if all(q["role"] for q in state["players"]):
            self._begin_round(state, events)
        return events

    def _auto_roles(self, state: dict, action: dict) -> list[dict]:
        if state["phase"] != "roles":
            raise _refuse("wrong_phase", gettext_noop("Roles are chosen before the first turn."))
        events: list[dict] = []
        for p in state["players"]:
            if p["role"] is None:
                self._give_role(state, p, events)
        self._begin_round(state, events)
        return events

    def _give_role(self, state: dict, p: dict, events: list) -> None:
        taken = {q["role"] for q in state["players"]}
        role = next(r for r in ROLE_IDS if r not in taken)
        p["role"], p["city"] = role, ROLES[role]["start_city"]
        events.append({"type": "role_picked", "seat": p["seat"], "role": role,
                       "city": p["city"], "auto": True})

    # player phase

    def _active(self, state: dict, seat: int, need: tuple = ("drawn", "played", "more")) -> dict:
        if state["phase"] != "player":
            raise _refuse("wrong_phase", gettext_noop("You can do that only during the Player Phase."))
        p = state["players"][seat]
        status = p["status"]
        if status == "ended":
            raise _refuse("turn_over", gettext_noop("You already ended your turn: wait for the storm."))
        if status == "waiting":
            raise _refuse("not_your_turn", gettext_noop("It is not your turn yet."))
        if status not in need:
            if status == "start":
                raise _refuse("draw_first", gettext_noop("Draw your 2 cards first."))
            if status == "more":
                raise _refuse("drew_more", gettext_noop("You drew 2 more cards this turn, so you cannot "
                                                        "play cards until next turn."))
            if status == "played":
                raise _refuse("already_played", gettext_noop("You already played cards this turn, so you "
                                                             "cannot draw more."))
            raise _refuse("not_now", gettext_noop("You cannot do that now."))
        return p

    def _draw(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat, ("start",))
        return self._take_cards(state, p, action, "drew", "drawn")

    def _draw_more(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat, ("drawn",))
        return self._take_cards(state, p, action, "drew_more", "more")

    def _take_cards(self, state, p, action, event, status) -> list[dict]:
        source = action.get("from", "deck")
        if source == "pile":
            if p["role"] == "relief_corps":
                raise _refuse("own_pile", gettext_noop("The Relief pile is for the other players."))
            n = min(DRAW, len(state["pile"]))
            if n == 0:
                raise _refuse("pile_empty", gettext_noop("The Relief pile is empty: draw from the deck."))
            want = _check_cards(_counts(state["pile"]), action.get("cards"), n)
            for k, c in want.items():
                for _ in range(c):
                    state["pile"].remove(k)
            cards = list(action["cards"]) + _draw_cards(state, DRAW - n)
        elif source == "deck":
            cards = _draw_cards(state, DRAW)
        else:
            raise _refuse("bad_source", gettext_noop("Draw from the deck or the Relief pile."))
        for k in cards:
            p["hand"][k] += 1
        p["status"] = status
        p["drawn"] += len(cards)
        if p["role"] == "relief_corps":
            self._may_pile(p, cards)
        return [{"type": event, "seat": p["seat"], "from": source, "count": len(cards)}]

    def _move(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat)
        to = action.get("to")
        if to not in CITIES:
            raise _refuse("no_such_city", gettext_noop("That is not a city on the map."), city=to)
        if p["moves"] <= 0:
            raise _refuse("no_moves_left", gettext_noop("You already travelled to 2 cities this turn."))
        road = next((rid for rid, other in ROADS_AT[p["city"]] if other == to), None)
        if road is None:
            raise _refuse("no_road", gettext_noop("No road goes from %(here)s straight to %(there)s."), city=to,
                          here=_city_name(p["city"]), there=_city_name(to))
        if road in state["flooded"]:
            raise _refuse("road_flooded", gettext_noop("The road to %(there)s is flooded: find another way."),
                          road=road, there=_city_name(to))
        frm = p["city"]
        p["city"] = to
        p["moves"] -= 1
        p["stats"]["moved"] += 1
        return [{"type": "moved", "seat": seat, "from": frm, "to": to, "road": road}]

    def _fortify(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat, ("drawn", "played"))
        kind = action.get("card")
        if kind not in FORTIFY_KINDS:
            raise _refuse("not_a_fortify_card", gettext_noop("Choose a Fortify card."), card=kind)
        if not p["hand"][kind]:
            raise _refuse("missing_card", gettext_noop("You don't have a %(card_name)s card."),
                          card=kind, card_name=RCARDS[kind]["name"])
        sid = action.get("space")
        if sid not in SPACES:
            raise _refuse("no_such_space", gettext_noop("Choose a place in your city."), space=sid)
        if SPACES[sid]["city"] != p["city"]:
            raise _refuse("wrong_city", gettext_noop("You are in %(here)s: you can only build there, not in %(there)s."),
                          space=sid, here=_city_name(p["city"]), there=_city_name(SPACES[sid]["city"]))
        if not self._space_open(state, sid):
            if SPACES[sid]["kind"] == "population":
                raise _refuse("nobody_home", gettext_noop("Everyone has already left: nothing to protect."))
            raise _refuse("space_destroyed", gettext_noop("The %(place)s is already destroyed."),
                          place=SPACES[sid]["name"])
        tokens = RCARDS[kind]["tokens"]
        left = self._fortification_chits(state)
        if tokens > left:
            sentence = (gettext_noop("Only %(left)s fortification token is left in the box: %(card_name)s needs %(need)s.")
                        if left == 1 else
                        gettext_noop("Only %(left)s fortification tokens are left in the box: %(card_name)s needs %(need)s."))
            raise _refuse("no_chits", sentence, left=left, need=tokens, card_name=RCARDS[kind]["name"])
        pay = self._fortify_payment(p, kind)
        need = RCARDS[kind]["cost"]["material"]
        if pay is None:
            if (p["role"] == "architect" and p["power_used"] and p["hand"]["sandbag"]
                    and p["hand"]["material"] >= need - 1):
                raise _refuse("power_used", gettext_noop("You already used your Architect power this turn: "
                                                         "you need %(need)s Material."), need=need)
            raise _refuse("missing_resources", gettext_noop("%(card_name)s needs %(need)s Material and you have %(have)s."),
                          need=need, have=p["hand"]["material"], resource="material", card_name=RCARDS[kind]["name"])
        _spend(state, p["hand"], {kind: 1, **pay})
        if "sandbag" in pay:
            p["power_used"] = True
        state["fortifications"][sid] += tokens
        p["status"] = "played"
        p["stats"]["fortifications"] += tokens
        p["stats"]["cards_played"] += 1
        return [{"type": "fortified", "seat": seat, "space": sid, "tokens": tokens,
                 "card": kind, "paid": pay}]

    def _dam(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat, ("drawn", "played"))
        rid, end = action.get("road"), action.get("city", p["city"])
        if rid not in ROADS:
            raise _refuse("no_such_road", gettext_noop("Choose a road on the map."), road=rid)
        road = ROADS[rid]
        if end not in (road["a"], road["b"]):
            raise _refuse("wrong_city", gettext_noop("That road does not reach %(there)s."), road=rid,
                          there=_city_name(end))
        if end != p["city"]:
            if p["role"] != "aquatic_engineer":
                raise _refuse("wrong_city", gettext_noop("You are in %(here)s: you can only dam roads there."),
                              road=rid, city=end, here=_city_name(p["city"]))
            if end not in NEIGHBOURS[p["city"]]:
                raise _refuse("too_far", gettext_noop("%(there)s is not next to %(here)s."), city=end,
                              there=_city_name(end), here=_city_name(p["city"]))
        if rid in state["flooded"]:
            raise _refuse("road_flooded", gettext_noop("The %(road_name)s road is already flooded."),
                          road=rid, road_name=road["name"])
        if end in state["dams"][rid]:
            raise _refuse("already_dammed", gettext_noop("That end of the %(road_name)s road already has a dam."),
                          road=rid, city=end, road_name=road["name"])
        if not p["hand"]["dam"]:
            raise _refuse("missing_card", gettext_noop("You don't have a Dam card."), card="dam")
        if not p["hand"]["sandbag"]:
            raise _refuse("missing_resources", gettext_noop("A Dam needs 1 Sandbag and you have none."),
                          need=1, have=0, resource="sandbag")
        _spend(state, p["hand"], {"dam": 1, "sandbag": 1})
        state["dams"][rid].append(end)
        p["status"] = "played"
        p["stats"]["dams"] += 1
        p["stats"]["cards_played"] += 1
        return [{"type": "dammed", "seat": seat, "road": rid, "city": end,
                 "sealed": len(state["dams"][rid]) == 2}]

    def _evacuate(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat, ("drawn", "played"))
        people = action.get("people", 1)
        pop = state["population"][p["city"]]
        if not p["hand"]["evacuate"]:
            raise _refuse("missing_card", gettext_noop("You don't have an Evacuate card."), card="evacuate")
        if pop == 0:
            raise _refuse("nobody_home", gettext_noop("Everyone has already left %(here)s."),
                          here=_city_name(p["city"]))
        if not isinstance(people, int) or isinstance(people, bool) or not 1 <= people <= pop:
            raise _refuse("bad_people", gettext_noop("You can move 1 to %(most)s people out of %(here)s."),
                          most=pop, here=_city_name(p["city"]))
        want = _check_cards(p["hand"], action.get("discard"), 2 * people, {"evacuate": 1})
        _spend(state, p["hand"], {"evacuate": 1})
        _spend(state, p["hand"], want)
        state["population"][p["city"]] -= people
        p["status"] = "played"
        p["stats"]["evacuated"] += people
        p["stats"]["cards_played"] += 1
        return [{"type": "evacuated", "seat": seat, "city": p["city"], "people": people,
                 "left": state["population"][p["city"]]}]

    def _use_role(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat)
        role = p["role"]
        if role == "evac_specialist":
            if state["population"][p["city"]] == 0:
                raise _refuse("nobody_home", gettext_noop("Everyone has already left %(here)s."),
                              here=_city_name(p["city"]))
            want = _check_cards(p["hand"], action.get("discard"), 2)
            _spend(state, p["hand"], want)
            state["population"][p["city"]] -= 1
            p["stats"]["evacuated"] += 1
            return [{"type": "evacuated", "seat": seat, "city": p["city"], "people": 1,
                     "left": state["population"][p["city"]], "power": role}]
        if role == "relief_corps":
            k = action.get("card")
            if k not in RCARDS or not p["hand"][k]:
                raise _refuse("missing_card", gettext_noop("Choose a card from your hand."), card=k)
            if p["to_pile"] <= 0:
                raise _refuse("power_used", gettext_noop("You can only put cards you drew this turn on the "
                                                         "Relief pile, and you already did."))
            if state["options"]["edition"] > 1 and not p["pile_cards"].get(k):
                raise _refuse("not_drawn", gettext_noop("You did not draw a %(card_name)s card this turn: "
                                                        "only cards you drew this turn go on the Relief pile."),
                              card=k, card_name=RCARDS[k]["name"])
            p["hand"][k] -= 1
            p["to_pile"] -= 1
            if p["pile_cards"].get(k):
                p["pile_cards"][k] -= 1
            state["pile"].append(k)
            return [{"type": "to_relief_pile", "seat": seat, "card": k}]
        raise _refuse("passive_power", gettext_noop("The %(role_name)s's power works by itself when you build: "
                                                    "there is no button for it."),
                      role=role, role_name=ROLES[role]["name"])

    def _offer_trade(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat)
        to, give, get = action.get("to"), action.get("give"), action.get("get")
        if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to < state["seats"] \
                or to == seat:
            raise _refuse("no_such_player", gettext_noop("Choose another player to trade with."), to=to)
        if give not in RCARDS or get not in RCARDS or give == get:
            raise _refuse("bad_cards", gettext_noop("Choose one card to give and a different one to get."))
        other = state["players"][to]
        if other["city"] != p["city"]:
            raise _refuse("not_same_city", gettext_noop("You can only trade with someone in your city: "
                                                        "they are in %(there)s."),
                          to=to, there=_city_name(other["city"]))
        if not p["hand"][give]:
            raise _refuse("missing_card", gettext_noop("You don't have a %(card_name)s card."),
                          card=give, card_name=RCARDS[give]["name"])
        if state["options"]["open_hands"] and not other["hand"][get]:
            raise _refuse("they_lack_card", gettext_noop("They don't have a %(card_name)s card."),
                          card=get, card_name=RCARDS[get]["name"])
        if p["offers_made"] >= OFFERS_PER_TURN:
            raise _refuse("too_many_offers", gettext_noop("%(most)s of your trade offers were not "
                                                          "taken this turn: no more offers until your next turn."),
                          most=OFFERS_PER_TURN)
        events = []
        for o in [o for o in state["offers"] if o["from"] == seat]:
            state["offers"].remove(o)
            events.append({"type": "offer_withdrawn", "offer": o["id"]})
        offer = {"id": state["next_offer"], "from": seat, "to": to, "give": give, "get": get,
                 "made_at": state["moves_made"]}
        state["next_offer"] += 1
        state["offers"].append(offer)
        p["offers_made"] += 1
        return events + [{"type": "offer_made", **offer}]

    def _find_offer(self, state: dict, seat: int, action: dict) -> dict:
        if state["phase"] != "player":
            raise _refuse("wrong_phase", gettext_noop("Trades happen during the Player Phase."))
        oid = action.get("offer")
        o = next((o for o in state["offers"] if o["id"] == oid), None)
        if o is None or o["to"] != seat:
            raise _refuse("no_offer", gettext_noop("That trade offer is gone."), offer=oid)
        return o

    def _accept_trade(self, state: dict, seat: int, action: dict) -> list[dict]:
        o = self._find_offer(state, seat, action)
        a, b = state["players"][o["from"]], state["players"][seat]
        if a["city"] != b["city"]:
            raise _refuse("not_same_city", gettext_noop("You are no longer in the same city."))
        if not b["hand"][o["get"]]:
            raise _refuse("missing_card", gettext_noop("You don't have a %(card_name)s card to give."),
                          card=o["get"], card_name=RCARDS[o["get"]]["name"])
        if not a["hand"][o["give"]]:
            raise _refuse("they_lack_card", gettext_noop("They no longer have that card."), card=o["give"])
        a["hand"][o["give"]] -= 1
        b["hand"][o["give"]] += 1
        b["hand"][o["get"]] -= 1
        a["hand"][o["get"]] += 1
        state["offers"].remove(o)
        if state["options"]["edition"] > 1:
            a["offers_made"] -= 1
        a["stats"]["trades"] += 1
        b["stats"]["trades"] += 1
        return [{"type": "traded", "offer": o["id"], "from": o["from"], "to": seat,
                 "give": o["give"], "get": o["get"]}]

    def _decline_trade(self, state: dict, seat: int, action: dict) -> list[dict]:
        o = self._find_offer(state, seat, action)
        state["offers"].remove(o)
        return [{"type": "offer_declined", "offer": o["id"], "from": o["from"], "to": seat}]

    def _discard(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat)
        k = action.get("card")
        if k not in RCARDS or not p["hand"][k]:
            raise _refuse("missing_card", gettext_noop("Choose a card from your hand."), card=k)
        if _hand_size(p["hand"]) <= HAND_LIMIT:
            raise _refuse("hand_ok", gettext_noop("You may keep %(most)s cards: no need to discard."), most=HAND_LIMIT)
        _spend(state, p["hand"], {k: 1})
        return [{"type": "discarded", "seat": seat, "card": k}]

    def _end_turn(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat)
        size = _hand_size(p["hand"])
        if size > HAND_LIMIT:
            raise _refuse("hand_too_big", gettext_noop("You have %(have)s cards: discard %(extra)s to keep %(most)s."),
                          have=size, most=HAND_LIMIT, extra=size - HAND_LIMIT)
        events: list[dict] = []
        self._finish_turn(state, p, events)
        return events

    # teacher and system

    def _skip(self, state: dict, action: dict) -> list[dict]:
        seat = action.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["seats"]:
            raise _refuse("no_such_seat", gettext_noop("There is no such seat at this table."), seat=seat)
        p = state["players"][seat]
        events: list[dict] = []
        if state["phase"] == "roles":
            if p["role"] is not None:
                raise _refuse("role_chosen", gettext_noop("That seat already has a role."))
            self._give_role(state, p, events)
            if all(q["role"] for q in state["players"]):
                self._begin_round(state, events)
            return events
        if state["phase"] != "player" or p["status"] in ("ended", "waiting"):
            raise _refuse("nothing_to_skip", gettext_noop("That seat is not playing right now."), seat=seat)
        events.append({"type": "skipped", "seat": seat})
        self._auto_end(state, p, events)
        return events

    def _auto_end(self, state: dict, p: dict, events: list, storm: bool = True) -> None:
        if p["status"] == "start":
            events.extend(self._take_cards(state, p, {"from": "deck"}, "drew", "drawn"))
        while _hand_size(p["hand"]) > HAND_LIMIT:
            k = max(KINDS, key=lambda k: (p["hand"][k], -KINDS.index(k)))
            _spend(state, p["hand"], {k: 1})
            events.append({"type": "discarded", "seat": p["seat"], "card": k, "auto": True})
        self._finish_turn(state, p, events, storm)

    def _storm_moves(self, state: dict, action: dict) -> list[dict]:
        if state["phase"] not in ("player", "storm"):
            raise _refuse("wrong_phase", gettext_noop("The storm moves after the Player Phase."))
        events: list[dict] = []
        if state["phase"] == "player":
            # The teacher's button: everyone still playing ends as if skipped, then one move.
            for p in state["players"]:
                if p["status"] == "waiting":
                    self._start_turn(state, p)
                if p["status"] != "ended":
                    events.append({"type": "skipped", "seat": p["seat"]})
                    self._auto_end(state, p, events, storm=False)
        self._hurricane(state, events)
        return events

    def _end_now(self, state: dict, action: dict) -> list[dict]:
        state["offers"] = []
        self._game_over(state, "ended_now")
        return [{"type": "game_over", "ended": "ended_now", "damage": state["damage"]["total"]}]

    # --- turn flow ------------------------------------------------------------------------

    def _begin_round(self, state: dict, events: list) -> None:
        """Forecast Phase, then the start of the Player Phase."""
        state["round"] += 1
        storm = state["storm"]
        terrain = TERRAINS[state["options"]["edition"]]
        deck = "ocean" if terrain[tuple(storm["at"])] == "ocean" else "land"
        storm["deck"] = deck
        state["forecast"] = shuffled(DECKS[deck], state["options"]["storm_seed"], "forecast",
                                     None, state["round"])[:FORECAST_SIZE]
        events.append({"type": "forecast", "round": state["round"], "deck": deck,
                       "cards": list(state["forecast"])})
        state["phase"] = "player"
        for p in state["players"]:
            p.update(status="waiting", moves=MOVES, drawn=0, to_pile=0, pile_cards={},
                     power_used=False, offers_made=0)
        if state["options"]["turn_order"] == "round_table":
            state["turn"] = 0
            self._start_turn(state, state["players"][0])
        else:
            for p in state["players"]:
                self._start_turn(state, p)

    def _start_turn(self, state: dict, p: dict) -> None:
        """Draw 2 from the deck, unless there is a Relief pile to choose from (§13)."""
        if state["pile"] and p["role"] != "relief_corps":
            p["status"] = "start"
            return
        cards = _draw_cards(state, DRAW)
        for k in cards:
            p["hand"][k] += 1
            p["drawn"] += 1
        if p["role"] == "relief_corps":
            self._may_pile(p, cards)
        p["status"] = "drawn"

    def _may_pile(self, p: dict, cards: list[str]) -> None:
        """The Relief Corps may put the cards she just drew on her pile this turn (§13)."""
        p["to_pile"] += len(cards)
        for k in cards:
            p["pile_cards"][k] = p["pile_cards"].get(k, 0) + 1

    def _finish_turn(self, state: dict, p: dict, events: list, storm: bool = True) -> None:
        p["status"] = "ended"
        events.append({"type": "turn_ended", "seat": p["seat"]})
        if state["options"]["turn_order"] == "round_table":
            nxt = p["seat"] + 1
            if nxt < state["seats"] and state["players"][nxt]["status"] == "waiting":
                state["turn"] = nxt
                if storm:
                    self._start_turn(state, state["players"][nxt])
                return
        if all(q["status"] == "ended" for q in state["players"]):
            self._end_player_phase(state, events, storm)

    def _end_player_phase(self, state: dict, events: list, storm: bool = True) -> None:
        for o in state["offers"]:
            events.append({"type": "offer_expired", "offer": o["id"]})
        state["offers"] = []
        state["turn"] = None
        state["phase"] = "storm"
        if not storm:
            return
        if state["options"]["hold_storm"]:
            events.append({"type": "storm_waiting"})
            return
        self._hurricane(state, events)

    def _hurricane(self, state: dict, events: list) -> None:
        """The Hurricane Phase: flip, move, change category, resolve damage (§1–§8)."""
        opts = state["options"]
        storm = state["storm"]
        cat = storm["category"]
        start = tuple(storm["at"])
        flips = shuffled(state["forecast"], opts["storm_seed"], "flip", None,
                         state["round"])[:SPEED[cat]]
        log: list[dict] = [{"type": "storm_flips", "round": state["round"], "cards": flips,
                            "category": cat}]
        edition = opts["edition"]
        terrain = TERRAINS[edition]
        q, r = start
        path = [(q, r)]
        for cid in flips:
            for (dq, dr), name in zip(CARD_STEPS[cid], HCARDS[cid]["steps"]):
                if (q + dq, r + dr) in terrain:
                    q, r = q + dq, r + dr
                    path.append((q, r))
                    log.append({"type": "storm_step", "card": cid, "direction": name,
                                "at": [q, r]})
                else:
                    log.append({"type": "storm_blocked", "card": cid, "direction": name,
                                "at": [q, r]})
        storm["at"] = [q, r]
        over = terrain[(q, r)]
        ups = sum(HCARDS[c]["strengthen"] for c in flips)
        downs = sum(HCARDS[c]["weaken"] for c in flips)
        if over == "land":
            change = -1 if (downs or opts["land_decay"]) else 0
        else:
            change = 1 if ups > downs else -1 if downs > ups else 0
        dies = cat == 1 and change == -1
        if not dies or opts["final_move_damage"]:
            self._resolve_damage(state, hit_centres(path, edition), cat, log)
        new_cat = max(1, min(5, cat + change))
        if dies:
            log.append({"type": "dissipated", "at": [q, r], "over": over})
        elif new_cat != cat:
            log.append({"type": "category", "from": cat, "to": new_cat, "over": over})
        storm["category"] = new_cat
        storm["history"].append({"round": state["round"], "from": list(start), "to": [q, r],
                                 "category": cat, "after": 0 if dies else new_cat})
        state["damage_track"].append(state["damage"]["total"])
        state["last_storm"] = log
        state["forecast"] = []
        events.extend(log)
        if dies:
            self._game_over(state, "dissipated")
        elif state["round"] >= opts["turn_cap"]:
            self._game_over(state, "turn_cap")
        if state["phase"] == "over":
            events.append({"type": "game_over", "ended": state["ended"],
                           "damage": state["damage"]["total"]})
            return
        self._begin_round(state, events)

    def _resolve_damage(self, state: dict, path: list, cat: int, log: list) -> None:
        radius = RADIUS[cat]
        if state["options"]["hits"] == "per_step":
            hits = [cover(q, r, radius) for q, r in path]
        else:
            cities: set = set()
            roads: set = set()
            for q, r in set(path):
                cs, rs = cover(q, r, radius)
                cities.update(cs)
                roads.update(rs)
            hits = [(tuple(c for c in CITY_IDS if c in cities),
                     tuple(rd for rd in ROAD_IDS if rd in roads))]
        damage = state["damage"]
        by_city = state["damage_by_city"]
        forts = state["fortifications"]
        limited = state["options"]["chits"]

        def chits(n: int) -> int:
            """How many of ``n`` damage chits are left to place (all, without the option)."""
            return min(n, CHITS["damage"] - damage["total"]) if limited else n

        for cities, roads in hits:
            for cid in cities:
                for sid in INFRA[cid]:
                    if sid in state["destroyed"]:
                        continue
                    if forts[sid]:
                        forts[sid] -= 1
                        log.append({"type": "held", "space": sid, "city": cid,
                                    "left": forts[sid]})
                    elif not chits(1):
                        log.append({"type": "no_chits", "space": sid, "city": cid})
                    else:
                        state["destroyed"].append(sid)
                        damage["infrastructure"] += 1
                        damage["total"] += 1
                        by_city[cid] += 1
                        log.append({"type": "destroyed", "space": sid, "city": cid, "damage": 1})
                people = state["population"][cid]
                sid = POP_SPACE[cid]
                if not people:
                    log.append({"type": "spared", "space": sid, "city": cid})
                elif forts[sid]:
                    forts[sid] -= 1
                    log.append({"type": "held", "space": sid, "city": cid, "left": forts[sid]})
                elif not chits(people):
                    log.append({"type": "no_chits", "space": sid, "city": cid})
                else:
                    people = chits(people)
                    damage["population"] += people
                    damage["total"] += people
                    by_city[cid] += people
                    log.append({"type": "people_hit", "space": sid, "city": cid,
                                "damage": people})
            for rid in roads:
                if rid in state["flooded"]:
                    continue
                if len(state["dams"][rid]) == 2:
                    log.append({"type": "dam_held", "road": rid})
                    continue
                if not chits(1):
                    log.append({"type": "no_chits", "road": rid})
                    continue
                state["flooded"].append(rid)
                damage["roads"] += 1
                damage["total"] += 1
                log.append({"type": "road_flooded", "road": rid, "damage": 1})

    def _game_over(self, state: dict, reason: str) -> None:
        state["phase"] = "over"
        state["ended"] = reason
        state["turn"] = None
        state["forecast"] = []
        for p in state["players"]:
            p["status"] = "ended"

    def _prune_offers(self, state: dict, events: list) -> None:
        ttl = state["options"]["trade_expiry"]
        keep = []
        for o in state["offers"]:
            if state["moves_made"] - o["made_at"] > ttl or not self._offer_ok(state, o) \
                    or state["players"][o["from"]]["status"] not in ("drawn", "played", "more"):
                events.append({"type": "offer_expired", "offer": o["id"]})
            else:
                keep.append(o)
        state["offers"] = keep

    _PLAYER = {
        "pick_role": _pick_role, "draw": _draw, "draw_more": _draw_more, "move": _move,
        "fortify": _fortify, "dam": _dam, "evacuate": _evacuate, "use_role": _use_role,
        "offer_trade": _offer_trade, "accept_trade": _accept_trade,
        "decline_trade": _decline_trade, "discard": _discard, "end_turn": _end_turn,
    }
    _SYSTEM = {
        "auto_roles": _auto_roles, "skip": _skip, "storm_moves": _storm_moves,
        "end_now": _end_now,
    }
    # What an action of each type may carry, and every word its fields may hold: what
    # ``canonical`` keeps of an applied action for the move log.
    ACTION_FIELDS = {
        "pick_role": ("role", "city"), "draw": ("from", "cards"), "draw_more": ("from", "cards"),
        "move": ("to",), "fortify": ("card", "space"), "dam": ("road", "city"),
        "evacuate": ("people", "discard"), "use_role": ("discard", "card"),
        "offer_trade": ("to", "give", "get"), "accept_trade": ("offer",), "decline_trade": ("offer",),
        "discard": ("card",), "end_turn": (),
        "auto_roles": (), "skip": ("seat",), "storm_moves": (), "end_now": (),
    }
    ACTION_WORDS = frozenset([*ROLE_IDS, *CITY_IDS, *SPACE_IDS, *ROAD_IDS, *KINDS, "deck", "pile"])

    def canonical(self, action: dict) -> dict:
        """The applied ``action`` as it is stored: its known fields only (IllegalAction otherwise)."""
        return canonical(action, self.ACTION_FIELDS, self.ACTION_WORDS)
