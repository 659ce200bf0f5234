"""The projector's line for one Tornado Alert! table (``scenarios.base.projector_line``): its
rounds and the photos taken so far, the last place the tornado struck, and who took the last
pile of photos. Pure: ids and numbers, words marked here."""

from __future__ import annotations

from ..base import cheer, projector_line, storm_line
from ..words import gettext_noop

WORDS = {
    "round": gettext_noop("Round %(round)s of %(of)s · photos taken: %(photos)s"),
    "struck": gettext_noop("Lightning struck · photo spots hit: %(hit)s"),
    "tornado": gettext_noop("A tornado touched down · photo spots hit: %(hit)s"),
    "photo": gettext_noop("%(who)s grabbed the pile · photos: %(count)s"),
}


def line(view: dict) -> dict:
    rounds = view.get("rounds") or 1
    over = bool(view.get("over"))
    round_ = min(view.get("round") or 1, rounds)
    seats = view.get("seats") or []
    taken = sum((s.get("cards") or 0) + (s.get("face_down") or 0) for s in seats)
    pile = view.get("pile_size") or 0
    left = (view.get("draw") or 0) + sum(s.get("hand") or 0 for s in seats)
    in_round = (taken + pile) / max(1, taken + pile + left)
    played = rounds if over else round_ - 1
    moments, storm = [], None
    take = view.get("last_take")
    if take and take.get("seat") is not None:
        moments.append(cheer(f"take-{round_}-{take.get('pile')}", "photo", take["seat"], count=take.get("count")))
    for event in view.get("events") or []:
        if event.get("type") == "lightning":
            storm = storm_line("struck", hit=len(event.get("hit") or []))
        elif event.get("type") == "tornado":
            storm = storm_line("tornado", hit=len(event.get("hit") or []))
    return projector_line(
        "round",
        played,
        rounds,
        percent=100 if over else 100 * (played + min(1.0, in_round)) / rounds,
        storm=storm,
        cheers=moments[-3:],
        round=round_,
        photos=taken,
    )
