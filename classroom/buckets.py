"""Token buckets kept in the cache, for what a device (or an address) does over plain HTTP.

A socket's frames are counted in its process (``consumers.RateLimit``, per device); the HTTP
fallback's requests and joins may reach any process, so their buckets live in the shared cache,
with the same rates. Two requests at the same instant may both take the last token: a device
gets a token or two extra at most, never a flood.
"""

import math
import time

from django.core.cache import cache


def _level(key: str, rate: float, burst: int, now: float) -> float:
    held = cache.get(f"bucket:{key}")
    tokens, at = held if held else (float(burst), now)
    return min(float(burst), tokens + max(0.0, now - at) * rate)


def _store(key: str, tokens: float, rate: float, burst: int, now: float) -> None:
    cache.set(f"bucket:{key}", (tokens, now), timeout=math.ceil(burst / rate) + 1)


def allow(key: str, *, rate: float, burst: int) -> bool:
    """Take one token from the bucket ``key`` (``rate`` tokens a second, at most ``burst``)."""
    now = time.time()
    tokens = _level(key, rate, burst, now)
    allowed = tokens >= 1
    _store(key, tokens - 1 if allowed else tokens, rate, burst, now)
    return allowed


def seconds_to_token(key: str, *, rate: float, burst: int) -> float:
    """0 if the bucket holds a token now (none is taken: see ``take``), else the seconds until it will."""
    tokens = _level(key, rate, burst, time.time())
    return 0.0 if tokens >= 1 else (1 - tokens) / rate


def take(key: str, *, rate: float, burst: int) -> None:
    """Take one token for something already done (it may leave the bucket below empty)."""
    now = time.time()
    _store(key, _level(key, rate, burst, now) - 1, rate, burst, now)


# A PDF is seconds of a server's CPU (a family plan is drawn afresh each time): a student needs a
# few, and a page reloading one in a loop must not slow the class's game down.
PDFS_PER_MINUTE = 3


def pdf_allowed(participant_id: int) -> bool:
    """One of a student's PDFs (report, family plan) may be made now."""
    return allow(f"pdf:{participant_id}", rate=PDFS_PER_MINUTE / 60, burst=PDFS_PER_MINUTE)
