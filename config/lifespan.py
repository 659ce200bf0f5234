"""Starts and stops the process's background loops with the ASGI server's lifespan events."""

import asyncio


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
                for warm in self.warm:
                    await warm()
                self.tasks = [asyncio.create_task(loop()) for loop in self.loops]
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                for task in self.tasks:
                    task.cancel()
                await send({"type": "lifespan.shutdown.complete"})
                return
