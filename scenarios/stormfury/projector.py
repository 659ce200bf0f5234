"""The projector's line for one Stormfury team (``scenarios.base.projector_line``): its rounds,
the storm's category and distance to the nearest city, and the last storm move's moments (a
fortification that held, people spared; people the storm reached, which a Gentle class does not
see). Pure: ids and numbers, words marked here."""

from __future__ import annotations

from ..base import cheer, projector_line, storm_line
from ..words import gettext_noop

WORDS = {
    "round": gettext_noop("Round %(done)s of %(of)s · damage %(damage)s"),
    "storm": gettext_noop("Storm: category %(category)s · hexes to the nearest city: %(hexes)s"),
    "over_land": gettext_noop("Storm: category %(category)s, over land"),
    "gone": gettext_noop("The storm has died out"),
    "held": gettext_noop("A fortification held against the storm"),
    "spared": gettext_noop("The storm spared a city's people"),
    "people_hit": gettext_noop("The storm struck people who had not left: %(people)s"),
}


def line(view: dict) -> dict:
    cap = view.get("turn_cap") or 1
    ended = bool(view.get("ended"))
    played = cap if ended else max(0, (view.get("round") or 1) - 1)
    storm = view.get("storm")
    if ended or not storm:
        shown = storm_line("gone")
    elif storm.get("over") == "land":
        shown = storm_line("over_land", category=storm.get("category"))
    else:
        shown = storm_line("storm", category=storm.get("category"), hexes=(storm.get("nearest") or {}).get("hexes"))
    moments = []
    round_ = view.get("round") or 0
    for i, event in enumerate(view.get("last_storm") or []):
        key = f"storm-{round_}-{i}"
        if event.get("type") in ("held", "spared"):
            moments.append(cheer(key, event["type"]))
        elif event.get("type") == "people_hit":
            moments.append(cheer(key, "people_hit", deaths=True, people=event.get("damage")))
    return projector_line(
        "round",
        played,
        cap,
        percent=100 if ended else view.get("progress"),
        storm=shown,
        cheers=moments[-3:],
        damage=(view.get("damage") or {}).get("total", 0),
    )
