"""Parts other apps add to a tablet's lobby state, without classroom importing them.

The lesson kit (``lessons``) adds the knowledge check's phase, so a tablet shows the before-check
in the lobby and follows the teacher's opening of the after-check live. Each part is a callable
``(participant) -> {key: JSON-able value}``, registered in its app's ``AppConfig.ready``; its
value goes out with every lobby message and into the long-poll stamp.
"""

from __future__ import annotations

_PARTS: list = []


def register(part) -> None:
    if part not in _PARTS:
        _PARTS.append(part)


def parts(participant) -> dict:
    """The registered parts of this student's lobby, merged."""
    merged: dict = {}
    for part in _PARTS:
        merged.update(part(participant) or {})
    return merged
