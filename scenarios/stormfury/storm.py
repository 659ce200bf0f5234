"""The storm: what a footprint covers, the forecast's outlook, and the Hurricane Phase
(flip, move, change category, resolve damage; RULES.md §1–§8).

The geometry functions are pure lookups over the static tables, cached; ``HurricanePhase`` is
the part of the ``Stormfury`` engine class (``rules.py``) that moves the storm.
"""

from __future__ import annotations

from functools import cache, lru_cache

from ..base import shuffled
from .hexes import disk
from .tables import (
    CARD_STEPS,
    CHITS,
    CITY_HEX,
    CITY_IDS,
    EDITION,
    HCARDS,
    INFRA,
    POP_SPACE,
    RADIUS,
    ROAD_IDS,
    ROADS,
    SPEED,
    TERRAINS,
)

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


@cache  # a few hundred hexes × radii × editions
def _map_disk(q: int, r: int, radius: int, edition: int = EDITION) -> tuple:
    terrain = TERRAINS[edition]
    return tuple(h for h in disk((q, r), radius) if h in terrain)


@lru_cache(maxsize=2048)
def forecast_outlook(start: tuple[int, int], category: int, cards: tuple[str, ...], edition: int = EDITION) -> dict:
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


class HurricanePhase:
    """The Hurricane Phase of the ``Stormfury`` engine (a part of its class, see ``rules.py``)."""

    def _hurricane(self, state: dict, events: list) -> None:
        """The Hurricane Phase: flip, move, change category, resolve damage (§1–§8)."""
        opts = state["options"]
        storm = state["storm"]
        cat = storm["category"]
        start = tuple(storm["at"])
        flips = shuffled(state["forecast"], opts["storm_seed"], "flip", None, state["round"])[: SPEED[cat]]
        log: list[dict] = [{"type": "storm_flips", "round": state["round"], "cards": flips, "category": cat}]
        edition = opts["edition"]
        terrain = TERRAINS[edition]
        q, r = start
        path = [(q, r)]
        for cid in flips:
            for (dq, dr), name in zip(CARD_STEPS[cid], HCARDS[cid]["steps"]):
                if (q + dq, r + dr) in terrain:
                    q, r = q + dq, r + dr
                    path.append((q, r))
                    log.append({"type": "storm_step", "card": cid, "direction": name, "at": [q, r]})
                else:
                    log.append({"type": "storm_blocked", "card": cid, "direction": name, "at": [q, r]})
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
        storm["history"].append(
            {
                "round": state["round"],
                "from": list(start),
                "to": [q, r],
                "category": cat,
                "after": 0 if dies else new_cat,
            }
        )
        state["damage_track"].append(state["damage"]["total"])
        state["last_storm"] = log
        state["forecast"] = []
        events.extend(log)
        if dies:
            self._game_over(state, "dissipated")
        elif state["round"] >= opts["turn_cap"]:
            self._game_over(state, "turn_cap")
        if state["phase"] == "over":
            events.append({"type": "game_over", "ended": state["ended"], "damage": state["damage"]["total"]})
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
            hits = [(tuple(c for c in CITY_IDS if c in cities), tuple(rd for rd in ROAD_IDS if rd in roads))]
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
                        log.append({"type": "held", "space": sid, "city": cid, "left": forts[sid]})
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
                    log.append({"type": "people_hit", "space": sid, "city": cid, "damage": people})
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
