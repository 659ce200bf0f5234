"""The projector's line for one evacuation table (``scenarios.base.projector_line``): the
households' 48 hours, the bridges the storm has closed, and the moments a class cheers (a
household that leaves, secures its home or arrives). Pure: ids and numbers, words marked here."""

from __future__ import annotations

from ..base import cheer, projector_line, storm_line
from ..words import gettext_noop

HOURS = 48
#: the feed events worth a cheer, newest last on the projector
CHEERS = ("left_home", "home_secured", "arrived")

WORDS = {
    "hours": gettext_noop("Hour %(done)s of %(of)s · %(safe)s of %(seats)s households safe"),
    "bridges": gettext_noop("%(closed)s of %(bridges)s bridges closed by the storm"),
    "left_home": gettext_noop("%(who)s left home"),
    "home_secured": gettext_noop("%(who)s secured their home"),
    "arrived": gettext_noop("%(who)s arrived safely"),
}


def line(view: dict) -> dict:
    households = view.get("tables") or []
    percent = view.get("progress") or 0
    safe = sum(1 for h in households if h.get("status") in ("arrived", "stayed"))
    bridges = (view.get("system") or {}).get("bridges") or {}
    moments = []
    for h in households:
        for entry in h.get("feed") or []:
            if entry.get("type") in CHEERS:
                key = f"{entry['type']}-{h['seat']}-{entry.get('hour')}"
                moments.append((entry.get("hour") or 0, cheer(key, entry["type"], h["seat"])))
    moments.sort(key=lambda pair: pair[0])
    return projector_line(
        "hours",
        round(HOURS * percent / 100),
        HOURS,
        percent=percent,
        storm=storm_line("bridges", closed=sum(1 for up in bridges.values() if not up), bridges=len(bridges))
        if bridges
        else None,
        cheers=[c for _, c in moments[-3:]],
        safe=safe,
        seats=len(households),
    )
