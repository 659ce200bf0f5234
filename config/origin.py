"""Sockets opened from a page of another site are refused, whatever ALLOWED_HOSTS says.

Channels' ``AllowedHostsOriginValidator`` accepts every origin when ALLOWED_HOSTS is "*", as it
is in ``make run`` on a classroom network. A browser always sends the page's ``Origin`` and the
address it connects to as ``Host``; when both are present they must name the same host and port.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


def same_origin(origin: str, host: str) -> bool:
    try:
        page = urlsplit(origin)
        target = urlsplit(f"//{host}")
        page_port = page.port or DEFAULT_PORTS.get(page.scheme)
        target_port = target.port or DEFAULT_PORTS.get(page.scheme)
    except ValueError:  # a malformed port
        return False
    return bool(page.hostname) and page.hostname == target.hostname and page_port == target_port


class SameOriginValidator:
    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            origin, host = _header(scope, b"origin"), _header(scope, b"host")
            if origin is not None and host is not None and not same_origin(origin, host):
                return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
