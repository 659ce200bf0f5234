"""A dashboard snapshot with each table's teacher view put in as the JSON text held.

Replaces: decoding every table's teacher view held by a dashboard and encoding it again into
each snapshot. Paid for by: 3.3 % of the server's samples; at 100 actions/s server CPU 9.2 →
8.0–8.2 ms per action and p99 236 → 134–156 ms (docs/decisions/0007-dashboard-splice.md); and no
thousands of objects per move kept for seconds, which reached the collector's oldest
generation and set off full passes that paused every socket of the process.

The snapshot is encoded with a marker (``hole``) where each table's view goes; ``fill`` puts
the texts in. The marker starts with a NUL and a random token drawn per process, which no
nickname or view can contain (PostgreSQL's text holds no NUL; frames with one are refused).
"""

from __future__ import annotations

import secrets

_MARK = secrets.token_hex(8)
_HOLE, _HOLE_ENCODED = f"\x00{_MARK}:", f"\\u0000{_MARK}:"


def hole(game: int) -> str:
    """What stands in a snapshot for table ``game``'s view until ``fill``."""
    return f"{_HOLE}{game}"


def fill(text: str, texts: dict[int, str]) -> str:
    """``text`` (an encoded snapshot) with each game's ``hole`` replaced by its JSON text."""
    for game, view in texts.items():
        text = text.replace(f'"{_HOLE_ENCODED}{game}"', view, 1)
    return text
