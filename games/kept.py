"""Threads for a server's own database work whose connections last from one call to the next:
the background loops' and a socket's refused taps'."""

import asyncio
from concurrent.futures import ThreadPoolExecutor

from django.db import connections
from django.utils import translation


class KeptThreads:
    """One thread (or ``workers``) for a background loop's database work, whose connection lasts
    from one call to the next. Channels' ``database_sync_to_async`` closes the connection around
    every call (``CONN_MAX_AGE`` is 0 when served), so a loop that wakes every second opened a
    PostgreSQL connection every second in every server process, all day, idle or not; and it ran
    in the process's one thread for thread-sensitive calls, behind the sockets' own. A socket's
    refused taps do their writes here too (``games.taps``), or each would cost a connection.

    A call that fails closes the connection, so the next starts on a fresh one (the database may
    have restarted). ``close`` closes it once the last call is done, when the loop stops."""

    def __init__(self, name: str, workers: int = 1):
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)

    async def run(self, fn, *args):
        """fn(*args) on one of the threads, in the caller's active language (a refused tap's
        words are the device's). asgiref's ``database_sync_to_async`` carries it over; a plain
        executor does not, since Django keeps it in an asgiref ``Local`` bound to its thread."""
        language = translation.get_language()
        return await asyncio.get_running_loop().run_in_executor(self._executor, _kept, language, fn, args)

    def close(self) -> None:
        self._executor.submit(connections.close_all)
        self._executor.shutdown(wait=False)


def _kept(language, fn, args):
    try:
        with translation.override(language):
            return fn(*args)
    except Exception:
        connections.close_all()
        raise
