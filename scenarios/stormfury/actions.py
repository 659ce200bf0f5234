"""The legal actions: every action a seat (or the teacher and the system) may take now.

``LegalActions`` is the part of the ``Stormfury`` engine class (``rules.py``) that lists them,
with the checks ``moves.py`` shares (an open space, a Fortify card's price, dam targets, a
trade offer still good).
"""

from __future__ import annotations

import math
from itertools import combinations

from .state import _counts, _hand_size
from .tables import (
    CHITS,
    CITIES,
    CITY_IDS,
    DRAW,
    FORTIFY_KINDS,
    HAND_LIMIT,
    KINDS,
    NEIGHBOURS,
    OFFERS_PER_TURN,
    RCARDS,
    ROADS_AT,
    ROLE_IDS,
    SPACES,
)


def _multisets(hand: dict, n: int, reserve: dict | None = None) -> list[list[str]]:
    """Every distinct choice of ``n`` cards from ``hand`` (minus ``reserve``), kinds sorted."""
    pool = []
    for k in KINDS:
        pool.extend([k] * max(0, min(n, hand.get(k, 0) - (reserve or {}).get(k, 0))))
    return [list(c) for c in sorted(set(combinations(pool, n)), key=lambda c: [KINDS.index(k) for k in c])]


class LegalActions:
    """Every legal action now (a part of the ``Stormfury`` engine class, see ``rules.py``)."""

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
            return [
                {"type": "pick_role", "role": role, "city": city}
                for role in ROLE_IDS
                if role not in taken
                for city in CITY_IDS
            ]
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
            return (
                [{"type": "draw", "from": "deck"}]
                + [{"type": "draw", "from": "pile", "cards": c} for c in self._pile_choices(state)]
                + out
            )
        city = p["city"]
        if p["moves"] > 0:
            for rid, other in ROADS_AT[city]:
                if rid not in state["flooded"]:
                    out.append({"type": "move", "to": other})
        can_play = status in ("drawn", "played")
        if can_play:
            tokens_left = self._fortification_chits(state)
            for kind in FORTIFY_KINDS:
                if hand[kind] and RCARDS[kind]["tokens"] <= tokens_left and self._fortify_payment(p, kind) is not None:
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
                out.extend({"type": "draw_more", "from": "pile", "cards": c} for c in self._pile_choices(state))
        if p["offers_made"] < OFFERS_PER_TURN:
            for other in state["players"]:
                if other["seat"] == seat or other["city"] != city:
                    continue
                for give in KINDS:
                    if not hand[give]:
                        continue
                    for get in KINDS:
                        if get != give and (other["hand"][get] or not state["options"]["open_hands"]):
                            out.append({"type": "offer_trade", "to": other["seat"], "give": give, "get": get})
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
            out.extend({"type": "skip", "seat": p["seat"]} for p in state["players"] if p["role"] is None)
        elif phase == "player":
            out.append({"type": "storm_moves"})
            out.extend(
                {"type": "skip", "seat": p["seat"]} for p in state["players"] if p["status"] not in ("ended", "waiting")
            )
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
        if p["role"] == "architect" and not p["power_used"] and hand["sandbag"] and hand["material"] >= need - 1:
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
