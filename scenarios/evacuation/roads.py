"""Routing: which roads a system configuration opens and how far a place is from another."""

from __future__ import annotations

import heapq

from .tables import ADJ, DEST_NODE, HOME, LINKS, STOPS

# --- Routing -----------------------------------------------------------------------------------
# One table of next hops per configuration of bridges and contraflow (16 at most), built lazily.

_ROUTES: dict = {}


def _config(system):
    return (system["bridge.west"], system["bridge.bay"], system["bridge.east"], system["contraflow"])


def _allowed(link, inbound, config):
    bridge = link["bridge"]
    if bridge and not config[("west", "bay", "east").index(bridge)]:
        return False
    return not (inbound and config[3] and link["contraflow"])


def _routes(config, target):
    """Next hop toward ``target`` from every node that can reach it: {node: (next, link)}."""
    table = _ROUTES.get(config)
    if table is None:
        table = _ROUTES[config] = {}
    hops = table.get(target)
    if hops is not None:
        return hops
    dist = {target: 0.0}
    hops = {}
    heap = [(0.0, target)]
    while heap:
        d, v = heapq.heappop(heap)
        if d > dist[v]:
            continue
        # Entering v from u: prefer easy roads, avoid stopping at activities on the way, and
        # never pass through a destination or home that is not the target.
        penalty = 0.0
        if v != target:
            if v in DEST_NODE.values() or v == HOME:
                continue
            if v in STOPS:
                penalty = 2.5
        for u, li, inbound_from_v in ADJ[v]:
            link = LINKS[li]
            # Edge u -> v is inbound exactly when v -> u is outbound.
            if not _allowed(link, not inbound_from_v, config):
                continue
            cost = d + 1.0 + (link["black"] or 0) / 10.0 + penalty
            if cost < dist.get(u, 1e18):
                dist[u] = cost
                hops[u] = (v, li)
                heapq.heappush(heap, (cost, u))
    hops.pop(target, None)
    table[target] = hops
    return hops


_HOPS: dict = {}


def hops(config, start, target):
    """Links on the drive route from ``start`` to ``target`` (None if there is no route)."""
    key = (config, start, target)
    if key not in _HOPS:
        table, node, count = _routes(config, target), start, 0
        while node != target and node in table:
            node = table[node][0]
            count += 1
        _HOPS[key] = count if node == target else None
    return _HOPS[key]


def threshold(link, system):
    """The roll a link needs now (None for an open bridge: no roll)."""
    if link["bridge"]:
        return None
    t = link["red"] if system["numbers"] == "red" else link["black"]
    if system["contraflow"] and link["contraflow"]:
        t = max(1, t - 2)
    return t
