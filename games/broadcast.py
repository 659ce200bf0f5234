"""Group names by game id and the messages sent to them after each committed change.

Every socket at a table joins ``game-<id>`` and gets its own seat's full view with the version
(or, when a tablemate's move left that view as it was, an ``others`` message: only the view's
``others`` part, which the device puts in place of the one it holds, whole);
teacher dashboards join ``game-<id>-watch`` and get the table's teacher view, which they keep and
coalesce into one snapshot a second.

Seat and teacher views travel already encoded as JSON text: every socket of the group decodes the
group message, so the views are encoded once here instead of once per socket there, and a
dashboard keeps a table's teacher view as one string rather than as thousands of objects.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from dataclasses import dataclass, field

import orjson
from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from scenarios.debrief import played_by_stand_in

#: asgiref's private ``SyncToAsync.threadlocal`` is read in ``_callers_loop``, as it is in this
#: version; ``tests/test_fast_pins.py`` fails when the installed or required version moves.
WRITTEN_FOR = {"asgiref": "3.13.0"}

logger = logging.getLogger(__name__)

SEND_SECONDS = 10  # a push from a worker thread waits this long for its event loop, then gives up


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
    played: tuple = ()  # seats that have made a move
    stand_in: tuple = ()  # seats played by the stand-in (``scenarios.debrief.played_by_stand_in``)

    @classmethod
    def of(cls, game):
        return cls(
            id=game.pk,
            version=game.version,
            status=game.status,
            seats=game.seats,
            bots=dict(game.bots),
            marks={k: v[0] for k, v in game.seat_marks.items()},
            timers=dict(game.timers),
            played=tuple(sorted(int(k) for k, v in game.seat_marks.items() if len(v) > 3 and v[3])),
            stand_in=tuple(s for s in range(game.seats) if played_by_stand_in(*game.stand_in_count(s))),
        )


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def watch_group_name(game_id: int) -> str:
    return f"game-{game_id}-watch"


def encode(message) -> str:
    """Compact JSON text; keys that are not strings become strings, as with ``json``. orjson is
    several times faster; ``json`` takes what it refuses (integers beyond 64 bits)."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(message, separators=(",", ":"))


def view_message(snap: Snapshot, engine, state, seat: int | None, view: dict | None = None) -> dict:
    """The full view one seat (or, for None, the teacher) is shown at this version."""
    message = {
        "type": "view",
        "game": snap.id,
        "seat": seat,
        "version": snap.version,
        "status": snap.status,
        "view": view if view is not None else engine.view(state, seat),
    }
    if seat is None:
        # the projector's line of this table (ids and numbers; the classroom screens it for the
        # session's audience and keeps it out of the view's text: ``summary_text``)
        message["projector"] = engine.projector(message["view"])
        message["bots"] = snap.bots
        message["timers"] = snap.timers
        message["played"] = list(snap.played)
        message["stand_in"] = list(snap.stand_in)
    else:
        message["mark"] = snap.marks.get(str(seat), 0)
        message["bot"] = snap.bots.get(str(seat))
        message["timer"] = snap.timers.get(str(seat))
        # whether the seat still has a game to play (a household arrived has not): a device
        # whose seats are all done shows what to do while the others finish
        hook = getattr(engine, "seat_open", None)
        message["open"] = snap.status != "finished" and (hook is None or hook(state, seat))
    if snap.status == "finished":
        message["results"] = engine.results(state)
    return message


def others_message(snap: Snapshot, seat: int, others, built: int) -> dict:
    """For a seat whose own view this version left as it was: the message fields of a view
    message and, instead of the view, its new ``others`` part, which replaces the one in the
    view the device holds (built at version ``built``); the rest of that view stays as it is. A
    device holding a view older than ``built`` waits a moment for that one, which may still be
    on its way, and asks for a sync if it never comes."""
    return {
        "type": "others",
        "game": snap.id,
        "seat": seat,
        "version": snap.version,
        "built": built,
        "status": snap.status,
        "mark": snap.marks.get(str(seat), 0),
        "bot": snap.bots.get(str(seat)),
        "timer": snap.timers.get(str(seat)),
        "others": others,
    }


