"""The Redis pub/sub channel layer, with publishing that does not queue behind itself.

Replaces: ``channels_redis.pubsub.RedisPubSubChannelLayer`` (its private ``_get_layer``,
``RedisSingleShardConnection`` and ``_wrap_close``). Paid for by: a tap's view and its ``ok``
p99 12–14 ms apart instead of 19–33 ms, act p99 lower in four of five interleaved pairs
(docs/decisions/0005-redis-layer.md).

channels-redis 4.3 holds one lock per Redis connection set for every ``group_send``, from the
moment it sends ``PUBLISH`` until Redis's reply has been read back on the event loop. A tap
publishes twice (its table's views, then its dashboards' summary), so each server process
published one message at a time: when the loop was busy, every tap's views waited for the
replies of all the taps before it. Redis's client takes a pooled connection per command, so
publishes need no lock; subscribing and unsubscribing keep theirs.
"""

from __future__ import annotations

import asyncio

from channels_redis import pubsub


class _Shard(pubsub.RedisSingleShardConnection):
    async def publish(self, channel, message):
        self._ensure_redis()  # no await before the client is set: nothing can interleave
        await self._redis.publish(channel, message)


class _LoopLayer(pubsub.RedisPubSubLoopLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._shards = [_Shard(shard.host, self) for shard in self._shards]


class RedisPubSubChannelLayer(pubsub.RedisPubSubChannelLayer):
    def _get_layer(self):
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            pubsub._wrap_close(self, loop)
        return layer
