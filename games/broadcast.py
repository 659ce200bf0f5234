"""Group names by game id and the messages sent to them after each committed change.

Every socket at a table joins ``game-<id>`` and gets its own seat's full view with the version;
teacher dashboards join ``game-<id>-watch`` and get a compact summary they coalesce.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


@dataclass(frozen=True)
class Snapshot:
    """The game row's fields a message needs, frozen at the version it describes."""

    id: int
    version: int
    status: str
    seats: int
    bots: dict = field(default_factory=dict)
    marks: dict = field(default_factory=dict)
    timers: dict = field(default_factory=dict)

    @classmethod
    def of(cls, game):
        return cls(id=game.pk, version=game.version, status=game.status, seats=game.seats,
                   bots=dict(game.bots), marks={k: v[0] for k, v in game.seat_marks.items()},
                   timers=dict(game.timers))


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def watch_group_name(game_id: int) -> str:
    return f"game-{game_id}-watch"


def view_message(snap: Snapshot, engine, state, seat: int | None, view: dict | None = None) -> dict:
    """The full view one seat (or, for None, the teacher) is shown at this version."""
    message = {
        "type": "view", "game": snap.id, "seat": seat, "version": snap.version,
        "status": snap.status, "view": view if view is not None else engine.view(state, seat),
    }
    if seat is None:
        message["bots"] = snap.bots
        message["timers"] = snap.timers
        if snap.status == "finished":
            message["results"] = engine.results(state)
    else:
        message["mark"] = snap.marks.get(str(seat), 0)
        message["bot"] = snap.bots.get(str(seat))
        message["timer"] = snap.timers.get(str(seat))
        if snap.status == "finished":
            message["results"] = engine.results(state)
    return message


def publish(snap: Snapshot, engine, state, views: dict | None = None) -> None:
    """Send every seat its view, and dashboards word that this table changed (they rebuild their
    coalesced snapshot at most once a second). Call after commit only."""
    layer = get_channel_layer()
    messages = {str(seat): view_message(snap, engine, state, seat, (views or {}).get(seat))
                for seat in range(snap.seats)}
    send = async_to_sync(_send_both)
    send(layer, snap.id, {"type": "game.views", "version": snap.version, "views": messages},
         {"type": "game.summary", "game": snap.id, "version": snap.version})


async def _send_both(layer, game_id, views, summary):
    await layer.group_send(group_name(game_id), views)
    await layer.group_send(watch_group_name(game_id), summary)
