"""The HTTP fallback's long poll: a tablet whose network blocks WebSockets asks for its screen
with the stamp of the one it shows, and is answered as soon as the stamp changes, or after
``LONG_POLL_SECONDS`` with the same screen.

A waiting poll listens where the device's socket would: the channel layer's session group
(lobby and roster changes) and its table's game group (every move), so a tablemate's move
answers it at once, in this process or from another. It reads the database only in short calls
before and after waiting, each giving its connection back when done (as a request's end does):
a class of waiting polls holds no database connection and runs no read loop. Each poll takes a
token from the device's frame bucket, as a socket frame does, and writes the device's
``last_seen_at`` once.

A device (the token its cookie holds) keeps at most ``POLLS_PER_DEVICE`` polls open in one
server process, as it keeps at most a few sockets; a further one is answered 429 at once by
``OpenPolls``, in front of Django, and changes nothing. Measured by ``python -m
benchmarks.faults --only poll_flood``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connections
from django.http.cookie import parse_cookie

from classroom import live, ratelimit, selectors, services
from classroom.consumers import frame_limit, token_cookie
from classroom.models import Session
from classroom.responses import InFlight, answer
from games import broadcast
from games.refusals import Refused

LONG_POLL_SECONDS = 20
# A tab's poll and the one replacing it while the first is cut off (a reload, a socket that came
# back): two; a script's hundred more are refused.
POLLS_PER_DEVICE = 2
RETRY_AFTER_SECONDS = 1
LAYER_AWAY_SECONDS = 2  # with the channel layer away, a poll answers after this long

logger = logging.getLogger(__name__)


class TooFast(Exception):
    """The device's frame bucket is empty."""


class UnknownDevice(Exception):
    """No participant of an open session has this token."""


POLL_PATH = re.compile(r"/play/(\d+)/poll")
_open = InFlight(POLLS_PER_DEVICE)  # by (session, token)


class OpenPolls:
    """ASGI middleware: counts each device's open long polls in this process and answers one
    past ``POLLS_PER_DEVICE`` with 429 and ``Retry-After`` before Django sees it, so a refusal
    costs no thread, no middleware and no database. Runs on the event loop only, so the check
    and the count cannot be split by another poll."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        match = POLL_PATH.fullmatch(scope.get("path", "")) if scope["type"] == "http" else None
        token = _cookie(scope, token_cookie(int(match[1]))) if match else None
        if not token:  # not a poll, or one the view refuses as no device's
            return await self.app(scope, receive, send)
        key = (int(match[1]), token)
        if _open.full(key):
            return await _too_many(send)
        with _open.held(key):
            await self.app(scope, receive, send)


def _cookie(scope, name: str) -> str | None:
    for header, value in scope.get("headers", ()):
        if header == b"cookie":
            return parse_cookie(value.decode("latin-1")).get(name)
    return None


async def _too_many(send):
    body = json.dumps(Refused("too_fast").as_message()).encode()
    headers = [(b"retry-after", str(RETRY_AFTER_SECONDS).encode()), (b"cache-control", b"no-store")]
    await answer(send, Refused("too_fast").http_status, body, b"application/json", headers)


def _read(session_id: int, token: str | None, first: bool):
    """The device's screen: on the poll's first read, after taking its token and writing its
    ``last_seen_at``; later reads only read."""
    session = Session.objects.filter(pk=session_id).first()
    participant = (
        services.participant_for_token(session, token) if session and not services.long_over(session) else None
    )
    if participant is None:
        raise UnknownDevice
    if first:
        if not ratelimit.hit(*frame_limit(participant.pk)):
            raise TooFast
        services.touch(participant=participant)
    return selectors.device_state(participant)


def _read_and_let_go(session_id: int, token: str | None, first: bool):
    """``_read``, then the request thread's database connection closed, whatever
    ``CONN_MAX_AGE`` says, so that none is held while the poll waits (a server's connections are
    what a district runs out of). SQLite's, a file this process holds open, is kept; so is a
    connection inside a transaction (a test's)."""
    try:
        return _read(session_id, token, first)
    finally:
        for conn in connections.all(initialized_only=True):
            if conn.vendor != "sqlite" and not conn.in_atomic_block:
                conn.close()


_read_briefly = sync_to_async(_read_and_let_go)


async def poll(session_id: int, token: str | None, since: str) -> dict:
    """The device's screen once its stamp differs from ``since``, or after ``LONG_POLL_SECONDS``.
    Raises ``UnknownDevice`` or ``TooFast``."""
    if not token:
        raise UnknownDevice
    state = await _read_briefly(session_id, token, True)
    if state["stamp"] != since:
        return state
    layer = get_channel_layer()
    groups = [live.session_group(session_id)]
    if state["lobby"].get("game"):
        groups.append(broadcast.group_name(state["lobby"]["game"]))
    deadline = asyncio.get_running_loop().time() + LONG_POLL_SECONDS
    channel, listening = None, []
    try:
        try:
            channel = await layer.new_channel()
            for group in groups:
                await layer.group_add(group, channel)
                listening.append(group)
        except Exception as error:  # noqa: BLE001 - the layer's connection raises its own kinds
            # the layer is away (Redis restarting): answer a little later, as a tick would
            logger.warning("A long poll cannot listen for changes: %r", error)
            await asyncio.sleep(LAYER_AWAY_SECONDS)
            return await _read_briefly(session_id, token, False)
        # a change may have come between the first read and listening: read once more
        state = await _read_briefly(session_id, token, False)
        while state["stamp"] == since:
            try:
                async with asyncio.timeout_at(deadline):
                    await layer.receive(channel)
            except TimeoutError:
                break
            state = await _read_briefly(session_id, token, False)
        return state
    finally:
        if channel is not None:
            for group in listening:
                await layer.group_discard(group, channel)
            await layer.discard_channel(channel)
