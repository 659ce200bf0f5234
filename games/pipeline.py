"""The one way a game's state changes: ``steps`` works a move out, two drivers do its I/O.

A tap, a bot's step, an idle seat's timer, the teacher's skip, finish or end, and the class
storm all take the same steps, written once in ``steps``:

    read the game (and whether this action id was saved already) → check → advance in memory →
    save the game only if it is still at the version read, with the move appended → the batch
    of messages to push after commit.

``steps`` is a generator that does no I/O: it yields a request of ``games.store`` (``Read``,
``Stored``, ``Save``) and is sent the answer; the check and the move in memory are
``games.step``'s. Two drivers answer the requests with the store's answerers:

- ``drive_sync`` (``run_sync``): Django's connection, for SQLite (the embedded ``make run``), the
  HTTP fallback, the teacher's buttons and the loops; each save is its own short ``atomic``
  block, in plain SQL (``games.sql_driver``; ``store.orm_answer`` says the same with the ORM,
  and the tests run every case through both).
- ``drive_async``: psycopg on the socket's event loop (``games.pgpool``), for PostgreSQL: no
  thread hop, two round trips per tap (read, then save-and-append in one statement).

A caller with checks of its own makes them before it drives ``steps``, and hands in the game
if it read it on the way (``first``): a student's tap (``games.taps``) asks the classroom's
seat check which game the device's seat plays in, then drives ``steps`` like any other move.

**The concurrency rule** (this replaces "lock the game row"): nothing locks a game. A move is
worked out from the version read and saved only if the game is still at that version and last
write (``updated_at``); if another move got in first, the move is worked out again from the new
version (a student's tap whose seat's choices changed meanwhile is then refused as stale). No
lock is held while the rules run, and the two drivers can never overwrite each other.

**The idempotency rule**: a move's ``action_id`` is unique in its game. A device names its own
taps, so a re-sent tap is found and its stored outcome returned; its names live in a namespace of
the device's own (``device_action_id``: ``tap:<device>:<its id>``), so whatever it sends it can
take neither the name of a server move nor another device's. The server names its moves
``server_action_id(purpose, seat, at)``, ``at`` being the version the move was worked out from
(or a key naming a one-off intent, such as a storm countdown, or a race to settle), so a retried
sweep never plays a version's bot step twice: the first save moved the version on. Those names
are predictable, and that is safe only because no device can send one.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import OperationalError
from django.utils import timezone

from games import broadcast, sql_driver, step
from games.models import Game, Move
from games.refusals import Refused
from games.store import Read, Save, Stored, async_answer

RACE_RETRIES = 8  # tries for a move whose table moved on while it was worked out


@dataclass
class Outcome:
    """What a submit did: the move (new or, for a re-sent id, the stored one), the game's version
    after it, and the messages to push once it is committed (empty for a replay)."""

    move: Move
    version: int
    game: Game
    replayed: bool = False
    batch: list | None = None


#: The first part of every device's move id (``device_action_id``), and never a server move's.
DEVICE_NAMESPACE = "tap"


def server_action_id(purpose: str, seat, at) -> str:
    """The id of a move the server makes: ``purpose`` (bot, timer, finish, end_now, a class
    step's type), the seat (``-`` for the whole table), and the version it was worked out from
    or a key of its own."""
    if purpose == DEVICE_NAMESPACE:
        raise ValueError(f"{DEVICE_NAMESPACE!r} names devices' moves, not the server's")
    return f"{purpose}:{'-' if seat is None else seat}:{at}"


def device_action_id(device: str, action_id: str) -> str:
    """The id a device's tap is saved under: the id the device gave it (``action_id``, any
    text), in the namespace of ``device`` (its own name, without ``:``). The device's re-sent tap
    finds it again; no server move and no other device's tap can be named so."""
    if not device or ":" in device:
        raise ValueError(f"not a device's name: {device!r}")
    return f"{DEVICE_NAMESPACE}:{device}:{action_id}"


def devices_own_id(move_id: str) -> str:
    """The id a device gave its tap, from the id its move was saved under (``device_action_id``);
    a server move's id as it is."""
    namespace, _, rest = move_id.partition(":")
    return rest.partition(":")[2] if namespace == DEVICE_NAMESPACE else move_id


def steps(
    *,
    game_id: int,
    seat: int | None,
    action: dict,
    action_id: str | None,
    version: int | None,
    actor: str,
    purpose: str | None = None,
    first=None,
    publish: bool = True,
):
    """The pipeline, as requests for a driver. ``action_id`` None: a server move, named by
    ``server_action_id(purpose or actor, seat, version read)``. ``first`` is the answer to the
    first ``Read`` when the caller has read the game already. Returns an ``Outcome``; raises
    ``Refused`` (then nothing changed)."""
    step.well_formed(action)
    answer = first
    for _ in range(RACE_RETRIES):
        game, seen = answer if answer is not None else (yield Read(game_id, action_id))
        answer = None
        if game is None:
            raise Refused("game_finished")
        if seen is not None:
            move = yield Stored(seen)
            return Outcome(move=move, version=game.version, replayed=True, batch=[], game=game)
        step.check(game, seat, version, actor, action)
        read_version, read_stamp = game.version, game.updated_at
        move_id = action_id or server_action_id(purpose or actor, seat, read_version)
        moved = step.advance(game, seat, action, move_id, actor, views=publish)
        moved.move.created_at = game.updated_at = timezone.now()
        if (yield Save(game, moved.move, read_version, read_stamp)):
            batch = (
                broadcast.messages(broadcast.Snapshot.of(game), moved.engine, moved.state, moved.views, moved.others)
                if publish
                else []
            )
            return Outcome(move=moved.move, version=game.version, batch=batch, game=game)
    raise OperationalError("the table kept changing; try again")


def drive_sync(steps, answerer=None):
    """Answer ``steps``' requests on Django's connection and return what it returns.
    ``answerer``: ``games.sql_driver.answer`` unless told (``games.store.orm_answer`` says the
    same thing through the ORM)."""
    if answerer is None:
        answerer = sql_driver.answer
    answer = None
    try:
        while True:
            answer = answerer(steps.send(answer))
    except StopIteration as done:
        return done.value


def run_sync(steps) -> Outcome:
    """Drive the pipeline with the ORM; its batch is pushed once the caller's transaction (if
    any) commits."""
    outcome = drive_sync(steps)
    broadcast.push_after_commit(outcome.batch)
    return outcome


# --- The async psycopg driver -------------------------------------------------------------------


async def drive_async(steps, conn):
    """``drive_sync`` on ``conn``, an autocommit psycopg connection of ``games.pgpool``. The
    caller awaits ``broadcast.send`` for the batch: it is committed already."""
    answer = None
    try:
        while True:
            answer = await async_answer(conn, steps.send(answer))
    except StopIteration as done:
        return done.value
