"""The Redis pub/sub channel layer: per event loop, one connection that publishes and one that
listens, each an asyncio protocol over hiredis's reply parser.

Replaces: ``channels_redis.pubsub.RedisPubSubChannelLayer`` and redis-py's asyncio client under
it. Paid for by: server CPU per action at ``benchmarks.live --full``
(docs/decisions/0014-redis-layer-own-connections.md). redis-py spent about 190 µs of CPU on each
``PUBLISH`` (a pooled connection, a retry wrapper and a timeout per command) and about 115 µs on
each message a subscription read, where the message's own parsing is a few; with two publishes a
tap and two or three messages read, that was a fifth of the server's CPU per action.

What a channel layer does here, as channels-redis's pub/sub layer did: each socket's channel and
each group is a Redis pub/sub channel named with the layer's ``prefix``; Redis knows only which
channels the process listens to, and the process keeps which of its sockets are in which group.
A message is msgpack on the wire, decoded once per process and handed to each member there as a
shallow copy (``classroom.fast.memory_layer`` does the same). What it adds:

- ``group_send_many``: a batch's publishes (a tap's views and its dashboards' summary) go to
  Redis in one write and their replies come back in one read;
- a listening connection Redis drops is opened again, every channel subscribed again, by a task
  of its own (a Redis restart: tablets hear their tables again with no new socket);
- a publish or subscribe unanswered for ``REPLY_SECONDS`` fails and drops its connection (a lost
  route where packets vanish: the next one opens a fresh connection), where redis-py's waited
  without end.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import ssl
import types
import uuid
from urllib.parse import unquote, urlparse

import hiredis
import msgpack

logger = logging.getLogger(__name__)

CONNECT_SECONDS = 2.0
REPLY_SECONDS = 5.0
RECONNECT_SECONDS = (0.1, 0.2, 0.5, 1.0, 2.0)  # the listener's waits between tries, the last repeated


class _Connection(asyncio.Protocol):
    """One connection to Redis: commands written as they come, each reply handed to the command
    that asked it, in order; a subscription's messages go to ``on_message``."""

    def __init__(self, on_message=None):
        self.parser = hiredis.Reader()
        self.waiting = collections.deque()  # a future per command written, in order
        self.on_message = on_message
        self.transport = None
        self.closed = asyncio.get_running_loop().create_future()

    @property
    def open(self) -> bool:
        return not self.closed.done()

    def connection_made(self, transport):
        self.transport = transport

    def data_received(self, data):
        self.parser.feed(data)
        try:
            while (reply := self.parser.gets()) is not False:
                if self.on_message is not None and type(reply) is list and reply[0] == b"message":
                    self.on_message(reply[1], reply[2])
                elif self.waiting:
                    waiter = self.waiting.popleft()
                    if not waiter.done():
                        if isinstance(reply, hiredis.ReplyError):
                            waiter.set_exception(reply)
                        else:
                            waiter.set_result(reply)
        except hiredis.ProtocolError:
            logger.warning("Redis sent what is not its protocol; dropping the connection")
            self.transport.abort()

    def connection_lost(self, exc):
        lost = ConnectionError("the connection to Redis closed")
        while self.waiting:
            waiter = self.waiting.popleft()
            if not waiter.done():
                waiter.set_exception(lost)
        if not self.closed.done():
            self.closed.set_result(None)

    def send(self, commands) -> list[asyncio.Future]:
        """Write ``commands`` (tuples of a command's words) in one write; a future per reply."""
        if not self.open:
            raise ConnectionError("the connection to Redis closed")
        loop = asyncio.get_running_loop()
        waiters = [loop.create_future() for _ in commands]
        for waiter in waiters:  # a reply nobody waits for (an unsubscribe's) may fail unheard
            waiter.add_done_callback(_heard)
        self.waiting.extend(waiters)
        self.transport.write(b"".join(hiredis.pack_command(command) for command in commands))
        return waiters

    async def replies(self, waiters):
        """The replies of ``waiters``; past ``REPLY_SECONDS`` the connection is dropped."""
        try:
            async with asyncio.timeout(REPLY_SECONDS):
                return [await waiter for waiter in waiters]
        except TimeoutError:
            self.close()
            raise

    def close(self):
        if self.transport is not None:
            self.transport.abort()

    async def aclose(self):
        """Close, and return once the connection has gone."""
        self.close()
        await self.closed


def _heard(waiter: asyncio.Future) -> None:
    """Mark a reply's failure as seen, so that asyncio does not log it as never retrieved: a
    connection lost under several commands fails them all, and the first failure is the one
    raised."""
    if not waiter.cancelled():
        waiter.exception()