# What the dashboard's alerts and standings read from a table's view (classroom.selectors.dashboard).
HEAD_VIEW_KEYS = ("round", "phase", "storm", "allowance")


def summary_text(summary: dict) -> str:
    """A teacher view's JSON text as dashboards keep it: without its projector line, which goes
    into snapshots only as the session's audience may see it (``head`` keeps it for that)."""
    return encode({key: value for key, value in summary.items() if key != "projector"})


def head(summary: dict) -> dict:
    """A teacher view without the board: enough for the dashboard's alerts and standings, small
    enough to keep beside the encoded view without decoding that again for every snapshot."""
    head = {key: value for key, value in summary.items() if key != "view"}
    head["view"] = {key: summary["view"][key] for key in HEAD_VIEW_KEYS if key in summary["view"]}
    return head


def messages(
    snap: Snapshot, engine, state, views: dict | None = None, others: dict | None = None
) -> list[tuple[str, dict]]:
    """Every seat's view (or, where ``others`` has it, its ``others`` part) for the table's group
    and the teacher view for its dashboards."""
    others = others or {}
    seat_views = {
        str(seat): encode(
            others_message(snap, seat, *others[seat])
            if seat in others
            else view_message(snap, engine, state, seat, (views or {}).get(seat))
        )
        for seat in range(snap.seats)
    }
    summary = view_message(snap, engine, state, None)
    return [
        (group_name(snap.id), {"type": "game.views", "version": snap.version, "views": seat_views}),
        (
            watch_group_name(snap.id),
            {
                "type": "game.summary",
                "game": snap.id,
                "version": snap.version,
                "summary": summary_text(summary),
                "head": head(summary),
            },
        ),
    ]


def push_after_commit(batch) -> None:
    """The one hand-off of every change to the sockets: game views, dashboard summaries and
    lobby changes alike. Sends ``batch`` once the current transaction commits (at once outside
    one), best-effort: a layer that is away is logged, never raised into the caller's commit.
    Code on an event loop that holds a batch already committed awaits ``send`` instead."""
    if batch:
        transaction.on_commit(lambda: _send_now(batch))


def _send_now(batch) -> None:
    try:
        loop = _callers_loop()
        if loop is None:
            async_to_sync(send)(get_channel_layer(), batch)
        elif loop.is_running():
            asyncio.run_coroutine_threadsafe(send(get_channel_layer(), batch), loop).result(timeout=SEND_SECONDS)
        else:
            logger.warning("Could not push %d messages: the server is stopping", len(batch))
    except Exception as error:  # noqa: BLE001 - e.g. no layer configured: nothing to tell
        logger.warning("Could not push %d messages: %r", len(batch), error)


def _callers_loop():
    """The event loop of the async code that handed this thread its work (a socket, a sweep), if
    any. The channel layer's connections belong to that loop, so the push runs there, as
    ``async_to_sync`` would run it, but with a time limit: a loop that stops before running it
    (a server shutting down) would otherwise hold this thread, and with it every later
    thread-sensitive call of the process, for ever."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    # asgiref never forgets the loop: a thread that once ran async code for a loop now closed
    # (an ``async_to_sync`` that returned) has no caller's loop any more and pushes on its own
    return None if loop is None or loop.is_closed() else loop


def publish(snap: Snapshot, engine, state, views: dict | None = None, others: dict | None = None) -> None:
    """Push every seat its view and every dashboard the table's teacher view after commit."""
    push_after_commit(messages(snap, engine, state, views, others))


async def send(layer, batch) -> None:
    """Send each message, as far as the channel layer lets it. The change is committed already,
    and a layer that is away (Redis restarting) must not keep a tap from its answer: a device
    that misses its view asks for it again, and dashboards read tables afresh every few seconds.
    Both of the project's layers take a batch at once (``group_send_many``): Redis's in one write."""
    if not batch:
        return
    try:
        await layer.group_send_many(batch)
    except Exception as error:  # noqa: BLE001 - the layer's connection raises its own kinds
        logger.warning("Could not send %d messages: %r", len(batch), error)
