"""A crowd of joins from one address is turned away in front of Django.

Sixty join forms posted at the same instant by a script on the school's network each took a
thread, a database connection and a page of their own, and on two cores the class beside the
script waited seconds for its own joins, although the join pace refused all but twenty of the
sixty. ``JoinsInFlight`` counts an address's join posts in flight in this server process and
answers one past ``JOINS_IN_FLIGHT`` at once, on the event loop, with the join pace's own words
("wait a second, then press Join again") in the tablet's language: a refusal costs no thread, no
middleware and no database. A real class behind one school address posts its joins seconds
apart, each done in tens of milliseconds; a tablet that meets the cap presses Join again. The
address is the one uvicorn gives (a trusted proxy's ``X-Forwarded-For``, ``TRUSTED_PROXIES``).
Measured by ``python -m benchmarks.faults --only join_crowd``.
"""

import html

from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.translation import gettext, ngettext

from classroom import languages
from classroom.responses import InFlight, answer

#: join posts one address may have in flight in one server process
JOINS_IN_FLIGHT = 4
JOIN_PATH = "/join"
_in_flight = InFlight(JOINS_IN_FLIGHT)  # by address


class JoinsInFlight:
    """ASGI middleware: at most ``JOINS_IN_FLIGHT`` join posts from one address reach Django at
    once in this process; the next is answered 429 with ``Retry-After`` before Django sees it.
    Runs on the event loop only, so the check and the count cannot be split by another post."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("method") != "POST" or scope.get("path") != JOIN_PATH:
            return await self.app(scope, receive, send)
        address = (scope.get("client") or ("",))[0]
        if _in_flight.full(address):
            return await _wait_a_second(scope, send)
        with _in_flight.held(address):
            await self.app(scope, receive, send)


async def _wait_a_second(scope, send):
    headers = dict(scope.get("headers") or [])
    cookies = parse_cookie(headers.get(b"cookie", b"").decode("latin-1"))
    language = languages.from_scope({**scope, "cookies": cookies})
    with translation.override(language):
        said = ngettext(  # the join pace's own words
            "Many tablets are joining from here at once. Wait %(seconds)d second, then press Join again.",
            "Many tablets are joining from here at once. Wait %(seconds)d seconds, then press Join again.",
            1,
        ) % {"seconds": 1}
        back = gettext("Join a lesson")
    referer = headers.get(b"referer", b"").decode("latin-1")
    path = referer[referer.find("/join") :] if "/join" in referer else JOIN_PATH
    body = (
        f'<!doctype html><html lang="{language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>Stormwise</title><link rel="stylesheet" href="/static/css/stormwise.css"></head>'
        f'<body><main id="main" class="card narrow"><p role="alert">{html.escape(said)}</p>'
        f'<p><a class="button" href="{html.escape(path, quote=True)}">{html.escape(back)}</a></p></main></body></html>'
    ).encode()
    headers = [
        (b"content-language", language.encode()),
        (b"retry-after", b"1"),
        (b"cache-control", b"no-store"),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"content-security-policy", b"default-src 'self'; frame-ancestors 'none'"),
    ]
    await answer(send, 429, body, b"text/html; charset=utf-8", headers)
