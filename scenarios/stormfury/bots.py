"""Bots for Project Stormfury: ``BOTS[name](state, seat) -> action``.

Both are deterministic (their only randomness is ``base.draw`` with the purpose ``"bot"``, the
seat and the table's action counter) and only ever return a legal action for a seat that may
act (``ENGINE.to_act``).
"""

from __future__ import annotations

from ..base import draw
from .hexes import distance
from .rules import (
    CITY_HEX,
    CITY_IDS,
    FORTIFY_KINDS,
    HAND_LIMIT,
    INFRA,
    KINDS,
    NEIGHBOURS,
    POP_SPACE,
    RCARDS,
    ROADS_AT,
    ROLE_IDS,
    Stormfury,
    forecast_outlook,
)

_ENGINE = Stormfury()


def random_bot(state: dict, seat: int) -> dict:
    """A legal action picked at random: first the kind of action, then which one."""
    actions = _ENGINE.actions(state, seat)
    by_type: dict[str, list] = {}
    for a in actions:
        by_type.setdefault(a["type"], []).append(a)
    types = list(by_type)
    n = state["moves_made"]
    choice = by_type[types[draw(state["seed"], "bot", seat, 2 * n) % len(types)]]
    return choice[draw(state["seed"], "bot", seat, 2 * n + 1) % len(choice)]


# --- the cooperative policy ---------------------------------------------------------------------

_ROLE_PREFERENCE = ["evac_specialist", "aquatic_engineer", "architect", "relief_corps"]
_THRESHOLD = 0.05
_PRIOR = 0.3


def _card_value(hand: dict, k: str) -> float:
    """How much a card is worth keeping, given what it combines with."""
    if k == "material":
        return 2.0 if any(hand[f] for f in FORTIFY_KINDS) else 1.2
    if k == "sandbag":
        return 2.2 if hand["dam"] else 1.4
    if k == "dam":
        return 3.0 if hand["sandbag"] else 1.8
    if k == "evacuate":
        return 2.4
    need = RCARDS[k]["cost"]["material"]
    return 2.5 + need * 0.3 if hand["material"] >= need else 1.3 + need * 0.1


def _cheapest(hand: dict, n: int, keep: dict) -> list[str] | None:
    """The ``n`` least valuable cards of ``hand`` beyond ``keep``, kinds sorted; None if short."""
    spare = {k: hand[k] - keep.get(k, 0) for k in KINDS}
    out: list[str] = []
    while len(out) < n:
        options = [k for k in KINDS if spare[k] > 0]
        if not options:
            return None
        k = min(options, key=lambda k: (_card_value(hand, k), KINDS.index(k)))
        spare[k] -= 1
        out.append(k)
    return sorted(out, key=KINDS.index)


_RISKS: dict[tuple, tuple[dict, dict]] = {}


def _risks(state: dict) -> tuple[dict, dict]:
    """Chance each city and road is hit this turn, plus a small prior for next turns' targets.

    Cached by storm and forecast; the dicts returned are shared, so callers only read them.
    """
    storm = state["storm"]
    at = tuple(storm["at"])
    key = (at, storm["category"], tuple(state["forecast"]))
    hit = _RISKS.get(key)
    if hit is None:
        if len(_RISKS) > 2048:
            _RISKS.clear()
        hit = _RISKS[key] = _compute_risks(state, at)
    return hit


def _compute_risks(state: dict, at: tuple) -> tuple[dict, dict]:
    storm = state["storm"]
    city_risk, road_risk = {}, {}
    if state["forecast"]:
        out = forecast_outlook(at, storm["category"], tuple(state["forecast"]), state["options"]["edition"])
        city_risk, road_risk = dict(out["city_risk"]), dict(out["road_risk"])
    reach = 2 * storm["category"] + 3
    for c in CITY_IDS:
        d = distance(at, CITY_HEX[c])
        if d <= reach:
            city_risk[c] = city_risk.get(c, 0.0) + _PRIOR * (1 - d / (reach + 1))
    return city_risk, road_risk


def _fortify_option(state: dict, p: dict) -> str | None:
    """The Fortify card this player can pay for now, smallest first."""
    hand = p["hand"]
    for kind in FORTIFY_KINDS:
        if hand[kind] and _ENGINE._fortify_payment(p, kind) is not None:
            return kind
    return None


def _plays_in(state: dict, p: dict, city: str, city_risk: dict, road_risk: dict) -> list:
    """Useful plays in ``city`` with their value, best first: (value, action)."""
    hand = p["hand"]
    risk = city_risk.get(city, 0.0)
    forts = state["fortifications"]
    people = state["population"][city]
    out = []
    if risk > 0:
        fort = _fortify_option(state, p)
        pop_sid = POP_SPACE[city]
        if people:
            if hand["evacuate"]:
                n = 2 if people == 2 and _hand_total(hand) >= 5 else 1
                cards = _cheapest(hand, 2 * n, {"evacuate": 1})
                if cards:
                    out.append((risk * n + 0.3 * n, {"type": "evacuate", "people": n, "discard": cards}))
            if p["role"] == "evac_specialist":
                cards = _cheapest(hand, 2, {})
                if cards:
                    out.append((risk + 0.25, {"type": "use_role", "discard": cards}))
            if fort and not forts[pop_sid]:
                out.append((risk * people, {"type": "fortify", "card": fort, "space": pop_sid}))
        if fort:
            for sid in INFRA[city]:
                if sid not in state["destroyed"] and not forts[sid]:
                    out.append((risk, {"type": "fortify", "card": fort, "space": sid}))
                    break
    if hand["dam"] and hand["sandbag"]:
        cities = [city] + (NEIGHBOURS[city] if p["role"] == "aquatic_engineer" else [])
        for c in cities:
            escape = _escape_bonus(state, c, city_risk)
            for rid, other in ROADS_AT[c]:
                if rid in state["flooded"] or c in state["dams"][rid]:
                    continue
                value = road_risk.get(rid, 0.0)
                if state["dams"][rid]:
                    value *= 1.5  # finishing a half-dammed road seals it
                if escape and city_risk.get(other, 0.0) < city_risk.get(c, 0.0):
                    value += escape
                if value > 0:
                    out.append((value, {"type": "dam", "road": rid, "city": c}))
    out.sort(key=lambda va: -va[0])
    return out


