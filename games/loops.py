"""The deadline loop: bots' paced steps and idle seats' turn timers, one loop per server process.
Its database work runs on a thread that keeps its connection (``games.kept.KeptThreads``)."""

import asyncio
import logging

from games.kept import KeptThreads
from games.services import anything_due, sweep_due

logger = logging.getLogger(__name__)
SWEEP_SECONDS = 0.25


async def sweep_forever():
    """Play due deadlines forever; several processes share the work through SKIP LOCKED."""
    thread = KeptThreads("deadline-sweep")
    try:
        while True:
            try:
                if await anything_due():
                    while await thread.run(sweep_due):
                        pass
            except asyncio.CancelledError:
                raise
            except Exception:  # a database hiccup must not stop every bot in the building
                logger.exception("Deadline sweep failed; retrying.")
                await asyncio.sleep(1)
            await asyncio.sleep(SWEEP_SECONDS)
    finally:
        thread.close()
