"""One way to start background work, whatever the task mode.

With real services a task goes to the Redis broker after the transaction commits. Sending it
never holds the request for long: it waits at most ``SEND_SECONDS`` for a broker connection
from the pool and for the broker to take the message (the broker's time-outs are in
config.settings). A task the broker did not take is kept here and sent again by the sweep
(``send_unsent``, every few seconds in each server process: ``scoring.loops``).

In embedded mode it runs on a single background thread of this process, also after commit, so
a request or a socket never waits for it (Celery's eager mode would run it in the caller's thread).
"""

import logging
import threading
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections, transaction

logger = logging.getLogger(__name__)

SEND_SECONDS = 3.0

_executor = None
_unsent: list[tuple] = []  # (task, args, kwargs) the broker did not take, oldest first
_unsent_lock = threading.Lock()


def _run_in_thread(task, args, kwargs):
    close_old_connections()
    try:
        task.apply(args=args, kwargs=kwargs)
    finally:
        close_old_connections()


def _send(task, args, kwargs) -> bool:
    """Hand the task to the broker within ``SEND_SECONDS``; False (and kept for the sweep) if not."""
    try:
        with task.app.producer_pool.acquire(block=True, timeout=SEND_SECONDS) as producer:
            task.apply_async(args=args, kwargs=kwargs, producer=producer, retry=False)
        return True
    except Exception as error:  # the broker is out of reach or every connection is busy
        logger.warning("Could not queue %s%r (%s); the sweep tries again.", task.name, args, error)
        with _unsent_lock:
            _unsent.append((task, args, kwargs))
        return False


def enqueue(task, *args, **kwargs):
    """Queue ``task(*args, **kwargs)`` once the current transaction (if any) commits."""
    global _executor
    if settings.TASK_MODE == "thread":
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stormwise-task")
        transaction.on_commit(lambda: _executor.submit(_run_in_thread, task, args, kwargs))
    else:
        transaction.on_commit(lambda: _send(task, args, kwargs))


def unsent() -> int:
    """How many tasks are waiting to be sent again."""
    with _unsent_lock:
        return len(_unsent)


def send_unsent() -> int:
    """Send again the tasks the broker did not take (oldest first); stops at the first that
    fails again. Returns how many were sent."""
    sent = 0
    while True:
        with _unsent_lock:
            if not _unsent:
                return sent
            task, args, kwargs = _unsent.pop(0)
        if not _send(task, args, kwargs):
            with _unsent_lock:  # _send put it at the end: back to the front, in order
                _unsent.insert(0, _unsent.pop())
            return sent
        sent += 1
