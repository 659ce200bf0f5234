"""No socket stays open and silent on a server that has lost Redis.

Redis's channel layer carries every view and dashboard snapshot from the server that applied a
move to the servers holding the table's other sockets. When one server cannot reach Redis (a
dead route or a firewall: packets vanish and nothing errors), its sockets would stay open and
answer pings, yet never show another move. So each server process pings Redis every second;
after ``GRACE_SECONDS`` without an answer it closes every socket it holds (1012, "service
restart": tablets reconnect by themselves) and answers new ones 503 until Redis answers again,
so the proxy sends them to a server that can reach it (README, "Running a district"). A Redis
restart shorter than the grace keeps the sockets (the channel layer subscribes again by itself,
``classroom.fast.redis_layer``).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref

from django.conf import settings

logger = logging.getLogger(__name__)

PING_SECONDS = 1.0
TIMEOUT_SECONDS = 1.5
GRACE_SECONDS = 3.0
CLOSE_LAYER_LOST = 1012

_open: weakref.WeakSet = weakref.WeakSet()
_lost_since: float | None = None  # monotonic time of the first unanswered ping, None while Redis answers


def track(consumer) -> None:
    """Count a socket's consumer among those to close if Redis is lost."""
    _open.add(consumer)


def forget(consumer) -> None:
    _open.discard(consumer)


def cut_off() -> bool:
    """Whether this process has gone ``GRACE_SECONDS`` without reaching Redis."""
    return _lost_since is not None and time.monotonic() - _lost_since >= GRACE_SECONDS


async def watch_layer_forever():
    """Ping Redis every second; past the grace, close this process's sockets (see the module)."""
    global _lost_since
    if not settings.REDIS_URL:
        return  # the in-memory layer of the embedded server cannot be cut off
    import redis.asyncio as aioredis

    client = None
    while True:
        asked_at = time.monotonic()
        try:
            client = client or aioredis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=TIMEOUT_SECONDS, socket_connect_timeout=TIMEOUT_SECONDS
            )
            await asyncio.wait_for(client.ping(), TIMEOUT_SECONDS)
            if _lost_since is not None and cut_off():
                logger.warning("Redis answers again: this server takes sockets again.")
            _lost_since = None
        except asyncio.CancelledError:
            raise
        except Exception:  # every way of not answering counts the same: refused, timed out, reset
            client = None  # a fresh connection next time; the old one may be stuck mid-reply
            if _lost_since is None:
                _lost_since = asked_at  # no answer since this ping was sent
            if cut_off():
                await _close_all()
        await asyncio.sleep(PING_SECONDS)


async def _close_all():
    consumers = list(_open)
    if consumers:
        logger.warning("Redis has not answered for %.0f s: closing %d socket(s).", GRACE_SECONDS, len(consumers))
    for consumer in consumers:
        forget(consumer)
        try:
            await asyncio.wait_for(consumer.close(code=CLOSE_LAYER_LOST), 1.0)
        except Exception:  # already closed by the tablet; nothing left to close
            logger.debug("Socket already closed", exc_info=True)


class RefuseWhileCutOff:
    """ASGI middleware: while this process cannot reach Redis, answer a socket's handshake 503
    (or close it where the server cannot send an HTTP answer), so the proxy tries another host."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket" or not cut_off():
            return await self.app(scope, receive, send)
        await receive()  # websocket.connect
        if "websocket.http.response" in scope.get("extensions", {}):
            await send(
                {
                    "type": "websocket.http.response.start",
                    "status": 503,
                    "headers": [(b"content-type", b"text/plain"), (b"retry-after", b"2")],
                }
            )
            await send({"type": "websocket.http.response.body", "body": b"This server cannot reach Redis.\n"})
        else:
            await send({"type": "websocket.close", "code": 1013})
