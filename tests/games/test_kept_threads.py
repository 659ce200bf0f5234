"""The server's background loops do their database work on a thread of their own that keeps its
connection (``games.kept.KeptThreads``): no new PostgreSQL connection every second, a cut one
replaced, and none left open once the loop stops; and so do a socket's refused taps."""

import asyncio
import time

import pytest
from django.db import Error, connection
from django.db.backends.signals import connection_created

from games.kept import KeptThreads

pytestmark = pytest.mark.django_db(transaction=True)


def backend():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def alive(pid) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
        return cursor.fetchone()[0] == 1


def test_a_loop_keeps_its_connection_takes_a_new_one_once_cut_and_closes_it_when_it_stops():
    thread = KeptThreads("test-loop")
    call = lambda fn: asyncio.run(thread.run(fn))  # noqa: E731 - each call as a loop's wake-up
    first = call(backend)
    assert [call(backend) for _ in range(3)] == [first] * 3

    # The database cuts the connection (a restart, a failover): that call fails, the loop's
    # next one works on a fresh connection.
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [first])
    with pytest.raises(Error):
        call(backend)
    second = call(backend)
    assert second != first and alive(second)

    thread.close()
    deadline = time.monotonic() + 5
    while alive(second):
        assert time.monotonic() < deadline, "the stopped loop's connection is still open"
        time.sleep(0.05)


def test_a_sockets_refused_taps_do_not_open_a_connection_each():
    """A device sending frames the server refuses (stale, or no move at all) costs PostgreSQL no
    new backend per frame: the refusals are counted on threads that keep their connections."""
    from classroom import services
    from tests.factories import join_students, make_session

    session = make_session(seats_per_table=2, fill_with_bots=False, turn_timer=False)
    (participant, _token), _ = join_students(session, 2)
    services.start(session=session)
    seat = participant.seats.get().number
    opened = []
    connection_created.connect(lambda **kwargs: opened.append(kwargs["connection"]), weak=False, dispatch_uid="count")

    async def tap_badly(times):
        for n in range(times):
            # a move chosen on a view the table has long left
            frame = {"type": "act", "id": f"stale-tap-{n}", "seat": seat, "version": 50, "action": {"type": "wait"}}
            answer, batch = await services.aact(participant.pk, frame)
            assert answer["code"] == "stale_view" and batch == []

    try:
        asyncio.run(tap_badly(20))
    finally:
        connection_created.disconnect(dispatch_uid="count")
    assert len(opened) <= 2  # at most one for each of the follow-ups' two threads
