"""Security checks as tests: each fails if its protection is removed.

Content security policy, deleting a session with everything in it, ownership of every teacher
URL, WebSocket origins, device tokens bound to one participant of one session, production
cookies, and no student data beyond a nickname.
"""
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from classroom.consumers import token_cookie
from tests.factories import make_teacher, started_session

ROOT = Path(__file__).resolve().parent.parent


# --- Content security policy ------------------------------------------------------------------------

def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {words[0]: words[1:] for words in (part.split() for part in header.split(";")) if words}


class _Scripts(HTMLParser):
    """Collects inline scripts and inline event-handler attributes of a page."""

    def __init__(self):
        super().__init__()
        self.inline, self.handlers, self._open = [], [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.handlers += [f"<{tag} {name}=…>" for name in attrs if name.startswith("on")]
        if tag == "script" and "src" not in attrs and attrs.get("type") != "application/json":
            self._open = ""

    def handle_data(self, data):
        if self._open is not None:
            self._open += data

    def handle_endtag(self, tag):
        if tag == "script" and self._open is not None:
            self.inline.append(self._open.strip()[:80])
            self._open = None


def inline_code(html: str) -> list[str]:
    parser = _Scripts()
    parser.feed(html)
    return parser.inline + parser.handlers


@pytest.fixture
def lesson(db):
    """A started session with two students; a client for its teacher and one for a tablet."""
    session, devices = started_session(students=2)
    teacher = Client()
    teacher.force_login(session.teacher)
    tablet = Client()
    tablet.cookies[token_cookie(session.pk)] = devices[0][1]
    return session, devices, teacher, tablet


def test_every_page_has_a_policy_that_allows_only_our_own_scripts(lesson):
    """The play page, the teacher's pages, /check, /join and sign-in carry a policy with scripts
    from our own origin only, no plugins, no framing, and the page's own socket allowed."""
    session, _devices, teacher, tablet = lesson
    pages = [(tablet, reverse("classroom:play", args=[session.pk])),
             (teacher, reverse("classroom:home")),
             (teacher, reverse("classroom:session", args=[session.pk])),
             (teacher, reverse("classroom:session_new")),
             (teacher, reverse("classroom:session_screen", args=[session.pk])),
             (teacher, reverse("scoring:session_reports", args=[session.pk])),
             (teacher, reverse("scoring:session_debrief", args=[session.pk])),
             (Client(), reverse("classroom:check")),
             (Client(), reverse("classroom:join")),
             (Client(), reverse("login"))]
    for client, path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        directives = policy(response)
        assert directives["default-src"] == ["'self'"], path
        assert directives["script-src"] == ["'self'"], path
        assert directives["object-src"] == ["'none'"] and directives["frame-ancestors"] == ["'none'"], path
        assert directives["base-uri"] == ["'self'"] and directives["form-action"] == ["'self'"], path
        assert directives["connect-src"] == ["'self'", "ws://testserver"], path
        assert inline_code(response.content.decode()) == [], path


def test_a_page_served_over_https_allows_its_secure_socket(lesson):
    """Behind TLS the policy names wss:// for this host (older Safari does not match 'self')."""
    session, _devices, _teacher, tablet = lesson
    response = tablet.get(reverse("classroom:play", args=[session.pk]), secure=True)
    assert policy(response)["connect-src"] == ["'self'", "wss://testserver"]


def test_no_template_has_inline_scripts_or_event_handler_attributes():
    """Scripts live in static/js/; data reaches them through json_script or data- attributes."""
    found = []
    for template in sorted((ROOT / "templates").rglob("*.html")):
        text = template.read_text(encoding="utf-8")
        for match in re.finditer(r"<script\b[^>]*>", text):
            if "src=" not in match.group(0):
                found.append(f"{template.relative_to(ROOT)}: {match.group(0)}")
        for match in re.finditer(r"<[a-zA-Z][^>]*?\son[a-z]+\s*=", text):
            found.append(f"{template.relative_to(ROOT)}: {match.group(0)[:60]}")
    assert found == [], "inline code is blocked by the content security policy:\n" + "\n".join(found)
