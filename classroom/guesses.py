"""Limits on wrong join codes that slow a guesser down and never lock a class out.

The join view looks the code up first and counts only misses on the form's POST, so a right
code is never refused because of what others tried, and a page that loads ``/join/XXXXXX`` a
hundred times counts nothing. A device is named by a signed id (``device_id``), so nobody can
pick another tablet's id to block it.

- A device that keeps missing backs off: its ``JOIN_GUESSES["device"]``-th miss makes it wait
  ``JOIN_BACKOFF_SECONDS``, each further miss twice as long as the last, up to ``JOIN_BACKOFF_MAX_SECONDS``; while it
  waits its codes are not looked up.
- When an address (a whole class shares one school address) or the whole server has missed
  more than its ceiling, a device's code is looked up only once the device has held its id for
  ``JOIN_SETTLE_SECONDS`` (a tablet that opened the form and typed a nickname has; a script that
  throws its cookie away has to fetch a new one and wait), and each of its misses backs it off
  at once.

Counts live in the cache and expire with the window.
"""

import secrets
import time

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.utils.translation import gettext as _, ngettext

_SALT = "classroom.device"


class TooManyGuesses(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message


def new_device() -> tuple[str, str]:
    """A fresh device id and the signed cookie value that carries it (with when it was issued)."""
    device = secrets.token_urlsafe(12)
    return device, signing.dumps({"id": device, "at": int(time.time())}, salt=_SALT)


def device_id(cookie: str | None) -> tuple[str, float, str]:
    """The device a signed cookie names, its age in seconds and the cookie to keep; a missing or
    forged cookie gets a new device (of age 0)."""
    try:
        data = signing.loads(cookie or "", salt=_SALT)
        return str(data["id"]), max(0.0, time.time() - float(data["at"])), cookie
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        device, cookie = new_device()
        return device, 0.0, cookie


def _shared_keys(address: str, bucket: int) -> dict:
    return {"address": f"guess:a:{address}:{bucket}", "global": f"guess:g:{bucket}"}


def _device_key(device: str) -> str:
    return f"guess:d:{device}"


def _crowded(address: str) -> bool:
    """True when the address or the server has missed more than its ceiling in this window and
    the one before (so the count does not drop to nothing as a window turns over)."""
    now = int(time.time() // settings.JOIN_GUESS_WINDOW_SECONDS)
    current, before = _shared_keys(address, now), _shared_keys(address, now - 1)
    counts = cache.get_many(list(current.values()) + list(before.values()))
    return any(
        counts.get(current[scope], 0) + counts.get(before[scope], 0) >= ceiling
        for scope, ceiling in settings.JOIN_GUESSES.items()
        if scope in current
    )


def check(*, device: str, age: float, address: str) -> None:
    """Raise ``TooManyGuesses`` if this device must wait before its code is looked up.

    Call before looking a code up on the form's POST; the class's addresses never block a
    device that has not missed (beyond a few seconds' settling while the address is crowded)."""
    held = cache.get(_device_key(device))
    wait = (held or {}).get("until", 0) - time.time()
    if wait > 0:
        seconds = int(wait) + 1
        raise TooManyGuesses(
            ngettext(
                "Too many wrong codes from this tablet. Wait %(seconds)d second, or ask your teacher to "
                "read the code out.",
                "Too many wrong codes from this tablet. Wait %(seconds)d seconds, or ask your teacher to "
                "read the code out.",
                seconds,
            )
            % {"seconds": seconds}
        )
    if age < settings.JOIN_SETTLE_SECONDS and _crowded(address):
        raise TooManyGuesses(
            _("Many wrong codes have been tried on this network. Wait a few seconds, then press Join again.")
        )


def record_miss(*, device: str, address: str) -> None:
    """Count one wrong code against the device, its address and the server; a device past its
    allowance (or on a crowded address) backs off, each time twice as long."""
    window = settings.JOIN_GUESS_WINDOW_SECONDS
    for key in _shared_keys(address, int(time.time() // window)).values():
        if not cache.add(key, 1, timeout=window * 2):
            cache.incr(key)
    key = _device_key(device)
    held = cache.get(key) or {"misses": 0, "until": 0}
    misses = held["misses"] + 1
    over = misses - settings.JOIN_GUESSES["device"] + 1
    if over <= 0 and _crowded(address):
        over = 1
    until = 0
    if over > 0:
        until = time.time() + min(
            settings.JOIN_BACKOFF_MAX_SECONDS, settings.JOIN_BACKOFF_SECONDS * 2 ** min(over - 1, 20)
        )
    cache.set(key, {"misses": misses, "until": until}, timeout=window * 2)
