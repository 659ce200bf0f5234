"""Starts and stops the process's background loops with the ASGI server's lifespan events."""
import asyncio
import gc
import logging

logger = logging.getLogger(__name__)


class LifespanApp:
    """Runs ``warm`` (coroutine functions) before the process serves, then ``loops`` for as long
    as it serves."""

    def __init__(self, app, loops=(), warm=()):
        self.app = app
        self.loops, self.warm = list(loops), list(warm)
        self.tasks = []

    async def __call__(self, scope, receive, send):
        if scope["type"] != "lifespan":
            return await self.app(scope, receive, send)
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                # Everything loaded so far (Django, the apps, the rules) lives as long as the
                # process: leave it out of the collector's full passes, which otherwise walk it
                # all in the middle of students' taps.
                gc.collect()
                gc.freeze()
                # A move builds its views in one go: with the default first threshold (700) the
                # collector ran in the middle of that and promoted what was briefly alive. Each
                # socket also waits for its next message in coroutines and futures made after
                # its last one, so with 1,000 sockets the youngest generation always holds
                # thousands of live objects: a pass costs about the same whatever the threshold,
                # and the threshold sets how often it runs (BENCHMARKS.md, "figures behind the
                # code", has the pass times at each threshold).
                gc.set_threshold(50_000, 10, 10)
                for warm in self.warm:
                    await warm()
                self.tasks = [asyncio.create_task(loop()) for loop in self.loops]
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                for task in self.tasks:
                    task.cancel()
                await send({"type": "lifespan.shutdown.complete"})
                return
