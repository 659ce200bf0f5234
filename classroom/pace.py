"""How fast devices may join a lesson: at a real class's pace, never a script's.

A join that seats a student takes a token from its device's bucket and from its address's
(``settings.JOIN_PACE``: a burst, then so many a second). A class of 35 tablets behind one school
address joining over a minute all get in; one client seating forty fake students in a second,
with fresh cookies each time, gets the burst and then waits. Only joins that seat someone count:
a typo in a nickname costs nothing. The teacher can also turn a device away for the rest of the
lesson (``classroom.services.ban``).
"""

import hashlib

from django.conf import settings
from django.utils.translation import ngettext

from classroom import buckets


class TooFast(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message


def device_hash(device: str) -> str:
    return hashlib.sha256(f"device:{device}".encode()).hexdigest()


def _buckets(device: str, address: str):
    for scope, key in (("device", device_hash(device)[:32]), ("address", address)):
        burst, per_second = settings.JOIN_PACE[scope]
        yield f"join:{scope}:{key}", {"rate": per_second, "burst": burst}


def check(*, device: str, address: str) -> None:
    """Raise ``TooFast`` (saying how long to wait) if this device or address has joined faster
    than a class does."""
    wait = max(buckets.seconds_to_token(key, **rate) for key, rate in _buckets(device, address))
    if wait > 0:
        seconds = int(wait) + 1
        raise TooFast(
            ngettext(
                "Many tablets are joining from here at once. Wait %(seconds)d second, then press Join again.",
                "Many tablets are joining from here at once. Wait %(seconds)d seconds, then press Join again.",
                seconds,
            )
            % {"seconds": seconds}
        )


def count(*, device: str, address: str) -> None:
    """Count one join that seated a student."""
    for key, rate in _buckets(device, address):
        buckets.take(key, **rate)
