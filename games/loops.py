"""The deadline loop: bots' paced steps and idle seats' turn timers, one loop per server process;
and ``LoopThread``, where every background loop of a server does its database work."""

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

from django.db import connections

from games.services import anything_due, sweep_due

logger = logging.getLogger(__name__)
SWEEP_SECONDS = 0.25


class LoopThread:
    """One thread for a background loop's database work, whose connection lasts from one call
    to the next. Channels' ``database_sync_to_async`` closes the connection around every call
    (``CONN_MAX_AGE`` is 0 when served), so a loop that wakes every second opened a PostgreSQL
    connection every second in every server process, all day, idle or not; and it ran in the
    process's one thread for thread-sensitive calls, behind the sockets' own.

    A call that fails closes the connection, so the next starts on a fresh one (the database may
    have restarted). ``close`` closes it once the last call is done, when the loop stops."""

    def __init__(self, name: str):
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)

    async def run(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self._executor, _kept, fn, args)

    def close(self) -> None:
        self._executor.submit(connections.close_all)
        self._executor.shutdown(wait=False)


def _kept(fn, args):
    try:
        return fn(*args)
    except Exception:
        connections.close_all()
        raise


async def sweep_forever():
    """Play due deadlines forever; several processes share the work through SKIP LOCKED."""
    thread = LoopThread("deadline-sweep")
    try:
        while True:
            try:
                if await anything_due():
                    while await thread.run(sweep_due):
                        pass
            except asyncio.CancelledError:
                raise
            except Exception:  # a database hiccup must not stop every bot in the building
                logger.exception("Deadline sweep failed; retrying.")
                await asyncio.sleep(1)
            await asyncio.sleep(SWEEP_SECONDS)
    finally:
        thread.close()
