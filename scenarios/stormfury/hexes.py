"""Axial hex geometry for the Stormfury board (flat-top hexes).

Coordinates are axial ``(q, r)``; the third cube coordinate is ``-q - r``. North is ``r - 1``.
"""

from __future__ import annotations

#: Compass directions of the flat-top hex grid, as ``(dq, dr)``.
DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (0, -1),
    "NE": (1, -1),
    "SE": (1, 0),
    "S": (0, 1),
    "SW": (-1, 1),
    "NW": (-1, 0),
}


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Number of hex steps between two hexes."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def disk(centre: tuple[int, int], radius: int) -> list[tuple[int, int]]:
    """Every hex within ``radius`` steps of ``centre`` (on or off any map), centre first."""
    q0, r0 = centre
    out = [centre]
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            if dq or dr:
                out.append((q0 + dq, r0 + dr))
    return out


def step(hex_: tuple[int, int], direction: str) -> tuple[int, int]:
    """The neighbour of ``hex_`` in a compass direction."""
    dq, dr = DIRECTIONS[direction]
    return hex_[0] + dq, hex_[1] + dr
