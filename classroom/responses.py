"""A whole HTTP response sent from ASGI middleware, before Django sees the request: the refusals
that must cost no thread, no middleware and no database (``config.bodylimit``,
``classroom.polls``, ``classroom.crowds``); and the count of requests in flight those last two
refuse by."""

import collections
import contextlib


async def answer(send, status: int, body: bytes, content_type: bytes, headers=()) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", content_type),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class InFlight:
    """Requests in flight in this server process, counted by a key (a device, an address), at
    most ``most`` a key. Used on the event loop only, so a check and the count that follows it
    cannot be split by another request."""

    def __init__(self, most: int):
        self.most = most
        self._open: collections.Counter = collections.Counter()

    def full(self, key) -> bool:
        return self._open[key] >= self.most

    @contextlib.contextmanager
    def held(self, key):
        self._open[key] += 1
        try:
            yield
        finally:
            self._open[key] -= 1
            if not self._open[key]:
                del self._open[key]
