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

Counts live in the project's rate limiter (``classroom.ratelimit``: Redis with real services, the
process's memory in embedded mode), never in the database: a flood of wrong codes costs no
database write, and one from a crowded address no look-up past ``JOIN_CROWDED_LOOKUPS``.
"""

import hashlib
import secrets
import time

from django.conf import settings
from django.core import signing
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from classroom import ratelimit

_SALT = "classroom.device"
DEVICE_COOKIE = "sw_device"


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


def device_hash(device: str) -> str:
    """What a session keeps of a device (to turn it away): not its id."""
    return hashlib.sha256(f"device:{device}".encode()).hexdigest()


def signed_device(request) -> str | None:
    """The device a request's cookie names, if the server signed that cookie (None otherwise)."""
    cookie = request.COOKIES.get(DEVICE_COOKIE)
    device, _age, kept = device_id(cookie)
    return device if cookie and kept == cookie else None


def _shared_limits(address: str):
    """(limit, misses allowed, window) for the address's misses and the whole server's."""
    window = settings.JOIN_GUESS_WINDOW_SECONDS
    yield f"guess-address:{address}", settings.JOIN_GUESSES["address"], window
    yield "guess-global:all", settings.JOIN_GUESSES["global"], window


def _crowded(address: str) -> bool:
    """True when the address or the server has missed its ceiling over the last window."""
    return any(ratelimit.wait(*limit) > 0 for limit in _shared_limits(address))


def check(*, device: str, age: float, address: str) -> None:
    """Raise ``TooManyGuesses`` if this device must wait before its code is looked up.

    Call before looking a code up on the form's POST; the class's addresses never block a
    device that has not missed (beyond a few seconds' settling while the address is crowded).
    Nothing here touches the database."""
    wait = ratelimit.held(f"guess-device:{device}")
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
    if _crowded(address) and (age < settings.JOIN_SETTLE_SECONDS or not ratelimit.hit(*_crowded_lookups(address))):
        raise TooManyGuesses(
            _("Many wrong codes have been tried on this network. Wait a few seconds, then press Join again.")
        )


def _crowded_lookups(address: str):
    """While an address is past its ceiling, its codes are looked up at this pace at most, however
    many devices it brings (``settings.JOIN_CROWDED_LOOKUPS``: a burst, then so many a second)."""
    return f"guess-lookups:{address}", *ratelimit.per_second(*settings.JOIN_CROWDED_LOOKUPS)


def record_miss(*, device: str, address: str) -> None:
    """Count one wrong code against the device, its address and the server; a device past its
    allowance (or on a crowded address) backs off, each time twice as long."""
    for limit in _shared_limits(address):
        ratelimit.hit(*limit)
    misses = ratelimit.count(f"guess-device:{device}", settings.JOIN_GUESS_WINDOW_SECONDS * 2)
    over = misses - settings.JOIN_GUESSES["device"] + 1
    if over <= 0 and _crowded(address):
        over = 1
    if over > 0:
        seconds = min(settings.JOIN_BACKOFF_MAX_SECONDS, settings.JOIN_BACKOFF_SECONDS * 2 ** min(over - 1, 20))
        ratelimit.hold(f"guess-device:{device}", seconds)
