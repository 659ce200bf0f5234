"""Request bodies are capped before they are read.

Django's ASGI handler reads a request's whole body (into memory, then a temporary file) before
any view runs, whatever its size and however slowly it arrives, and ``DATA_UPLOAD_MAX_MEMORY_SIZE``
is checked only afterwards. This wrapper answers 413 at once when the declared length is over
that setting, and stops reading a chunked body as soon as it is.
"""

from django.conf import settings

from classroom.responses import answer

_TOO_BIG = b"Request body too large."


class BodyLimit:
    """ASGI middleware: HTTP request bodies of at most ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = limit + 1
                if declared > limit:
                    return await _refuse(send)
        received, over, started = 0, False, False

        async def limited_receive():
            nonlocal received, over
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    over = True
                    return {"type": "http.disconnect"}  # Django stops reading and answers nothing
            return message

        async def watched_send(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, limited_receive, watched_send)
        if over and not started:
            await _refuse(send)


async def _refuse(send):
    await answer(send, 413, _TOO_BIG, b"text/plain; charset=utf-8", [(b"connection", b"close")])
