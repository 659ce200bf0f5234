"""The embedded server's channel layer: Channels' in-memory layer without its scans.

Replaces: ``channels.layers.InMemoryChannelLayer``'s ``_clean_expired`` on every ``receive`` and
every ``group_send`` (it walks every channel's queue and every group's members: 60 µs a call at
200 sockets, 289 µs at 1,000), and ``group_send``'s task per member. Paid for by: the
embedded server's CPU per action, measured with ``python -m benchmarks.live --embedded``
(docs/decisions/0006-memory-layer.md).

Expired messages and stale memberships are still cleaned, at most once a second, so a socket
that went away without a word is forgotten as before. Messages are handed to each member as a
shallow copy rather than a deep one: the platform's messages (``games.broadcast``,
``classroom.live``) are JSON-like and no consumer changes one it receives.
"""

from __future__ import annotations

import asyncio
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as _ChannelsInMemoryLayer

CLEAN_EVERY_SECONDS = 1.0


class InMemoryChannelLayer(_ChannelsInMemoryLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._next_clean = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now >= self._next_clean:
            self._next_clean = now + CLEAN_EVERY_SECONDS
            super()._clean_expired()

    async def send(self, channel, message):
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        self._put(channel, dict(message))

    def _put(self, channel, message):
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        try:
            queue.put_nowait((time.time() + self.expiry, message))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def group_send(self, group, message):
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            try:
                self._put(channel, dict(message))
            except ChannelFull:
                pass

    async def discard_channel(self, channel):
        """Forget ``channel`` and what it still holds (a long poll's, once answered): Channels'
        layer forgets a channel only once a receive leaves it empty, or its messages expire."""
        self._remove_from_groups(channel)
        self.channels.pop(channel, None)

    async def group_send_many(self, batch):
        """Send each ``(group, message)`` of ``batch`` (``games.broadcast.send`` hands a change's
        messages over at once, as the Redis layer takes them)."""
        for group, message in batch:
            await self.group_send(group, message)
