"""/healthz: ok or not for everyone; for staff, which database, channel layer and task mode are in
use and whether each answers."""
import asyncio
import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import JsonResponse


def _timed(check):
    started = time.perf_counter()
    try:
        detail = check()
        ok = True
    except Exception as error:  # a health page reports failures instead of raising them
        detail, ok = f"{type(error).__name__}: {error}", False
    return {"ok": ok, "ms": round((time.perf_counter() - started) * 1000, 1), "detail": detail}


def _check_database():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return connection.vendor


def _check_channel_layer():
    layer = get_channel_layer()

    async def round_trip():
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "health.ping"})
        return await asyncio.wait_for(layer.receive(channel), timeout=2)

    async_to_sync(round_trip)()
    return type(layer).__name__


def _check_tasks():
    if settings.TASK_MODE == "thread":
        return "in-process background thread"
    from config.celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)
    workers = app.control.ping(timeout=0.5) or []
    return f"celery broker reachable, {len(workers)} worker(s) answered"


def healthz(request):
    report = {
        "database": {"engine": settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1],
                     **_timed(_check_database)},
        "channel_layer": {"backend": settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1],
                          **_timed(_check_channel_layer)},
        "tasks": {"mode": settings.TASK_MODE, **_timed(_check_tasks)},
    }
    healthy = all(part["ok"] for part in report.values())
    status = 200 if healthy else 503
    # Anyone may ask whether the server is well (a load balancer, a teacher); which services it
    # runs and how they fail (addresses, errors) is for staff only.
    if not (request.user.is_authenticated and request.user.is_staff):
        return JsonResponse({"ok": healthy}, status=status)
    return JsonResponse({"ok": healthy, **report}, status=status)