async def _connect(address: str, on_message=None) -> _Connection:
    """A connection to the Redis of ``address`` (``redis://``, ``rediss://`` or ``unix://``),
    signed in if the address names a password."""
    url = urlparse(address)
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(CONNECT_SECONDS):
        if url.scheme == "unix":
            _, conn = await loop.create_unix_connection(lambda: _Connection(on_message), url.path)
        else:
            tls = ssl.create_default_context() if url.scheme == "rediss" else None
            _, conn = await loop.create_connection(
                lambda: _Connection(on_message), url.hostname or "127.0.0.1", url.port or 6379, ssl=tls
            )
        if url.password:
            sign_in = (
                ("AUTH", unquote(url.username), unquote(url.password))
                if url.username
                else ("AUTH", unquote(url.password))
            )
            try:
                await conn.replies(conn.send([sign_in]))
            except BaseException:
                conn.close()
                raise
    return conn


class _Listener:
    """The event loop's subscriptions, on one connection that a task keeps open: when Redis drops
    it, the task opens another and subscribes every channel again."""

    def __init__(self, address: str, on_message):
        self.address, self.on_message = address, on_message
        self.channels: set[str] = set()  # the channels this loop listens to
        self.conn: _Connection | None = None
        self.ready = asyncio.Event()  # set while the connection is open and subscribed
        self.tried = asyncio.Event()  # set once the present try to open it has succeeded or failed
        self.failing = False  # the last try failed
        self.task = None

    async def subscribe(self, channel: str) -> None:
        """Listen to ``channel``: returns once Redis has confirmed it."""
        self.channels.add(channel)
        if self.task is None:
            self.task = asyncio.ensure_future(self._keep_listening())
        async with asyncio.timeout(REPLY_SECONDS):
            while not self.ready.is_set():
                if self.failing:  # fail at once while Redis refuses, rather than after the timeout
                    raise ConnectionError("Redis cannot be reached")
                await self.tried.wait()
        await self.conn.replies(self.conn.send([("SUBSCRIBE", channel)]))

    def unsubscribe(self, channel: str) -> None:
        """Stop listening to ``channel`` (its confirmation is not waited for)."""
        self.channels.discard(channel)
        if self.conn is not None and self.conn.open:
            self.conn.send([("UNSUBSCRIBE", channel)])

    async def _keep_listening(self):
        tries = 0
        while True:
            self.tried.clear()
            conn = None
            try:
                conn = await _connect(self.address, self.on_message)
                subscribed = sorted(self.channels)
                if subscribed:
                    await conn.replies(conn.send([("SUBSCRIBE", channel) for channel in subscribed]))
            except (OSError, hiredis.HiredisError) as error:  # refused, reset, timed out, refused by Redis
                if conn is not None:
                    conn.close()
                if not self.failing:
                    logger.warning("Cannot listen to Redis (%r); trying again", error)
                self.failing = True
                self.tried.set()
                await asyncio.sleep(RECONNECT_SECONDS[min(tries, len(RECONNECT_SECONDS) - 1)])
                tries += 1
                continue
            gone = set(subscribed) - self.channels  # let go of while the connection opened
            if gone:
                conn.send([("UNSUBSCRIBE", channel) for channel in sorted(gone)])
            if self.failing:
                logger.warning("Listening to Redis again")
            self.conn, self.failing, tries = conn, False, 0
            self.ready.set()
            self.tried.set()
            await asyncio.shield(conn.closed)  # a cancelled wait must not mark the connection closed
            self.ready.clear()
            self.conn = None

    async def close(self):
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        if self.conn is not None:
            await self.conn.aclose()


