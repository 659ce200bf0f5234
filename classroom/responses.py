"""A whole HTTP response sent from ASGI middleware, before Django sees the request: the refusals
that must cost no thread, no middleware and no database (``config.bodylimit``,
``classroom.polls``, ``classroom.crowds``)."""


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
