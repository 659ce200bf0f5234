"""Limits on wrong join-code guesses: per device, per address and for the whole server.

A class of thirty shares one school address and some will mistype, so the address ceiling is
generous; a device that keeps guessing is stopped first. Counts live in the cache and expire
with the window.
"""
import time

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _


class TooManyGuesses(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message


def _keys(device: str, address: str) -> dict:
    bucket = int(time.time() // settings.JOIN_GUESS_WINDOW_SECONDS)
    return {"device": f"guess:d:{device}:{bucket}", "address": f"guess:a:{address}:{bucket}",
            "global": f"guess:g:{bucket}"}


def check(*, device: str, address: str) -> None:
    """Raise ``TooManyGuesses`` if any limit is reached; call before looking a code up."""
    counts = cache.get_many(list(_keys(device, address).values()))
    for scope, key in _keys(device, address).items():
        if counts.get(key, 0) >= settings.JOIN_GUESSES[scope]:
            if scope == "device":
                raise TooManyGuesses(_("Too many wrong codes from this tablet. Wait a few minutes, "
                                       "or ask your teacher to read the code out."))
            raise TooManyGuesses(_("Too many wrong codes have been tried. Wait a few minutes and try again."))


def record_wrong(*, device: str, address: str) -> None:
    """Count one wrong code against the device, its address and the server."""
    for key in _keys(device, address).values():
        if not cache.add(key, 1, timeout=settings.JOIN_GUESS_WINDOW_SECONDS * 2):
            cache.incr(key)
