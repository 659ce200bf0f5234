"""A student's tap: one ``act`` frame from a device, checked, played and answered.

``tap`` (Django's connection: SQLite, the HTTP fallback) and ``atap`` (async psycopg on the
socket's event loop, PostgreSQL) do the same four things:

    read the frame → ask the seat check which game the device's seat plays in (the async one
    reads the game in the same round trip) → ``games.pipeline.steps`` for the action, from
    that game → ``ok`` with the move, or the refusal

Who holds which seat is the classroom's to say, and ``games`` never imports ``classroom``: the
caller hands in a ``SeatCheck`` for the device. A refused tap changes nothing but the device's
refusal count (which feeds the dashboard's "stuck" alert); a tap the seat check itself refuses
(not the device's seat, a closed or parked lesson) or a frame that cannot be read does not
count. A stale tap's refusal carries the fresh view.

A device names its taps (8 to 64 printable characters of its choosing) for its retries' sake;
the move is saved under that id in the device's own namespace (``pipeline.device_action_id``
with the seat check's ``device``), and the answer gives the device its own id back. So no id a
device sends can be a server move's (a race's settle, a bot's step) nor a classmate's tap.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Protocol

from games import pgpool, pipeline, services
from games.kept import KeptThreads
from games.models import Game, Move
from games.refusals import Refused

MAX_SEAT_NUMBER, MAX_VERSION = 1000, 2**31


@dataclass
class Held:
    """The seat a device holds, as its seat check found it: the game it plays in, the device's
    refusal count, and the game as ``games.store.Read`` answers when it was read in the same
    round trip (None: the pipeline reads it)."""

    game_id: int
    refusals: int
    first: tuple | None = None


class SeatCheck(Protocol):
    """One device's seats. ``held`` and ``aheld`` raise ``Refused`` (``not_your_seat``,
    ``session_closed``, ``session_parked``) when the device may not act for ``seat``."""

    #: The device's name in its taps' ids (``pipeline.device_action_id``): the same for every
    #: tap it sends, another device's never, and without ``:``.
    device: str

    def held(self, seat: int, action_id: str | None) -> Held:
        """The device's seat ``seat``, on Django's connection (``action_id``: the tap's move id,
        in the device's namespace, for a seat check that reads the game too)."""

    async def aheld(self, conn, seat: int, action_id: str) -> Held:
        """The same on ``conn`` (``games.pgpool``), with the game beside it: one round trip."""

    def refused(self) -> None:
        """Count one refused tap of the device."""

    def landed(self) -> None:
        """A tap landed: the device's refusal count back to 0."""


def read_frame(message: dict) -> tuple[str, int, int, dict]:
    """The id, seat, version and action of an ``act`` frame, or ``Refused("bad_frame")``."""
    action_id = message.get("id")
    seat, version, action = message.get("seat"), message.get("version"), message.get("action")
    if not isinstance(action_id, str) or not 8 <= len(action_id) <= 64 or not action_id.isprintable():
        raise Refused("bad_frame")
    if type(seat) is not int or type(version) is not int or not isinstance(action, dict):
        raise Refused("bad_frame")  # not True/False either
    if not (0 <= seat < MAX_SEAT_NUMBER and 0 <= version < MAX_VERSION):
        raise Refused("bad_frame")  # beyond any table, and beyond what the database's integers hold
    try:
        # PostgreSQL's text and jsonb hold neither NUL nor NaN.
        if "\\u0000" in json.dumps(action, allow_nan=False):
            raise Refused("bad_frame")
    except ValueError:
        raise Refused("bad_frame") from None
    return action_id, seat, version, action


def tap(seats: SeatCheck, message: dict) -> tuple[dict, list]:
    """Apply one ``act`` frame on Django's connection. Returns the answer for that device only
    and the batch of views for the caller to push (``broadcast.push_after_commit``, or on an
    event loop ``broadcast.send``): committed already.

    The frame is ``{"type": "act", "id", "seat", "version", "action"}``."""
    held = None
    try:
        action_id, seat, version, action = read_frame(message)
        move_id = pipeline.device_action_id(seats.device, action_id)
        held = seats.held(seat, move_id)
        outcome = pipeline.drive_sync(_steps(held, seat, action, move_id, version))
    except Refused as refusal:
        return _refused(seats, refusal, message, held), []
    if held.refusals:
        seats.landed()
    return _ok(outcome, action_id), outcome.batch


# A refused tap's writes (the refusal counted, a count cleared) on threads that keep their
# connections: through ``database_sync_to_async`` each opened and closed one, so a device sending
# refused frames made PostgreSQL start a backend for every frame.
_FOLLOW_UPS = KeptThreads("tap-follow-ups", workers=2)


async def atap(seats: SeatCheck, message: dict) -> tuple[dict, list]:
    """``tap`` on a socket's event loop with PostgreSQL (``games.pgpool``): the seat and its
    game in one statement, the move saved in another. The rare follow-ups (a refusal, a refusal
    count to clear) run on a worker thread. Returns the answer and the batch, which the caller
    sends."""
    held = None
    try:
        action_id, seat, version, action = read_frame(message)
        move_id = pipeline.device_action_id(seats.device, action_id)
        async with pgpool.connection() as conn:
            held = await seats.aheld(conn, seat, move_id)
            outcome = await pipeline.drive_async(_steps(held, seat, action, move_id, version), conn)
    except Refused as refusal:
        return await _FOLLOW_UPS.run(_refused, seats, refusal, message, held), []
    if held.refusals:
        await _FOLLOW_UPS.run(seats.landed)
    return _ok(outcome, action_id), outcome.batch


def _steps(held: Held, seat: int, action: dict, move_id: str, version: int):
    return pipeline.steps(
        game_id=held.game_id,
        seat=seat,
        action=action,
        action_id=move_id,
        version=version,
        actor=Move.Actor.STUDENT,
        first=held.first,
    )


def _ok(outcome: pipeline.Outcome, action_id: str) -> dict:
    """The answer to a tap that landed (or was found again), under the id its device gave it."""
    return {
        "type": "ok",
        "id": action_id,
        "seat": outcome.move.seat,
        "version": outcome.version,
        "replayed": outcome.replayed,
        "events": outcome.move.events,
    }


def _refused(seats: SeatCheck, refusal: Refused, message: dict, held: Held | None) -> dict:
    """The answer to a refused tap; counted if the seat check passed (``held``) and the frame
    could be read."""
    answer = refusal.as_message(message.get("id"))
    if held is None:
        return answer
    if refusal.code == "stale_view":
        answer["view"] = services.current_view(Game.objects.get(pk=held.game_id), message.get("seat"))
    if refusal.code != "bad_frame":  # an action without a type, found after the seat check
        seats.refused()
    return answer
