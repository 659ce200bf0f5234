"""A server process's start: the socket path's database pool is open before the first tap, and a
database that is away then does not keep the process from serving."""

import asyncio
import time

import pytest
from django.db import connections

from config.lifespan import LifespanApp
from games import pgpool


async def _start_and_stop(app):
    """Send the ASGI lifespan events a server sends; return what the app answered to each."""
    inbox, answers = asyncio.Queue(), []
    for event in ("lifespan.startup", "lifespan.shutdown"):
        inbox.put_nowait({"type": event})

    async def send(message):
        answers.append(message["type"])

    await asyncio.wait_for(app({"type": "lifespan"}, inbox.get, send), timeout=30)
    return answers


@pytest.mark.django_db(transaction=True)
def test_a_starting_process_opens_its_database_pool_before_the_first_tap():
    async def start():
        answers = await _start_and_stop(LifespanApp(None, warm=[pgpool.warm]))
        pool = pgpool._pools[asyncio.get_running_loop()]
        return answers, sum(not conn.closed for conn in pool.idle)

    answers, open_connections = asyncio.run(start())
    assert answers == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    assert open_connections == pgpool.POOL_SIZE


@pytest.mark.django_db(transaction=True)
def test_a_process_still_starts_when_the_database_is_away():
    params = connections["default"].settings_dict
    port = params["PORT"]
    params["PORT"] = "1"  # nothing listens there: every connection is refused
    try:
        started = time.monotonic()
        answers = asyncio.run(_start_and_stop(LifespanApp(None, warm=[pgpool.warm])))
    finally:
        params["PORT"] = port
    assert answers == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    assert time.monotonic() - started < pgpool.TIMEOUT_SECONDS + 1


def test_a_serving_process_tunes_its_collector_and_a_test_server_does_not():
    """The production app's start freezes what is loaded and raises the collector's first
    threshold (docs/decisions/0008-collector.md); the test runner keeps Python's defaults."""
    import gc
    import os
    import subprocess
    import sys

    from classroom.fast import collector

    script = "\n".join(
        [
            "import asyncio, gc, django",
            "django.setup()",
            "from config.asgi import application",
            "inbox = asyncio.Queue()",
            "for event in ('lifespan.startup', 'lifespan.shutdown'): inbox.put_nowait({'type': event})",
            "async def send(message): pass",
            "asyncio.run(application({'type': 'lifespan'}, inbox.get, send))",
            "print(gc.get_threshold()[0], gc.get_freeze_count() > 0)",
        ]
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.test_settings"},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [str(collector.THRESHOLDS[0]), "True"]
    assert gc.get_threshold()[0] != collector.THRESHOLDS[0]
