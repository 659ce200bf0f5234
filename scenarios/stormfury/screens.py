"""What the screens show: the board that never changes, each seat's and the teacher's view,
the chits left in the box, and the results.

``Screens`` is the part of the ``Stormfury`` engine class (``rules.py``) that reads the state for
the screens; it never changes it.
"""

from __future__ import annotations

from .hexes import DIRECTIONS, distance
from .state import _hand_size
from .storm import footprint, forecast_outlook
from .tables import (
    CHITS,
    CITIES,
    CITY_HEX,
    CITY_IDS,
    CONTENT,
    CONTENT_HASH,
    DRAW,
    FORECAST_SIZE,
    HAND_LIMIT,
    INFRA,
    MAP,
    RADIUS,
    ROAD_IDS,
    SPACES,
    SPEED,
    TERRAINS,
    VERSION,
)


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


class Screens:
    """The board, the views and the results (a part of the ``Stormfury`` engine class, see
    ``rules.py``)."""

    def board(self) -> dict:
        """Everything that never changes during a game: enough to draw the map and the cards."""
        return {
            "key": self.key,
            "version": VERSION,
            "content_hash": CONTENT_HASH,
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
            "hand_limit": HAND_LIMIT,
            "forecast_size": FORECAST_SIZE,
            "draw": DRAW,
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
            pv = {
                "seat": p["seat"],
                "role": p["role"],
                "city": p["city"],
                "status": p["status"],
                "moves_left": p["moves"],
                "power_used": p["power_used"],
                "hand_size": size,
            }
            # Only when they apply, to keep the view small: cards to discard before the turn can
            # end, and cards the Relief Corps may still put on the pile.
            if size > HAND_LIMIT:
                pv["over_limit"] = size - HAND_LIMIT
            if p["role"] == "relief_corps":
                pv["to_pile"] = p["to_pile"]
            if open_hands or seat is None or seat == p["seat"]:
                pv["hand"] = dict(p["hand"])
            players.append(pv)
        forecast = {
            "cards": list(state["forecast"]),
            "draws": min(SPEED[cat], FORECAST_SIZE),
            "deck": storm["deck"],
            "reach": [],
            "threat": [],
        }
        if state["forecast"] and state["phase"] in ("player", "storm"):
            outlook = forecast_outlook((q, r), cat, tuple(state["forecast"]), state["options"]["edition"])
            forecast["reach"] = [list(h) for h in outlook["reach"]]
            forecast["threat"] = [list(h) for h in outlook["threat"]]
            forecast["city_risk"] = outlook["city_risk"]
        offers = [dict(o) for o in state["offers"] if seat is None or seat in (o["from"], o["to"])]
        me = state["players"][seat] if seat is not None and 0 <= seat < state["seats"] else None
        out = {
            "phase": state["phase"],
            "round": state["round"],
            "turn_cap": state["options"]["turn_cap"],
            "turn_order": state["options"]["turn_order"],
            "turn": state["turn"],
            "ended": state["ended"],
            "to_act": self.to_act(state),
            "storm": {
                "at": [q, r],
                "category": cat,
                "radius": RADIUS[cat],
                "across": 2 * RADIUS[cat] + 1,
                "nearest": _nearest_city((q, r)),
                "over": TERRAINS[state["options"]["edition"]][(q, r)],
                "footprint": footprint(q, r, RADIUS[cat], state["options"]["edition"]),
                "history": [dict(h) for h in storm["history"]],
            },
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
            "damage_by_type": {k: state["damage"][k] for k in ("infrastructure", "population", "roads")},
            "damage_by_city": dict(state["damage_by_city"]),
            "infrastructure_lost": by_type,
            "flooded_roads": list(state["flooded"]),
            "people_not_evacuated": sum(state["population"].values()),
            "rounds": state["round"],
            "ended": state["ended"],
            "complete": state["ended"] in ("dissipated", "turn_cap"),
            #: the damage total after each storm move: a team stopped early is compared with the
            #: policy bot's damage after as many moves (``score_track``, as the platform reads it)
            "score_track": list(state["damage_track"]),
        }
        return [
            {
                "seat": p["seat"],
                "score": state["damage"]["total"],
                "rank": 1,
                "breakdown": {"team": team, "role": p["role"], "contributions": dict(p["stats"])},
            }
            for p in state["players"]
        ]