class _LoopLayer:
    """The layer on one event loop: its channels' queues, its groups' members here, and its two
    connections."""

    def __init__(self, address: str, prefix: str):
        self.address, self.prefix = address, prefix
        self.channels: dict[str, asyncio.Queue] = {}  # a socket's channel -> its messages
        self.groups: dict[str, set[str]] = {}  # a group's Redis channel -> its members' channels here
        self.listener = _Listener(address, self._deliver)
        self.publisher: _Connection | None = None
        self.opening = asyncio.Lock()

    def _group_channel(self, group: str) -> str:
        return f"{self.prefix}__group__{group}"

    # Publishing --------------------------------------------------------------------------------

    async def publish(self, pairs) -> None:
        """Publish each ``(Redis channel, message)`` in one write; returns once Redis has them."""
        conn = self.publisher
        if conn is None or not conn.open:
            async with self.opening:
                if self.publisher is None or not self.publisher.open:
                    self.publisher = await _connect(self.address)
            conn = self.publisher
        await conn.replies(conn.send([("PUBLISH", channel, msgpack.packb(message)) for channel, message in pairs]))

    # Listening ---------------------------------------------------------------------------------

    def _deliver(self, name: bytes, data: bytes) -> None:
        name = name.decode()
        queue, members = self.channels.get(name), self.groups.get(name)
        if queue is None and not members:
            return  # no longer listened to here
        try:
            message = msgpack.unpackb(data)
        except Exception:  # noqa: BLE001 - not one of ours: nothing to deliver
            logger.warning("Dropped a message on %s that is not msgpack", name)
            return
        if type(message) is not dict or type(message.get("type")) is not str:
            # Anyone who can publish on this Redis could send one; raised here, it would drop the
            # listening connection, and handed on, it would end the socket that received it.
            logger.warning("Dropped a message on %s that is not a channel layer message", name)
            return
        if queue is not None:
            queue.put_nowait(message)
            return
        for channel in members:
            queue = self.channels.get(channel)
            if queue is not None:
                queue.put_nowait(dict(message))

    async def new_channel(self, prefix="specific.") -> str:
        channel = f"{self.prefix}{prefix}{uuid.uuid4().hex}"
        self.channels[channel] = asyncio.Queue()
        await self.listener.subscribe(channel)
        return channel

    async def receive(self, channel: str) -> dict:
        """The next message of ``channel``. A receive cancelled means its consumer has gone, as
        Channels' consumers go: the channel is let go of then."""
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue()
            await self.listener.subscribe(channel)
        try:
            return await queue.get()
        except (asyncio.CancelledError, GeneratorExit):
            if self.channels.pop(channel, None) is not None:
                self.listener.unsubscribe(channel)
            raise

    def discard_channel(self, channel: str) -> None:
        """Stop listening to ``channel`` and forget what it still holds."""
        for name in [name for name, members in self.groups.items() if channel in members]:
            members = self.groups[name]
            members.discard(channel)
            if not members:
                del self.groups[name]
                self.listener.unsubscribe(name)
        if self.channels.pop(channel, None) is not None:
            self.listener.unsubscribe(channel)

    async def group_add(self, group: str, channel: str) -> None:
        if channel not in self.channels:
            raise RuntimeError("group_add takes a channel of this process (from new_channel)")
        name = self._group_channel(group)
        members = self.groups.get(name)
        if members is not None:
            members.add(channel)
            return
        self.groups[name] = {channel}
        try:
            await self.listener.subscribe(name)
        except BaseException:
            self.groups.pop(name, None)  # a member only once the subscription took: a retry subscribes
            self.listener.unsubscribe(name)
            raise

    async def group_discard(self, group: str, channel: str) -> None:
        name = self._group_channel(group)
        members = self.groups.get(name)
        if members is None or channel not in members:
            return
        members.discard(channel)
        if not members:
            del self.groups[name]
            self.listener.unsubscribe(name)

    async def close(self):
        await self.listener.close()
        if self.publisher is not None:
            await self.publisher.aclose()


class RedisPubSubChannelLayer:
    """The channel layer Channels gets from ``CHANNEL_LAYERS`` (the module says how it works).
    ``hosts``: one Redis, as a URL or ``{"address": URL}``; ``prefix`` names this site's
    channels on a Redis that others may share."""

    extensions = ["groups", "flush"]

    def __init__(self, hosts=None, prefix="asgi", **_ignored):
        [host] = hosts or ["redis://127.0.0.1:6379"]
        self.address = host["address"] if isinstance(host, dict) else host
        self.prefix = prefix
        self._layers: dict[asyncio.AbstractEventLoop, _LoopLayer] = {}

    def _get_layer(self) -> _LoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(self.address, self.prefix)
            self._close_with(loop)
        return layer

    def _close_with(self, loop) -> None:
        """Close the loop's connections when the loop closes (a worker thread's ``async_to_sync``
        runs each push on a loop of its own, closed after it)."""
        close = loop.close

        def close_layer_first(loop_itself):
            layer = self._layers.pop(loop, None)
            if layer is not None and not loop.is_running():
                loop.run_until_complete(layer.close())
            loop.close = close
            return close()

        loop.close = types.MethodType(close_layer_first, loop)

    async def new_channel(self, prefix="specific.") -> str:
        return await self._get_layer().new_channel(prefix)

    async def send(self, channel: str, message: dict) -> None:
        await self._get_layer().publish([(channel, message)])

    async def receive(self, channel: str) -> dict:
        return await self._get_layer().receive(channel)

    async def discard_channel(self, channel: str) -> None:
        """Let go of ``channel`` (from ``new_channel``) that nothing will receive on again, and of
        its groups. A consumer's channel is let go of as its consumer goes; a channel used for one
        message (``config.health``) or one wait (a long poll's, once answered) would otherwise
        stay subscribed for the life of the process."""
        self._get_layer().discard_channel(channel)

    async def group_add(self, group: str, channel: str) -> None:
        await self._get_layer().group_add(group, channel)

    async def group_discard(self, group: str, channel: str) -> None:
        await self._get_layer().group_discard(group, channel)

    async def group_send(self, group: str, message: dict) -> None:
        await self.group_send_many([(group, message)])

    async def group_send_many(self, batch) -> None:
        """Send each ``(group, message)`` of ``batch``, in one write to Redis."""
        layer = self._get_layer()
        await layer.publish([(layer._group_channel(group), message) for group, message in batch])

    async def flush(self) -> None:
        """Forget this loop's channels and groups and close its connections."""
        layer = self._layers.pop(asyncio.get_running_loop(), None)
        if layer is not None:
            await layer.close()
