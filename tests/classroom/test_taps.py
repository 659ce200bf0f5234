"""A device's tap through the classroom's seat check, on both drivers: Django's connection
(``act``: SQLite, the HTTP fallback) and async psycopg (``aact``: a socket on PostgreSQL)."""

import asyncio
import contextlib

import pytest

from classroom import services
from classroom.models import Participant
from games import pgpool
from games.models import Game
from tests.factories import started_session

pytestmark = pytest.mark.django_db(transaction=True)


def _aact(participant_id, message):
    try:
        return asyncio.run(services.aact(participant_id, message))
    finally:
        pgpool.close_all()


@pytest.fixture(params=["orm", "async"])
def act(request):
    return {"orm": services.act, "async": _aact}[request.param]


def _tap(seat, version, action_id, action=None):
    return {"type": "act", "id": action_id, "seat": seat, "version": version, "action": action or {"type": "wait"}}


def _game(participant):
    return Game.objects.get(pk=participant.seats.get().table.game_id)


def _unchanged(game):
    fresh = Game.objects.get(pk=game.pk)
    return (fresh.version, fresh.state, fresh.updated_at, fresh.moves.count()) == (
        game.version,
        game.state,
        game.updated_at,
        game.moves.count(),
    )


def _refusals(participant):
    return Participant.objects.get(pk=participant.pk).refusals


def test_a_refused_tap_changes_nothing_but_the_refusal_count_and_a_landed_one_clears_it(act):
    """A stale tap comes back with the fresh view, leaves the game as it was and counts one
    refusal; an action without a type is refused uncounted; the next tap that lands sets the
    count back to 0."""
    session, [(student, _token), _other] = started_session(students=2)
    seat, game = student.seats.get().number, _game(student)

    answer, batch = act(student.pk, _tap(seat, game.version + 5, "stale-tap-1"))
    assert (answer["code"], batch) == ("stale_view", [])
    assert answer["view"]["version"] == game.version
    assert _unchanged(game) and _refusals(student) == 1

    answer, _ = act(student.pk, _tap(seat, game.version, "no-type-tap", {"kind": "wait"}))
    assert answer["code"] == "bad_frame"
    assert _unchanged(game) and _refusals(student) == 1

    answer, batch = act(student.pk, _tap(seat, game.version, "landing-tap"))
    assert answer["type"] == "ok" and answer["version"] == game.version + 1 and batch
    assert _refusals(student) == 0


def test_a_tap_the_seat_check_refuses_is_not_counted(act):
    """Another student's seat, a frame that cannot be read and a parked lesson are refused
    without a change and without counting against the device."""
    session, [(student, _token), (other, _other_token)] = started_session(students=2)
    seat, game = student.seats.get().number, _game(student)
    other_seat = other.seats.get().number

    answer, _ = act(student.pk, _tap(other_seat, game.version, "not-mine-tap"))
    assert answer["code"] == "not_your_seat"
    answer, _ = act(student.pk, _tap(seat, game.version, "short"))
    assert answer["code"] == "bad_frame"
    services.set_paused(session=session, paused=True, parked=True)
    game = _game(student)
    answer, _ = act(student.pk, _tap(seat, game.version, "parked-tap"))
    assert answer["code"] == "session_parked"
    assert _unchanged(game) and _refusals(student) == 0 and _refusals(other) == 0


def test_a_participant_who_left_is_told_the_lesson_closed(act):
    """A device whose participant is gone (deleted, or the lesson purged) holds no seat and is
    told so, with nothing counted anywhere."""
    session, [(student, _token), _other] = started_session(students=2)
    seat, game = student.seats.get().number, _game(student)
    student_pk = student.pk
    student.delete()
    answer, batch = act(student_pk, _tap(seat, game.version, "gone-tap-1"))
    assert (answer["code"], batch) == ("session_closed", [])
    assert _unchanged(game)


def test_a_socket_tap_that_lands_is_two_statements(monkeypatch):
    """On a socket with PostgreSQL a tap reads the seat and its game in one statement and saves
    the game with its move in another: no third round trip for the seat check."""
    session, [(student, _token), _other] = started_session(students=2)
    seat, game = student.seats.get().number, _game(student)
    pooled, statements = pgpool.connection, []

    class Counting:
        def __init__(self, conn):
            self.conn = conn

        async def execute(self, sql, params=None):
            statements.append(sql)
            return await self.conn.execute(sql, params)

    @contextlib.asynccontextmanager
    async def counted():
        async with pooled() as conn:
            yield Counting(conn)

    monkeypatch.setattr(pgpool, "connection", counted)
    answer, _ = _aact(student.pk, _tap(seat, game.version, "two-trips-1"))
    assert answer["type"] == "ok"
    assert len(statements) == 2
