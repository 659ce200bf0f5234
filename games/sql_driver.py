"""The sync driver's game read and save as plain SQL on Django's connection.

Replaces: the ORM queries that answer ``games.pipeline``'s ``Read`` and ``Save`` in
``games.store.orm_answer`` (``orm_read``'s filter with its subquery, ``unchanged(...).update`` and
``Move.save``). They say the same thing as those three queries, on the same connection and inside
the same transaction, with Django's own converters and field preparation, so the values stored and
read are the ones the ORM would store and read; only the query building and compiling, rebuilt on
every tap, is gone. Paid for by: the embedded server's CPU per action (``python -m benchmarks.live
--embedded``: the ORM's query building was the largest part of a tap's time; the record is
docs/decisions/0002-sync-driver-plain-sql.md). ``tests/games/test_pipeline.py`` runs every case
through both.

The statements are ``games.store``'s async answer's, which PostgreSQL and SQLite both speak, except
that the save is two statements in one ``atomic`` block (SQLite has no ``INSERT`` in a ``WITH``).
"""

from __future__ import annotations

from functools import lru_cache

from django.db import DEFAULT_DB_ALIAS, connections, transaction

from games import sqlite_queue
from games.models import Game, Move
from games.store import _READ_SQL, MOVE_CHANGES, Read, Save, concrete_field, orm_answer

_GAME_FIELDS = Game._meta.concrete_fields
_GAME_ATTRS = [f.attname for f in _GAME_FIELDS]
_CHANGED_FIELDS = [concrete_field(Game, name) for name in MOVE_CHANGES]
_UPDATED_AT = Game._meta.get_field("updated_at")
_MOVE_FIELDS = [
    concrete_field(Move, name)
    for name in ("game", "seq", "seat", "actor", "action_id", "action", "events", "created_at")
]
_SAVE_SQL = (
    f'UPDATE "{Game._meta.db_table}" SET '
    + ", ".join(f'"{field.column}" = %s' for field in _CHANGED_FIELDS)
    + ' WHERE "id" = %s AND "version" = %s AND "updated_at" = %s'
)
_INSERT_MOVE_SQL = (
    f'INSERT INTO "{Move._meta.db_table}" ('
    + ", ".join(f'"{field.column}"' for field in _MOVE_FIELDS)
    + f') VALUES ({", ".join(["%s"] * len(_MOVE_FIELDS))}) RETURNING "id"'
)


@lru_cache(maxsize=4)
def _converters(vendor: str) -> list[tuple[int, list, object]]:
    """Per game column read, what the ORM's compiler would run on its value (``vendor`` keys the
    cache: the backend decides)."""
    connection = connections[DEFAULT_DB_ALIAS]
    found: list[tuple[int, list, object]] = []
    for position, field in enumerate(_GAME_FIELDS):
        column = field.get_col(Game._meta.db_table)
        converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if converters:
            found.append((position, converters, column))
    return found


def read(game_id: int, action_id: str | None) -> tuple[Game | None, int | None]:
    """``Read``'s answer: the game and the id of a move saved under ``action_id``."""
    connection = connections[DEFAULT_DB_ALIAS]
    with connection.cursor() as cursor:
        cursor.execute(_READ_SQL, [action_id, game_id])
        row = cursor.fetchone()
    if row is None:
        return None, None
    values = list(row[:-1])
    for position, converters, column in _converters(connection.vendor):
        value = values[position]
        for convert in converters:
            value = convert(value, column, connection)
        values[position] = value
    return Game.from_db(connection.alias, _GAME_ATTRS, values), row[-1]


def save(request: Save) -> bool:
    """``Save``'s answer: the game's changes and the move, only if the row is still as read."""
    connection = connections[DEFAULT_DB_ALIAS]
    game, move = request.game, request.move
    changes = [field.get_db_prep_save(getattr(game, field.attname), connection) for field in _CHANGED_FIELDS]
    stamp = _UPDATED_AT.get_db_prep_value(request.read_stamp, connection)
    with sqlite_queue.writing(), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_SAVE_SQL, changes + [game.pk, request.read_version, stamp])
        if cursor.rowcount != 1:
            return False
        cursor.execute(
            _INSERT_MOVE_SQL,
            [field.get_db_prep_save(getattr(move, field.attname), connection) for field in _MOVE_FIELDS],
        )
        move.pk = cursor.fetchone()[0]
        move._state.adding, move._state.db = False, connection.alias
    return True


def answer(request):
    """``games.store.orm_answer`` with ``Read`` and ``Save`` in plain SQL."""
    if isinstance(request, Read):
        return read(request.game_id, request.action_id)
    if isinstance(request, Save):
        return save(request)
    return orm_answer(request)
