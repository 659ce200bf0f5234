"""The projector's line for one Bermuda table (``scenarios.base.projector_line``): its rounds and
the best freight against the target, the ships the storm cloud holds, and each captain's freight
as it grows. Pure: ids and numbers, words marked here."""

from __future__ import annotations

from ..base import cheer, projector_line, storm_line
from ..words import gettext_noop

WORDS = {
    "round": gettext_noop("Round %(done)s of %(of)s · best freight %(best)s of %(target)s"),
    "cloud": gettext_noop("Ships held by the storm cloud: %(ships)s"),
    "freight": gettext_noop("%(who)s has delivered %(value)s in freight"),
}


def line(view: dict) -> dict:
    rounds = view.get("rounds") or 1
    over = bool(view.get("over") or view.get("ended"))
    seats = view.get("seats") or []
    best = max((s.get("freight") or 0 for s in seats), default=0)
    moments = [
        cheer(f"freight-{s['seat']}-{s['freight']}", "freight", s["seat"], value=s["freight"])
        for s in sorted(seats, key=lambda s: s.get("freight") or 0)
        if s.get("freight")
    ]
    cloud = view.get("cloud") or {}
    return projector_line(
        "round",
        rounds if over else max(0, (view.get("round") or 1) - 1),
        rounds,
        percent=100 if over else view.get("progress"),
        storm=storm_line("cloud", ships=len(cloud.get("hanging") or [])),
        cheers=moments[-3:],
        best=best,
        target=view.get("target"),
    )
