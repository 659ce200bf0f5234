"""The server's background loops do their database work on a thread of their own that keeps its
connection (``games.loops.LoopThread``): no new PostgreSQL connection every second, a cut one
replaced, and none left open once the loop stops."""

import asyncio
import time

import pytest
from django.db import Error, connection

from games.loops import LoopThread

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
    thread = LoopThread("test-loop")
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
