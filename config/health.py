"""/healthz: ok or not for everyone; for staff, which database, channel layer and task mode are in
use and whether each answers.

Cheap and bounded, because anyone may ask as often as they like:
- the view is async, so waiting for an answer holds no thread, and the checks run on a thread
  of their own, never on the one Django's sync views (a teacher's "End now") share;
- one round of checks at a time per process: callers meanwhile wait for that round, at most
  ``ROUND_SECONDS``, then hear "not ok" rather than wait on;
- an anonymous caller gets the last round's answer while it is younger than ``FRESH_SECONDS``,
  so a burst of requests costs one round; up to ``STALE_SECONDS`` old it still gets it at once
  while a new round starts beside it (each process runs a first round as it starts: ``warm``);
- the task check opens a broker connection of its own with time-outs, never one from the pool
  that queuing reports uses (``scoring.queue``);
- an anonymous ``GET /healthz`` (no session cookie) with a held answer is answered by
  ``AnswerAnonymous`` before Django, so 40 of them a second cost the class no thread hops, no
  middleware and no session look-up (``benchmarks.faults --only health_burst``).
"""

import asyncio
import concurrent.futures
import threading
import time

from django.conf import settings
from django.db import close_old_connections, connection
from django.http import JsonResponse
from django.http.request import split_domain_port, validate_host

ROUND_SECONDS = 3.0
FRESH_SECONDS = 5.0
STALE_SECONDS = 30.0
BROKER_TIMEOUT_SECONDS = 2.0

_checks = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="stormwise-health")
_lock = threading.Lock()
_round: concurrent.futures.Future | None = None
_last: tuple[float, dict] | None = None  # (monotonic time, report) of the last finished round


def _timed(check):
    started = time.perf_counter()
    try:
        detail = check()
        ok = True
    except Exception as error:  # a health page reports failures instead of raising them
        detail, ok = f"{type(error).__name__}: {error}", False
    return {"ok": ok, "ms": round((time.perf_counter() - started) * 1000, 1), "detail": detail}


def _check_database():
    close_old_connections()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return connection.vendor


def _check_tasks():
    if settings.TASK_MODE == "thread":
        return "in-process background thread"
    from kombu import Connection

    from config.celery import app

    transport = {"socket_timeout": BROKER_TIMEOUT_SECONDS, "socket_connect_timeout": BROKER_TIMEOUT_SECONDS}
    with Connection(
        settings.CELERY_BROKER_URL, connect_timeout=BROKER_TIMEOUT_SECONDS, transport_options=transport
    ) as conn:
        conn.connect()
        workers = app.control.ping(timeout=0.5, connection=conn) or []
    return f"celery broker reachable, {len(workers)} worker(s) answered"


def _run_round():
    """The database and task checks, on the health thread."""
    return {"database": _timed(_check_database), "tasks": _timed(_check_tasks)}


def _current_round() -> concurrent.futures.Future:
    global _round
    with _lock:
        if _round is None or _round.done():
            _round = _checks.submit(_run_round)
        return _round


async def _check_channel_layer():
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    channel = await layer.new_channel()
    try:
        await layer.send(channel, {"type": "health.ping"})
        await layer.receive(channel)
    finally:
        await layer.discard_channel(channel)  # one round's channel, not the process's for good
    return type(layer).__name__


async def _timed_async(check, seconds):
    started = time.perf_counter()
    try:
        detail, ok = await asyncio.wait_for(check(), seconds), True
    except Exception as error:
        detail, ok = f"{type(error).__name__}: {error}", False
    return {"ok": ok, "ms": round((time.perf_counter() - started) * 1000, 1), "detail": detail}


def _no_answer():
    return {"ok": False, "ms": ROUND_SECONDS * 1000, "detail": f"no answer within {ROUND_SECONDS:g} s"}


async def _fresh_report() -> dict:
    global _last
    waiting = asyncio.wrap_future(_current_round())
    layer = await _timed_async(_check_channel_layer, ROUND_SECONDS)
    try:
        parts = await asyncio.wait_for(asyncio.shield(waiting), ROUND_SECONDS)
    except TimeoutError:
        parts = {"database": _no_answer(), "tasks": _no_answer()}
    report = {
        "database": {"engine": settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1], **parts["database"]},
        "channel_layer": {"backend": settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1], **layer},
        "tasks": {"mode": settings.TASK_MODE, **parts["tasks"]},
    }
    _last = (time.monotonic(), report)
    return report


_refreshing: set = set()  # the background rounds started for anonymous callers (kept until done)


def _refresh_beside():
    if not _refreshing:
        task = asyncio.ensure_future(_fresh_report())
        _refreshing.add(task)
        task.add_done_callback(_refreshing.discard)


async def warm():
    """The process's first round, started as it starts serving (not waited for)."""
    _refresh_beside()


def _held_answer(refresh: bool):
    """The last round's ``(healthy, report)`` while it may be given to anonymous callers, starting
    a new round beside when it is no longer fresh; None when a caller must wait for a round."""
    held = _last
    if held is None:
        return None
    age = time.monotonic() - held[0]
    if age >= STALE_SECONDS:
        return None
    if refresh and age >= FRESH_SECONDS:
        _refresh_beside()
    return all(part["ok"] for part in held[1].values()), held[1]


class AnswerAnonymous:
    """ASGI middleware: an anonymous ``GET``/``HEAD /healthz`` for an allowed host, while a held
    answer is young enough, gets ``{"ok": …}`` here; everything else goes on to ``app``."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if not (scope["type"] == "http" and scope["path"] == "/healthz" and scope["method"] in ("GET", "HEAD")):
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers", ()))
        host, _ = split_domain_port(headers.get(b"host", b"").decode("latin-1"))
        session = settings.SESSION_COOKIE_NAME.encode() + b"="
        held = None
        if session not in headers.get(b"cookie", b"") and validate_host(host, settings.ALLOWED_HOSTS):
            held = _held_answer(refresh=True)
        if held is None:
            return await self.app(scope, receive, send)
        healthy = held[0]
        body = b'{"ok": true}' if healthy else b'{"ok": false}'
        await send(
            {
                "type": "http.response.start",
                "status": 200 if healthy else 503,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"cache-control", b"no-store"),
                    (b"x-content-type-options", b"nosniff"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})


async def healthz(request):
    user = await request.auser()
    staff = user.is_authenticated and user.is_staff
    # Anyone may ask whether the server is well (a load balancer, a teacher); which services it
    # runs and how they fail (addresses, errors) is for staff only.
    held = None if staff else _held_answer(refresh=True)
    if held is not None:
        healthy, report = held
    else:
        report = await _fresh_report()
        healthy = all(part["ok"] for part in report.values())
    status = 200 if healthy else 503
    if not staff:
        return JsonResponse({"ok": healthy}, status=status)
    return JsonResponse({"ok": healthy, **report}, status=status)
