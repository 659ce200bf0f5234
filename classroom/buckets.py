"""Token buckets per device kept in the cache, for what a device does over plain HTTP.

A socket keeps its buckets in memory (``consumers.RateLimit``) because it lives in one process;
the HTTP fallback's requests may reach any process, so its buckets live in the shared cache,
with the socket's rates. Two requests of one device at the same instant may both take the last
token: a device gets a token or two extra at most, never a flood.
"""
import math
import time

from django.core.cache import cache


def allow(key: str, *, rate: float, burst: int) -> bool:
    """Take one token from the bucket ``key`` (``rate`` tokens a second, at most ``burst``)."""
    now = time.time()
    held = cache.get(f"bucket:{key}")
    tokens, at = held if held else (float(burst), now)
    tokens = min(float(burst), tokens + max(0.0, now - at) * rate)
    allowed = tokens >= 1
    if allowed:
        tokens -= 1
    cache.set(f"bucket:{key}", (tokens, now), timeout=math.ceil(burst / rate) + 1)
    return allowed
