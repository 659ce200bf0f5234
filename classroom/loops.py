"""The classroom loops: class steps (a storm shared by every table), sessions whose tables have
all finished ended by themselves, and the retention purge."""

import asyncio
import logging

from channels.db import database_sync_to_async

from classroom.services import end_finished_sessions, purge_expired, sweep_storms
from games.kept import KeptThreads

logger = logging.getLogger(__name__)


async def storms_forever(interval=1.0):
    """Every second: the class steps that are due, and sessions whose tables have all finished
    ended (on a thread of the loop's own that keeps its connection: ``games.kept.KeptThreads``)."""
    thread = KeptThreads("class-sweep")
    try:
        while True:
            try:
                await thread.run(sweep_storms)
                await thread.run(end_finished_sessions)
            except asyncio.CancelledError:
                raise
            except Exception:  # a hiccup must not stop the class's storm (or the lesson's end) for good
                logger.exception("Class sweep failed; retrying.")
            await asyncio.sleep(interval)
    finally:
        thread.close()


async def purge_forever(interval=3600.0):
    """Once an hour, delete what is past the retention period (see ``purge_expired``)."""
    while True:
        try:
            await database_sync_to_async(purge_expired)()
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("Retention purge failed; retrying in an hour.")
        await asyncio.sleep(interval)
