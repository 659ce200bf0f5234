"""The one way a game's state changes: ``steps`` works a move out, two drivers do its I/O.

A tap, a bot's step, an idle seat's timer, the teacher's skip, finish or end, and the class
storm all take the same steps, written once in ``steps``:

    read the game (and whether this action id was saved already) → check → advance in memory →
    save the game only if it is still at the version read, with the move appended → the batch
    of messages to push after commit.

``steps`` is a generator that does no I/O: it yields a request (``Read``, ``Stored``, ``Save``)
and is sent the answer. Two drivers answer them:

- ``drive_sync`` (``run_sync``): Django's connection, for SQLite (the embedded ``make run``), the
  HTTP fallback, the teacher's buttons and the loops; each save is its own short ``atomic``
  block. ``orm_answer`` says it with the ORM; the server runs the same statements in plain SQL
  (``games.sql_driver``), and the tests run every case through both.
- ``drive_async``: psycopg on the socket's event loop (``games.pgpool``), for PostgreSQL: no
  thread hop, two round trips per tap (read, then save-and-append in one statement).

A caller with checks of its own (classroom's "is this the device's seat?") writes them as a
generator of its own that yields its own requests and then ``yield from steps(...)``; the
drivers pass requests of other kinds to the caller's ``other`` answerer.

**The concurrency rule** (this replaces "lock the game row"): nothing locks a game. A move is
worked out from the version read and saved only if the game is still at that version and last
write (``updated_at``); if another move got in first, the move is worked out again from the new
version (a student's tap whose seat's choices changed meanwhile is then refused as stale). No
lock is held while the rules run, and the two drivers can never overwrite each other.

**The idempotency rule**: a move's ``action_id`` is unique in its game. A device names its own
taps, so a re-sent tap is found and its stored outcome returned. The server names its moves
``server_action_id(purpose, seat, at)``, ``at`` being the version the move was worked out from
(or a key naming a one-off intent, such as a storm countdown), so a retried sweep never plays
a version's bot step twice: the first save moved the version on.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import OperationalError, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from games import broadcast, sqlite_queue
from games.models import Game, Move
from games.refusals import Refused

# The game row's fields a move changes.
MOVE_CHANGES = ["version", "state", "status", "seat_marks", "timers", "next_deadline", "updated_at"]
RACE_RETRIES = 8  # tries for a move whose table moved on while it was worked out


@dataclass
class Outcome:
    """What a submit did: the move (new or, for a re-sent id, the stored one), the game's version
    after it, and the messages to push once it is committed (empty for a replay)."""

    move: Move
    version: int
    replayed: bool = False
    batch: list | None = None
    game: Game | None = None


# --- The requests a driver answers ----------------------------------------------------------------


@dataclass
class Read:
    """The game ``game_id`` and the id of a move saved under ``action_id`` (None: none, or no id
    to look for). Answer: ``(game or None, move id or None)``."""

    game_id: int
    action_id: str | None


@dataclass
class Stored:
    """The move saved with id ``move_id``. Answer: the ``Move``."""

    move_id: int


@dataclass
class Save:
    """Save ``game``'s ``MOVE_CHANGES`` and insert ``move`` only if the game row is still as
    read (``read_version`` and the ``read_stamp`` of its last write, which a teacher's pause or a
    seat handed to a bot also moves on); both or neither. Answer: whether they were saved."""

    game: Game
    move: Move
    read_version: int
    read_stamp: object


def server_action_id(purpose: str, seat, at) -> str:
    """The id of a move the server makes: ``purpose`` (bot, timer, finish, end_now, a class
    step's type), the seat (``-`` for the whole table), and the version it was worked out from
    or a key of its own."""
    return f"{purpose}:{'-' if seat is None else seat}:{at}"


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
    from games import services

    services.well_formed(action)
    answer = first
    for _ in range(RACE_RETRIES):
        game, seen = answer if answer is not None else (yield Read(game_id, action_id))
        answer = None
        if game is None:
            raise Refused("game_finished")
        if seen is not None:
            move = yield Stored(seen)
            return Outcome(move=move, version=game.version, replayed=True, batch=[], game=game)
        services.check(game, seat, version, actor, action)
        read_version, read_stamp = game.version, game.updated_at
        move_id = action_id or server_action_id(purpose or actor, seat, read_version)
        step = services.advance(game, seat, action, move_id, actor, views=publish)
        step.move.created_at = game.updated_at = timezone.now()
        if (yield Save(game, step.move, read_version, read_stamp)):
            batch = (
                broadcast.messages(broadcast.Snapshot.of(game), step.engine, step.state, step.views, step.others)
                if publish
                else []
            )
            return Outcome(move=step.move, version=game.version, batch=batch, game=game)
    raise OperationalError("the table kept changing; try again")


# --- The ORM driver -----------------------------------------------------------------------------


def orm_read(game_id: int, action_id: str | None):
    query = Game.objects.filter(pk=game_id)
    if action_id is not None:
        seen = Move.objects.filter(game=OuterRef("pk"), action_id=action_id).values("pk")[:1]
        query = query.annotate(seen=Subquery(seen))
    game = query.first()
    return game, getattr(game, "seen", None)


def unchanged(game_id: int, version: int, stamp):
    """The game row, if it is still at ``version`` and was last written at ``stamp``: what every
    ORM write of a game updates (moves here, pauses and bot hand-overs in ``games.services``)."""
    return Game.objects.filter(pk=game_id, version=version, updated_at=stamp)


def orm_answer(request, other=None):
    """The ORM's answer to one of the pipeline's requests; any other kind goes to ``other``
    (a caller's own requests, such as classroom's seat check)."""
    if isinstance(request, Read):
        return orm_read(request.game_id, request.action_id)
    if isinstance(request, Stored):
        return Move.objects.get(pk=request.move_id)
    if not isinstance(request, Save):
        return other(request)
    with sqlite_queue.writing(), transaction.atomic():
        game = request.game
        changes = {name: getattr(game, name) for name in MOVE_CHANGES}
        if not unchanged(game.pk, request.read_version, request.read_stamp).update(**changes):
            return False
        request.move.save(force_insert=True)
        return True


def drive_sync(steps, other=None, answerer=None):
    """Answer ``steps``' requests on Django's connection (``other`` answers requests of the
    caller's own kinds) and return what it returns. ``answerer``: ``games.sql_driver.answer``
    unless told (the plain ``orm_answer`` says the same thing through the ORM)."""
    if answerer is None:
        from games import sql_driver

        answerer = sql_driver.answer
    answer = None
    try:
        while True:
            answer = answerer(steps.send(answer), other)
    except StopIteration as done:
        return done.value


def run_sync(steps) -> Outcome:
    """Drive the pipeline with the ORM; its batch is pushed once the caller's transaction (if
    any) commits."""
    outcome = drive_sync(steps)
    broadcast.push_after_commit(outcome.batch)
    return outcome


# --- The async psycopg driver -------------------------------------------------------------------


def _columns(model) -> tuple[list[str], list[str]]:
    fields = model._meta.concrete_fields
    return [f.attname for f in fields], [f'"{f.column}"' for f in fields]


_GAME_ATTRS, _GAME_COLUMNS = _columns(Game)
_MOVE_ATTRS, _MOVE_COLUMNS = _columns(Move)
# What a move reads of its game: the columns, then the id of a move already saved under the
# move's action id, for a game row aliased ``g``; its one parameter is the action id. A caller
# that checks something else first reads both in one statement and hands the row to
# ``game_from_row`` (classroom does, for a tap's seat).
GAME_READ_COLUMNS = (
    ", ".join(f"g.{column}" for column in _GAME_COLUMNS) + f', (SELECT m."id" FROM "{Move._meta.db_table}" m '
    f'WHERE m."game_id" = g."id" AND m."action_id" = %s LIMIT 1)'
)
_READ_SQL = f'SELECT {GAME_READ_COLUMNS} FROM "{Game._meta.db_table}" g WHERE g."id" = %s'
_MOVE_SQL = f'SELECT {", ".join(_MOVE_COLUMNS)} FROM "{Move._meta.db_table}" WHERE "id" = %s'
# The game row is saved only if it is still at the version the move was worked out from, and
# the move is inserted only if it was: one statement, so both happen or neither does.
_SAVE_MOVE_SQL = (
    f'WITH saved AS (UPDATE "{Game._meta.db_table}" SET '
    + ", ".join(f'"{Game._meta.get_field(name).column}" = %s' for name in MOVE_CHANGES)
    + ' WHERE "id" = %s AND "version" = %s AND "updated_at" = %s RETURNING "id") '
    f'INSERT INTO "{Move._meta.db_table}" ("game_id", "seq", "seat", "actor", "action_id", "action", '
    '"events", "created_at") SELECT "id", %s, %s, %s, %s, %s, %s, %s FROM saved'
)


def game_from_row(row) -> tuple[Game | None, int | None]:
    """A ``Read`` answer from a row read with ``GAME_READ_COLUMNS`` (all None: no such game)."""
    if row is None or row[0] is None:
        return None, None
    return Game.from_db("default", _GAME_ATTRS, row[:-1]), row[-1]


def _jsonb(value):
    from psycopg.types.json import Jsonb

    return Jsonb(value, dumps=broadcast.encode)


async def async_answer(conn, request, other=None):
    """``orm_answer`` on ``conn`` with async psycopg; ``other`` is awaited for other kinds."""
    if isinstance(request, Read):
        row = await (await conn.execute(_READ_SQL, [request.action_id, request.game_id])).fetchone()
        return game_from_row(row)
    if isinstance(request, Stored):
        row = await (await conn.execute(_MOVE_SQL, [request.move_id])).fetchone()
        return Move.from_db("default", _MOVE_ATTRS, row)
    if not isinstance(request, Save):
        return await other(conn, request)
    game, move = request.game, request.move
    saved = await conn.execute(
        _SAVE_MOVE_SQL,
        [
            _jsonb(value) if isinstance(value, (dict, list)) else value
            for value in [getattr(game, name) for name in MOVE_CHANGES]
        ]
        + [
            game.pk,
            request.read_version,
            request.read_stamp,
            move.seq,
            move.seat,
            move.actor,
            move.action_id,
            _jsonb(move.action),
            _jsonb(move.events),
            move.created_at,
        ],
    )
    return saved.rowcount == 1


async def drive_async(steps, conn, other=None):
    """``drive_sync`` on ``conn``, an autocommit psycopg connection of ``games.pgpool``. The
    caller awaits ``broadcast.send`` for the batch: it is committed already."""
    answer = None
    try:
        while True:
            answer = await async_answer(conn, steps.send(answer), other)
    except StopIteration as done:
        return done.value
