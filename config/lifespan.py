"""Starts and stops the process's background loops with the ASGI server's lifespan events."""
import asyncio
import logging

logger = logging.getLogger(__name__)

#: Coroutine functions started once per server process (the deadline sweeper registers here).
BACKGROUND_LOOPS = []


class LifespanApp:
    def __init__(self, app):
        self.app = app
        self.tasks = []

    async def __call__(self, scope, receive, send):
        if scope["type"] != "lifespan":
            return await self.app(scope, receive, send)
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.tasks = [asyncio.create_task(loop()) for loop in BACKGROUND_LOOPS]
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                for task in self.tasks:
                    task.cancel()
                await send({"type": "lifespan.shutdown.complete"})
                return
