"""Async PostgreSQL connections for the one path that runs on every tap: a socket's ``act``.

Django's ORM is synchronous, so every ORM call from a socket hops to a worker thread and back;
at classroom scale that hop and the ORM's query building cost more than the move itself
(docs/decisions/0001-async-psycopg-taps.md). ``connection()`` lends a psycopg
``AsyncConnection`` in autocommit mode from a ``psycopg_pool.AsyncConnectionPool``. Anything
that is not PostgreSQL (the embedded SQLite mode) uses the ORM path instead: see ``available``.

A pool's locks and workers belong to the event loop that opened it, so there is one pool per
loop (a server process has one; tests and their in-process servers start and end many). A
pool opens on its loop at the first ``connection()`` and closes on its loop when the loop
shuts its tasks down; ``close_all`` closes those whose loop stopped without doing so.

A connection that fails, or a tap that waits longer than ``TIMEOUT_SECONDS`` for the database,
raises Django's ``OperationalError`` like the ORM path, so callers handle one kind of outage.
While PostgreSQL is away a tap waits that long for the pool to reconnect before it is refused.
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

import orjson
import psycopg
from django.conf import settings
from django.db import OperationalError, connections
from psycopg.types.json import set_json_loads
from psycopg_pool import AsyncConnectionPool, PoolTimeout

POOL_SIZE = 8
TIMEOUT_SECONDS = 4.0

_pools: dict[asyncio.AbstractEventLoop, tuple[AsyncConnectionPool, asyncio.Task]] = {}


def available() -> bool:
    # The settings, not ``connections["default"]``: on an event loop that builds a new database
    # wrapper for every task that asks (every tap of a socket).
    return settings.LIVE_ASYNC_DB and connections.settings["default"]["ENGINE"].endswith("postgresql")


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


async def _configure(conn: psycopg.AsyncConnection) -> None:
    set_json_loads(orjson.loads, conn)  # a game's state arrives as JSON on every tap


async def _loop_pool() -> AsyncConnectionPool:
    """This event loop's pool, opened on it the first time it is asked for."""
    loop = asyncio.get_running_loop()
    held = _pools.get(loop)
    if held is None:
        pool = AsyncConnectionPool(
            _conninfo(),
            kwargs={"autocommit": True},
            configure=_configure,
            min_size=0,  # connections open as taps need them; ``warm`` fills a serving process's
            max_size=POOL_SIZE,
            timeout=TIMEOUT_SECONDS,
            # A connection that cannot be made is tried again within this long, then on demand:
            # the pool's back-off would otherwise keep a class waiting long after an outage.
            reconnect_timeout=TIMEOUT_SECONDS,
            name="stormwise-live",
            open=False,
        )
        await pool.open()
        if loop in _pools:  # another task opened one meanwhile
            await pool.close()
        else:
            _pools[loop] = (pool, asyncio.create_task(_close_with_loop(loop, pool)))
        held = _pools[loop]
    return held[0]


async def _close_with_loop(loop: asyncio.AbstractEventLoop, pool: AsyncConnectionPool) -> None:
    """Wait until the loop cancels its tasks at its end (``asyncio.run``, uvicorn), then close
    ``pool`` there, on the loop it belongs to."""
    try:
        await loop.create_future()
    finally:
        if _pools.get(loop, (None,))[0] is pool:
            del _pools[loop]
        await pool.close()


@asynccontextmanager
async def connection():
    """An autocommit connection of this event loop's pool; open a transaction with
    ``async with conn.transaction()``."""
    try:
        async with asyncio.timeout(TIMEOUT_SECONDS):
            pool = await _loop_pool()
            # Not ``pool.connection()``: its commit on the way out has nothing to do in autocommit.
            conn = await pool.getconn()
            try:
                yield conn
            finally:
                await pool.putconn(conn)
    except (psycopg.OperationalError, psycopg.InterfaceError, TimeoutError) as error:
        raise OperationalError(str(error) or "database timed out") from error


async def warm() -> None:
    """Open this event loop's pool before the first tap and keep ``POOL_SIZE`` connections in
    it: each new connection costs PostgreSQL a backend, and a class's first taps after a restart
    would otherwise each wait for one (docs/decisions/0001-async-psycopg-taps.md). Nothing is
    lost if the database is away now; taps open connections as they need them."""
    if not available():
        return
    pool = await _loop_pool()
    await pool.resize(min_size=POOL_SIZE, max_size=POOL_SIZE)
    try:
        await pool.wait(timeout=TIMEOUT_SECONDS)
    except PoolTimeout:  # ``wait`` closed the pool: the next tap opens a new one
        _pools.pop(asyncio.get_running_loop(), None)


def close_all() -> None:
    """Close the pools whose event loop stopped without ending its tasks (tests call this
    between tests, before the test database is dropped)."""
    for loop, (pool, _keeper) in list(_pools.items()):
        if loop.is_closed():
            continue
        if loop.is_running():  # on another thread
            asyncio.run_coroutine_threadsafe(pool.close(), loop).result(timeout=2 * TIMEOUT_SECONDS)
        else:
            loop.run_until_complete(pool.close())
    _pools.clear()
