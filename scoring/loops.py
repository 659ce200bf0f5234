"""The report queue's sweep: tasks the broker did not take are sent again (``scoring.queue``)."""

import asyncio
import logging

from django.conf import settings

from scoring.queue import send_unsent

logger = logging.getLogger(__name__)


async def resend_forever(interval=5.0):
    if settings.TASK_MODE == "thread":
        return
    loop = asyncio.get_running_loop()
    while True:
        try:
            await loop.run_in_executor(None, send_unsent)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("Sending queued reports again failed; retrying.")
        await asyncio.sleep(interval)