def _start_city(state: dict) -> str:
    """The free city nearest the storm (inland ties broken by content order)."""
    at = tuple(state["storm"]["at"])
    taken = {q["city"] for q in state["players"]}
    return min((c for c in CITY_IDS if c not in taken) or CITY_IDS, key=lambda c: distance(at, CITY_HEX[c]))


def _best_move(state: dict, p: dict, city_risk: dict, road_risk: dict) -> str | None:
    """First step towards the city (within this turn's moves) where the best play is worth most."""
    flooded = state["flooded"]
    best_value, best_step = _THRESHOLD, None
    frontier = [(p["city"], None)]
    seen = {p["city"]}
    for depth in range(p["moves"]):
        nxt = []
        for c, first in frontier:
            for rid, other in ROADS_AT[c]:
                if rid in flooded or other in seen:
                    continue
                seen.add(other)
                step = first or other
                plays = _plays_in(state, p, other, city_risk, road_risk)
                value = (plays[0][0] if plays else 0.0) * (0.9**depth)
                if value > best_value:
                    best_value, best_step = value, step
                nxt.append((other, step))
        frontier = nxt
    return best_step


def _escape_bonus(state: dict, city: str, city_risk: dict) -> float:
    """A threatened city with no sealed road out wants one: the escape road."""
    if city_risk.get(city, 0.0) < 0.2:
        return 0.0
    for rid, _ in ROADS_AT[city]:
        if len(state["dams"][rid]) == 2:
            return 0.0
    return 0.3


def _hand_total(hand: dict) -> int:
    return sum(hand.values())


def cooperative_bot(state: dict, seat: int) -> dict:
    """Reads the forecast: protects what it threatens and keeps an escape road dammed."""
    p = state["players"][seat]
    if state["phase"] == "roles":
        taken = {q["role"] for q in state["players"]}
        role = next(r for r in _ROLE_PREFERENCE + ROLE_IDS if r not in taken)
        return {"type": "pick_role", "role": role, "city": _start_city(state)}
    hand = p["hand"]
    for o in state["offers"]:
        if o["to"] == seat:
            if _ENGINE._offer_ok(state, o) and (_card_value(hand, o["give"]) > _card_value(hand, o["get"]) + 0.5):
                return {"type": "accept_trade", "offer": o["id"]}
            return {"type": "decline_trade", "offer": o["id"]}
    status = p["status"]
    if status == "start":
        useful = [k for k in ("dam", "sandbag", "material", "evacuate") if k in state["pile"]]
        if useful:
            cards = sorted((useful * 2)[: min(2, len(state["pile"]))], key=KINDS.index)
            if all(state["pile"].count(k) >= cards.count(k) for k in cards):
                return {"type": "draw", "from": "pile", "cards": cards}
        return {"type": "draw", "from": "deck"}
    city_risk, road_risk = _risks(state)
    city = p["city"]
    if status in ("drawn", "played"):
        plays = _plays_in(state, p, city, city_risk, road_risk)
        if plays and plays[0][0] > _THRESHOLD:
            return plays[0][1]
    elif status == "more" and p["role"] == "evac_specialist" and state["population"][city]:
        if city_risk.get(city, 0.0) > 0.3:
            cards = _cheapest(hand, 2, {})
            if cards:
                return {"type": "use_role", "discard": cards}
    if p["moves"] > 0 and status in ("drawn", "played"):
        step = _best_move(state, p, city_risk, road_risk)
        if step is not None:
            return {"type": "move", "to": step}
    if status == "drawn":
        return {"type": "draw_more", "from": "deck"}
    pileable = [k for k in KINDS if hand[k] and p["pile_cards"].get(k)]
    if status == "more" and p["role"] == "relief_corps" and pileable and _hand_total(hand) > HAND_LIMIT:
        k = min(pileable, key=lambda k: (_card_value(hand, k), KINDS.index(k)))
        return {"type": "use_role", "card": k}
    if _hand_total(hand) > HAND_LIMIT:
        k = min((k for k in KINDS if hand[k]), key=lambda k: (_card_value(hand, k), KINDS.index(k)))
        return {"type": "discard", "card": k}
    return {"type": "end_turn"}


BOTS = {"random": random_bot, "cooperative": cooperative_bot}
POLICY_BOT = "cooperative"

__all__ = ["BOTS", "POLICY_BOT", "random_bot", "cooperative_bot"]
