"""The classroom loop: shared Stormfury storms that move for the whole class at once."""
import asyncio
import logging

from channels.db import database_sync_to_async

from classroom.services import sweep_storms

logger = logging.getLogger(__name__)


async def storms_forever(interval=1.0):
    while True:
        try:
            await database_sync_to_async(sweep_storms)()
        except asyncio.CancelledError:
            raise
        except Exception:  # a hiccup must not stop the class's storm for good
            logger.exception("Storm sweep failed; retrying.")
        await asyncio.sleep(interval)
