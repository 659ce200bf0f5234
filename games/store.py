"""Where a move's game is read and saved: the requests ``games.pipeline.steps`` yields, and how
each driver answers them.

``Read`` (the game, and the id of a move already saved under the tap's id), ``Stored`` (that
move) and ``Save`` (the game's ``MOVE_CHANGES`` and the new move, only if the game row is still
as read; both or neither) are the whole conversation. Three answerers say the same thing:

- ``orm_answer``: the ORM, the plain statement of each request, which the tests hold the other
  two to;
- ``games.sql_driver.answer``: the same in plain SQL on Django's connection, for the sync driver
  (docs/decisions/0002-sync-driver-plain-sql.md);
- ``async_answer``: async psycopg on a socket's event loop, for PostgreSQL
  (docs/decisions/0001-async-psycopg-taps.md), two round trips per tap: read, then
  save-and-append in one statement.

The SQL is built here once from the models' ``_meta``; ``tests/games/test_pipeline.py`` runs
every case through each answerer and holds them to the ORM's.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Field, OuterRef, Subquery

from games import broadcast, sqlite_queue
from games.models import Game, Move

# The game row's fields a move changes.
MOVE_CHANGES = ["version", "state", "status", "seat_marks", "timers", "next_deadline", "updated_at"]


def concrete_field(model, name: str) -> Field:
    """``model``'s column ``name`` (``_meta.get_field`` may also return a relation's other end)."""
    field = model._meta.get_field(name)
    assert isinstance(field, Field), name
    return field


# --- The requests ----------------------------------------------------------------


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


# --- The ORM's answers -----------------------------------------------------------------------------


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


def orm_answer(request):
    """The ORM's answer to one of the pipeline's requests."""
    if isinstance(request, Read):
        return orm_read(request.game_id, request.action_id)
    if isinstance(request, Stored):
        return Move.objects.get(pk=request.move_id)
    if not isinstance(request, Save):
        raise TypeError(f"not a request of games.store: {request!r}")
    with sqlite_queue.writing(), transaction.atomic():
        game = request.game
        changes = {name: getattr(game, name) for name in MOVE_CHANGES}
        if not unchanged(game.pk, request.read_version, request.read_stamp).update(**changes):
            return False
        request.move.save(force_insert=True)
        return True


# --- The async psycopg answers -------------------------------------------------------------------


def _columns(model) -> tuple[list[str], list[str]]:
    fields = model._meta.concrete_fields
    return [f.attname for f in fields], [f'"{f.column}"' for f in fields]


_GAME_ATTRS, _GAME_COLUMNS = _columns(Game)
_MOVE_ATTRS, _MOVE_COLUMNS = _columns(Move)
# What a move reads of its game: the columns, then the id of a move already saved under the
# move's action id, for a game row aliased ``g``; its one parameter is the action id. A caller
# that checks something else first reads both in one statement and hands the row to
# ``game_from_row`` (a tap's seat check does: ``games.taps``).
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
    + ", ".join(f'"{concrete_field(Game, name).column}" = %s' for name in MOVE_CHANGES)
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


async def async_answer(conn, request):
    """``orm_answer`` on ``conn`` with async psycopg."""
    if isinstance(request, Read):
        row = await (await conn.execute(_READ_SQL, [request.action_id, request.game_id])).fetchone()
        return game_from_row(row)
    if isinstance(request, Stored):
        row = await (await conn.execute(_MOVE_SQL, [request.move_id])).fetchone()
        return Move.from_db("default", _MOVE_ATTRS, row)
    if not isinstance(request, Save):
        raise TypeError(f"not a request of games.store: {request!r}")
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
