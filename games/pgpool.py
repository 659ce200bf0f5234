"""Async PostgreSQL connections for the one path that runs on every tap: a socket's ``act``.

Django's ORM is synchronous, so every ORM call from a socket hops to a worker thread and back;
at classroom scale that hop and the ORM's query building cost more than the move itself
(docs/decisions/0001-async-psycopg-taps.md). ``connection()`` lends a
psycopg ``AsyncConnection`` in autocommit mode from a small pool kept per event loop. Anything
that is not PostgreSQL (the embedded SQLite mode) uses the ORM path instead: see ``available``.

A connection that fails, or a tap that waits longer than ``TIMEOUT_SECONDS`` for the database,
raises Django's ``OperationalError`` like the ORM path, so callers handle one kind of outage.

Not ``psycopg_pool.AsyncConnectionPool`` (3.3.3, tried as one pool per event loop, the same 8
connections, lent with ``getconn``/``putconn``): 40 tasks sharing 8 connections on a loop kept
busy by 20 others, as a server's loop is by its sockets, waited p50 104–159 ms for two
statements with it against 54–84 ms with this pool, and took 3.9–5.7 s for the work this pool
does in 2.3–3.4 s (four pairs, interleaved). A tap waiting for a connection there gets one only
after its timed wait, a task of its own, has had a turn of the loop too. Uncontended, lending
costs 14 µs of process time against 9 µs (docs/decisions/0001-async-psycopg-taps.md).
"""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack, asynccontextmanager

import orjson
import psycopg
from django.conf import settings
from django.db import OperationalError, connections
from psycopg.types.json import set_json_loads

POOL_SIZE = 8
TIMEOUT_SECONDS = 4.0

_pools: dict[asyncio.AbstractEventLoop, _Pool] = {}


def available() -> bool:
    # The settings, not ``connections["default"]``: on an event loop that builds a new database
    # wrapper for every task that asks (every tap of a socket).
    return settings.LIVE_ASYNC_DB and connections.settings["default"]["ENGINE"].endswith("postgresql")


class _Pool:
    def __init__(self, conninfo: str, size: int):
        self.conninfo = conninfo
        self.idle: list[psycopg.AsyncConnection] = []
        self.slots = asyncio.Semaphore(size)

    async def _take(self) -> psycopg.AsyncConnection:
        while self.idle:
            conn = self.idle.pop()
            if not conn.closed:
                return conn
        conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        set_json_loads(orjson.loads, conn)  # a game's state arrives as JSON on every tap
        return conn

    def close(self):
        while self.idle:
            self.idle.pop().pgconn.finish()


def _conninfo() -> str:
    params = connections["default"].settings_dict
    return psycopg.conninfo.make_conninfo(
        dbname=params["NAME"],
        user=params.get("USER") or None,
        password=params.get("PASSWORD") or None,
        host=params.get("HOST") or None,
        port=str(params["PORT"]) if params.get("PORT") else None,
        connect_timeout=3,
        application_name="stormwise-live",
    )


@asynccontextmanager
async def connection():
    """An autocommit connection of this event loop's pool; open a transaction with
    ``async with conn.transaction()``."""
    loop = asyncio.get_running_loop()
    pool = _pools.get(loop)
    if pool is None:
        pool = _pools[loop] = _Pool(_conninfo(), POOL_SIZE)
    try:
        async with asyncio.timeout(TIMEOUT_SECONDS):
            async with pool.slots:
                conn = await pool._take()
                try:
                    yield conn
                except (psycopg.Error, asyncio.CancelledError, TimeoutError):
                    await conn.close()  # a broken or interrupted connection is never lent again
                    raise
                except BaseException:
                    if not conn.closed:
                        pool.idle.append(conn)  # a refusal rolled its transaction back cleanly
                    raise
                else:
                    pool.idle.append(conn)
    except (psycopg.OperationalError, psycopg.InterfaceError, TimeoutError) as error:
        raise OperationalError(str(error) or "database timed out") from error


async def warm() -> None:
    """Open this event loop's pool before the first tap: each new connection costs PostgreSQL a
    backend, and a class's first taps after a restart would otherwise each wait for one
    (docs/decisions/0001-async-psycopg-taps.md). Nothing is lost if the database is away now;
    taps open connections as they need them."""
    if not available():
        return
    try:
        async with asyncio.timeout(TIMEOUT_SECONDS), AsyncExitStack() as lent:
            for _ in range(POOL_SIZE):
                conn = await lent.enter_async_context(connection())
                await conn.execute("SELECT 1")
    except (OperationalError, TimeoutError):
        pass


def close_all() -> None:
    """Close every idle pooled connection (tests call this between tests; event loops come and go)."""
    for pool in _pools.values():
        pool.close()
    _pools.clear()
