"""The channel layer every view and dashboard summary goes through, on the real Redis."""

import asyncio

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from classroom.fast.redis_layer import RedisPubSubChannelLayer


def test_the_site_uses_the_layer_whose_publishes_do_not_queue():
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "classroom.fast.redis_layer.RedisPubSubChannelLayer"
    assert isinstance(get_channel_layer(), RedisPubSubChannelLayer)


def test_tables_hear_their_moves_while_the_process_is_subscribing_sockets():
    """A class connecting at the bell subscribes dozens of sockets at once, each holding the
    Redis connection's lock while Redis answers. Publishing a move's views must not wait for
    that, nor for the replies to other moves' publishes: every one of fifty moves published at
    once, with a subscription under way, reaches the table."""
    layer = get_channel_layer()

    async def run():
        channel = await layer.new_channel()
        await layer.group_add("busy-table", channel)
        loop_layer = layer._get_layer()
        shard = loop_layer._get_shard(loop_layer._get_group_channel_name("busy-table"))
        async with shard._lock:  # as a socket's subscribe holds it
            await asyncio.wait_for(
                asyncio.gather(
                    *(
                        layer.group_send("busy-table", {"type": "game.views", "version": version})
                        for version in range(50)
                    )
                ),
                timeout=5,
            )
        heard = [(await asyncio.wait_for(layer.receive(channel), timeout=5))["version"] for _ in range(50)]
        assert sorted(heard) == list(range(50))
        await layer.group_discard("busy-table", channel)

    async_to_sync(run)()


def test_the_embedded_layer_delivers_to_every_member_and_still_forgets_the_gone():
    """The embedded server's in-memory layer (classroom.fast.memory_layer): a group message
    reaches each member once, in order; a member whose messages were never read is dropped from
    its groups once they expire, as with Channels' own layer, though it no longer scans every
    channel on every send."""
    from classroom.fast import memory_layer

    layer = memory_layer.InMemoryChannelLayer(expiry=1)

    async def run():
        reader, gone = await layer.new_channel(), await layer.new_channel()
        for channel in (reader, gone):
            await layer.group_add("table", channel)
        for version in range(3):
            await layer.group_send("table", {"type": "game.views", "version": version})
        assert [(await layer.receive(reader))["version"] for _ in range(3)] == [0, 1, 2]
        await asyncio.sleep(1.1)  # ``gone``'s messages expire unread
        layer._next_clean = 0
        await layer.group_send("table", {"type": "game.views", "version": 3})
        assert (await layer.receive(reader))["version"] == 3
        assert gone not in layer.groups.get("table", {}) and reader in layer.groups["table"]

    async_to_sync(run)()
