"""The channel layer every view and dashboard summary goes through, on the real Redis."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from classroom.fast.redis_layer import RedisPubSubChannelLayer


def test_the_site_uses_the_layer_whose_publishes_do_not_queue():
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "classroom.fast.redis_layer.RedisPubSubChannelLayer"
    assert isinstance(get_channel_layer(), RedisPubSubChannelLayer)


def test_tables_hear_their_moves_while_the_process_is_subscribing_sockets():
    """A class connecting at the bell subscribes dozens of sockets at once, each waiting for
    Redis to confirm. Publishing a move's views must not wait for that, nor for the replies to
    other moves' publishes: every one of fifty moves published at once, while forty sockets
    subscribe, reaches the table once, and each new socket's group hears the move sent after."""
    layer = get_channel_layer()

    async def joining():
        channel = await layer.new_channel()
        await layer.group_add("bell-table", channel)
        return channel

    async def run():
        channel = await layer.new_channel()
        await layer.group_add("busy-table", channel)
        moves = (layer.group_send("busy-table", {"type": "game.views", "version": version}) for version in range(50))
        *_, joined = await asyncio.wait_for(
            asyncio.gather(*moves, asyncio.gather(*(joining() for _ in range(40)))), timeout=5
        )
        heard = [(await asyncio.wait_for(layer.receive(channel), timeout=5))["version"] for _ in range(50)]
        assert sorted(heard) == list(range(50))
        await layer.group_send_many([("bell-table", {"type": "game.views", "version": 51})])
        for late in joined:
            assert (await asyncio.wait_for(layer.receive(late), timeout=5))["version"] == 51
        await layer.group_discard("busy-table", channel)

    async_to_sync(run)()


def test_a_layer_that_loses_redis_fails_fast_and_listens_again_once_redis_is_back(private_redis, settings):
    """Redis restarts under a process: a publish while it is away fails at once (the tap is
    answered; the views are asked for again), and once it is back the groups subscribed before
    hear new messages on the same channels, with no socket opened again."""
    layer = RedisPubSubChannelLayer(hosts=[private_redis.url], prefix="restart")

    async def run():
        channel = await layer.new_channel()
        await layer.group_add("table", channel)
        await layer.group_send("table", {"type": "game.views", "version": 1})
        assert (await asyncio.wait_for(layer.receive(channel), timeout=5))["version"] == 1
        private_redis.stop()
        with pytest.raises(OSError):
            await asyncio.wait_for(layer.group_send("table", {"type": "game.views", "version": 2}), timeout=5)
        private_redis.start()
        # the listener subscribes again by itself within a few of its tries (RECONNECT_SECONDS
        # apart); while `make test` loads two cores that has taken over the 10 s a hundred quick
        # refusals here allowed
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while loop.time() < deadline:
            try:
                await layer.group_send("table", {"type": "game.views", "version": 3})
                return (await asyncio.wait_for(layer.receive(channel), timeout=0.2))["version"]
            except (TimeoutError, OSError):
                await asyncio.sleep(0.1)

    assert async_to_sync(run)() == 3


def test_a_message_that_is_not_the_layers_is_dropped_and_the_table_still_hears_its_moves(caplog):
    """Whoever can publish on the Redis may send a group or a socket's channel something that is
    not a channel layer message (a list, a number, a dict without a type). It is dropped and
    logged; the listening connection stays, and the move published just after reaches the
    socket, as the first message it receives."""
    import logging

    import msgpack
    import redis

    layer = RedisPubSubChannelLayer(hosts=[settings.REDIS_URL], prefix="stray")
    publisher = redis.Redis.from_url(settings.REDIS_URL)

    async def run():
        channel = await layer.new_channel()
        await layer.group_add("table", channel)
        listening = layer._get_layer().listener.conn
        for stray in ([1, 2], 7, {"version": 1}):
            pipe = publisher.pipeline(transaction=False)
            pipe.publish("stray__group__table", msgpack.packb(stray))
            pipe.publish(channel, msgpack.packb(stray))
            pipe.publish("stray__group__table", msgpack.packb({"type": "game.views", "version": 2}))
            pipe.execute()
            assert await asyncio.wait_for(layer.receive(channel), timeout=5) == {"type": "game.views", "version": 2}
        assert layer._get_layer().listener.conn is listening and listening.open
        await layer.group_discard("table", channel)
        await layer.flush()

    with caplog.at_level(logging.WARNING, logger="classroom.fast.redis_layer"):
        async_to_sync(run)()
    assert sum("not a channel layer message" in record.getMessage() for record in caplog.records) == 6


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


def test_a_push_from_a_sockets_worker_thread_reaches_the_table_on_the_sockets_loop():
    """Sync work a socket hands to a thread (a tablemate's question, a bot's sweep) pushes its
    messages on the socket's own event loop, through the real Redis."""
    from asgiref.sync import sync_to_async

    from games import broadcast

    layer = get_channel_layer()

    async def run():
        channel = await layer.new_channel()
        await layer.group_add("pushed-table", channel)
        await sync_to_async(broadcast._send_now)([("pushed-table", {"type": "game.views", "version": 7})])
        return await asyncio.wait_for(layer.receive(channel), timeout=5)

    assert async_to_sync(run)()["version"] == 7


def test_a_push_from_a_worker_thread_of_a_stopped_server_gives_up_and_frees_the_thread():
    """A server that stops while a worker thread is about to push (the loop it would push on will
    never run again) must not hold that thread: every later thread-sensitive call of the process
    waits behind it."""
    import threading
    import time

    from asgiref.sync import sync_to_async

    from games import broadcast

    loop, finished = asyncio.new_event_loop(), threading.Event()

    def work():
        loop.call_soon_threadsafe(loop.stop)  # the server shuts down mid-call
        while loop.is_running():
            time.sleep(0.01)
        broadcast._send_now([("stopped-table", {"type": "game.views", "version": 1})])
        finished.set()

    try:
        loop.run_until_complete(sync_to_async(work, thread_sensitive=False)())
    except RuntimeError:  # "Event loop stopped before Future completed"
        pass
    held = not finished.wait(5)
    if held:  # let the held push run, so the failing test does not hang the process at exit
        loop.run_until_complete(asyncio.sleep(1))
    loop.close()
    assert not held, "the push held its thread waiting for a stopped event loop"


@pytest.mark.django_db(transaction=True)
def test_a_thread_that_once_ran_async_code_still_pushes_its_changes():
    """asgiref remembers, per thread, the loop of the last async code that called into it (a
    report task that used ``async_to_sync``, a test's service call): once that loop has closed,
    the thread's next change is still pushed to the tablets, not dropped as if the server were
    stopping."""
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import sync_to_async

    from games import broadcast

    layer = get_channel_layer()

    def change_after_async_work():
        async def async_work():
            await sync_to_async(lambda: None)()  # runs back on this thread, which remembers the loop

        async_to_sync(async_work)()  # returns: its loop is closed
        broadcast.push_after_commit([("pushed-table", {"type": "game.views", "version": 7})])

    async def run():
        channel = await layer.new_channel()
        await layer.group_add("pushed-table", channel)
        with ThreadPoolExecutor(max_workers=1) as pool:
            await asyncio.get_running_loop().run_in_executor(pool, change_after_async_work)
        heard = await asyncio.wait_for(layer.receive(channel), timeout=5)
        assert heard["version"] == 7
        await layer.group_discard("pushed-table", channel)

    async_to_sync(run)()
