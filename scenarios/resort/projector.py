"""The projector's line for one resort table (``scenarios.base.projector_line``): how much of the
storm's season has been read, the storm's latest category and wind, and the last move's moments
(a resort whose guests were kept safe, a resort bought). Pure: ids and numbers, words marked here."""

from __future__ import annotations

from ..base import cheer, projector_line, storm_line
from ..words import gettext_noop

WORDS = {
    "reports": gettext_noop("Storm report %(done)s of %(of)s · round %(round)s"),
    "category": gettext_noop("Storm: category %(category)s, winds of %(wind)s knots"),
    "tropical": gettext_noop("Tropical storm, winds of %(wind)s knots"),
    "calm": gettext_noop("No storm yet"),
    "people_safe": gettext_noop("%(who)s kept every guest safe"),
    "bought": gettext_noop("%(who)s bought a resort"),
    "free_option": gettext_noop("%(who)s won a free protection"),
}


def line(view: dict) -> dict:
    program = view.get("program") or {}
    total = program.get("lines_total") or 1
    over = bool(view.get("over") or view.get("ended"))
    revealed = program.get("revealed") or []
    if revealed:
        last = revealed[-1]
        kind = "category" if last.get("category") else "tropical"
        storm = storm_line(kind, category=last.get("category"), wind=last.get("wind"))
    else:
        storm = storm_line("calm")
    moments = []
    at = f"{view.get('round')}-{view.get('turn')}-{program.get('read')}"
    for i, event in enumerate(view.get("events") or []):
        kind = event.get("type")
        if kind == "damage" and event.get("people_safe"):
            moments.append(cheer(f"{at}-{i}", "people_safe", event.get("seat")))
        elif kind in ("bought", "free_option"):
            moments.append(cheer(f"{at}-{i}", kind, event.get("seat")))
    return projector_line(
        "reports",
        total if over else program.get("read") or 0,
        total,
        percent=100 if over else view.get("progress"),
        storm=storm,
        cheers=moments[-3:],
        round=view.get("round") or 1,
    )
