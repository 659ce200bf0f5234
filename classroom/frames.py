"""The front door of a device's frames: the socket (``consumers.PlayConsumer``) and the HTTP
fallback (``views.play_act``) read every frame with ``parse_frame``, so both refuse the same
frames with the same refusal (rendered from ``games.refusals``)."""

from __future__ import annotations

import json

from games.refusals import Refused

MAX_FRAME_BYTES = 4096


def parse_frame(raw) -> dict:
    """The frame ``raw`` (text or bytes) as a JSON object with a ``type``; else ``Refused``:
    ``too_big`` past ``MAX_FRAME_BYTES``, ``bad_frame`` if it is not such an object. What each
    type carries is checked by the service that takes it (``games.taps`` for ``act``)."""
    if raw is None or len(raw) > MAX_FRAME_BYTES:
        raise Refused("too_big")
    try:
        message = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):  # deep nesting fits in 4 KB
        raise Refused("bad_frame") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise Refused("bad_frame")
    return message


def declared_too_big(content_length) -> bool:
    """Whether an HTTP request's declared length is past what ``parse_frame`` takes: checked
    before its body is read."""
    try:
        return int(content_length or 0) > MAX_FRAME_BYTES
    except ValueError:
        return True
