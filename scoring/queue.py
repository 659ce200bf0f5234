"""One way to start background work, whatever the task mode.

With real services a task goes to the Redis broker after the transaction commits. In embedded
mode it runs on a single background thread of this process, also after commit, so a request or
a socket never waits for it (Celery's eager mode would run it in the caller's thread).
"""
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections, transaction

_executor = None


def _run_in_thread(task, args, kwargs):
    close_old_connections()
    try:
        task.apply(args=args, kwargs=kwargs)
    finally:
        close_old_connections()


def enqueue(task, *args, **kwargs):
    """Queue ``task(*args, **kwargs)`` once the current transaction (if any) commits."""
    global _executor
    if settings.TASK_MODE == "thread":
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stormwise-task")
        transaction.on_commit(lambda: _executor.submit(_run_in_thread, task, args, kwargs))
    else:
        transaction.on_commit(lambda: task.apply_async(args=args, kwargs=kwargs))
