"""The one rate limiter: every limit the project sets on a device, an address or an account.

Each limit is a moving window (``amount`` in the last ``seconds``) kept by the ``limits`` library
(docs/decisions/0016-one-rate-limiter.md): in Redis with real services, where one Lua script
counts and checks at once, so every process and host shares one count and two requests at the
same instant cannot both take the last place; in this process's memory in embedded mode, which
serves from one process. A limit is named by what it counts and whose (``"acts:17"``, the
seventeenth seat's taps), never by the path a request came by: a socket's frame and the HTTP
fallback's request take from the same count.

Sockets count from their event loop (``ahit``); everything else from a thread (``hit``).
"""

import asyncio
import math
import time
import weakref

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.translation import ngettext
from limits import RateLimitItemPerSecond
from limits.aio.strategies import MovingWindowRateLimiter as AsyncMovingWindow
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

_limiter = None
# redis-py's asyncio connections belong to the loop that opened them: one limiter per loop.
_async_limiters: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncMovingWindow]" = weakref.WeakKeyDictionary()


def _in_redis() -> bool:
    return settings.RATE_LIMIT_STORAGE.startswith(("redis://", "rediss://"))


def _options() -> dict:
    return {"key_prefix": settings.RATE_LIMIT_PREFIX} if _in_redis() else {}


def limiter() -> MovingWindowRateLimiter:
    global _limiter
    if _limiter is None:
        _limiter = MovingWindowRateLimiter(storage_from_string(settings.RATE_LIMIT_STORAGE, **_options()))
    return _limiter


@receiver(setting_changed)
def _storage_changed(setting, **kwargs):
    global _limiter
    if setting in ("RATE_LIMIT_STORAGE", "RATE_LIMIT_PREFIX"):
        _limiter = None
        _async_limiters.clear()


def _item(key: str, amount: int, seconds: float) -> tuple[RateLimitItemPerSecond, str]:
    scope, _, whose = key.partition(":")
    return RateLimitItemPerSecond(max(1, int(amount)), max(1, round(seconds)), namespace=scope), whose


def hit(key: str, amount: int, seconds: float) -> bool:
    """Count one for ``key`` unless it has reached ``amount`` in the last ``seconds``; whether it was
    counted (False: refuse)."""
    item, whose = _item(key, amount, seconds)
    return limiter().hit(item, whose)


async def ahit(key: str, amount: int, seconds: float) -> bool:
    """``hit`` from an event loop: Redis through the loop's own connections; memory directly (no I/O)."""
    if not _in_redis():
        return hit(key, amount, seconds)
    loop = asyncio.get_running_loop()
    counting = _async_limiters.get(loop)
    if counting is None:
        uri = "async+" + settings.RATE_LIMIT_STORAGE
        counting = AsyncMovingWindow(storage_from_string(uri, implementation="redispy", **_options()))
        _async_limiters[loop] = counting
    item, whose = _item(key, amount, seconds)
    return await counting.hit(item, whose)


def wait(key: str, amount: int, seconds: float) -> float:
    """0 if ``key`` may count one more now (nothing is counted), else the seconds until it may."""
    item, whose = _item(key, amount, seconds)
    stats = limiter().get_window_stats(item, whose)
    if stats.remaining > 0:
        return 0.0

    return max(0.001, stats.reset_time - time.time())


def clear(key: str, amount: int, seconds: float) -> None:
    item, whose = _item(key, amount, seconds)
    limiter().clear(item, whose)


def per_second(burst: int, rate: float) -> tuple[int, float]:
    """A burst refilled at ``rate`` a second, as a moving window: ``burst`` in ``burst / rate`` seconds."""
    return burst, burst / rate


# --- Joining at a class's pace -------------------------------------------------------------------
# A join that seats a student counts against its device and its address (``settings.JOIN_PACE``:
# a burst, then so many a second). A class of 35 tablets behind one school address joining over a
# minute all get in; one client seating forty fake students at once, with fresh cookies each time,
# gets the burst and then waits. Only joins that seat someone count (a taken nickname costs
# nothing): the count is taken inside the join's transaction, after every other check, so joins
# racing from many threads or processes cannot all pass a look taken before any of them counted.


class TooFast(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message


def _join_limits(device_hash: str, address: str):
    for scope, whose in (("device", device_hash[:32]), ("address", address)):
        burst, per_second_ = settings.JOIN_PACE[scope]
        yield f"join-{scope}:{whose}", *per_second(burst, per_second_)


def _too_fast(seconds: float) -> TooFast:
    seconds = int(seconds) + 1
    return TooFast(
        ngettext(
            "Many tablets are joining from here at once. Wait %(seconds)d second, then press Join again.",
            "Many tablets are joining from here at once. Wait %(seconds)d seconds, then press Join again.",
            seconds,
        )
        % {"seconds": seconds}
    )


def check_join_pace(*, device_hash: str, address: str) -> None:
    """Raise ``TooFast`` (saying how long to wait) if this device or address has joined faster than
    a class does; nothing is counted (a refusal before any database work)."""
    waits = [wait(key, amount, seconds) for key, amount, seconds in _join_limits(device_hash, address)]
    if max(waits) > 0:
        raise _too_fast(max(waits))


def take_join_pace(*, device_hash: str, address: str) -> None:
    """Count one join that is about to seat a student, or raise ``TooFast`` if its device or
    address has no place left (counted and checked at once)."""
    for key, amount, seconds in _join_limits(device_hash, address):
        if not hit(key, amount, seconds):
            raise _too_fast(wait(key, amount, seconds))


# --- PDFs ----------------------------------------------------------------------------------------
# A PDF is seconds of a server's CPU (a family plan is drawn afresh each time). A student needs a
# few, and a page reloading one in a loop, or a script asking for every seat's, must not slow the
# class's game down: a student's PDFs (report, family plan) count per device and per address,
# whoever's they are; a teacher's kit PDFs (guide, printables, card, join slips) per account.
PDFS_PER_MINUTE = {"device": 3, "address": 20}
KIT_PDFS_PER_MINUTE = 10


def student_pdf_allowed(*, device: str, address: str) -> bool:
    """One of a student's PDFs may be made now for this device and address."""
    return all(
        hit(f"pdf-{scope}:{whose}", PDFS_PER_MINUTE[scope], 60)
        for scope, whose in (("device", device), ("address", address))
    )


def kit_pdf_allowed(request) -> bool:
    """One of a teacher's kit PDFs may be made now for this account."""
    return hit(f"kit-pdf:{request.user.pk}", KIT_PDFS_PER_MINUTE, 60)


# --- Counts and holds ----------------------------------------------------------------------------
# For what is not a rate (a back-off that doubles with each miss), the same store's counters.


def count(key: str, seconds: float) -> int:
    """Count one more for ``key``; how many it holds, each kept until ``seconds`` after the first."""
    return limiter().storage.incr(f"count/{key}", math.ceil(seconds))


def hold(key: str, seconds: float) -> None:
    """Hold ``key`` back for ``seconds`` from now (see ``held``)."""
    storage = limiter().storage
    storage.clear(f"hold/{key}")
    storage.incr(f"hold/{key}", math.ceil(seconds))


def held(key: str) -> float:
    """The seconds ``key`` is still held back for (0 if it is not)."""
    storage = limiter().storage
    if not storage.get(f"hold/{key}"):
        return 0.0
    return max(0.0, storage.get_expiry(f"hold/{key}") - time.time())
