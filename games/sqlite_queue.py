"""SQLite's writers queue in the process, not in SQLite's busy handler.

Replaces: SQLite's own wait for its one write lock. A ``BEGIN IMMEDIATE`` that finds the lock
taken sleeps in SQLite's busy handler, in steps that grow to 100 ms, and retries; with a class's
taps arriving on several worker threads of the embedded server, a tap waited up to hundreds of
milliseconds for a lock freed after one. Here the moves' saves take a lock of the process first,
handed over at once when the save before finishes. Paid for by: the embedded server's act p99
(``python -m benchmarks.live --embedded``; py-spy showed half of the tap threads' samples in
``BEGIN IMMEDIATE``; docs/decisions/0003-sqlite-write-queue.md).

Only the embedded server uses it (one process, SQLite); PostgreSQL's writers need no queue.
Inside a transaction already open the save takes no lock: the transaction holds SQLite's, and
waiting for this one there could leave two threads waiting for each other.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager, nullcontext

from django.db import connection

_writer = threading.Lock()


def writing():
    """A context to save a move in: the process's writer lock on SQLite outside a transaction."""
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        return nullcontext()
    return _held()


@contextmanager
def _held():
    with _writer:
        yield
