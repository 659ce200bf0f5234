"""The join link shared to a Google Classroom class, for schools without an LMS: a plain link to
Google's documented share address, in a tab of its own, with no Google script on the page."""

from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.utils import translation

from classroom.selectors import join_url
from tests.factories import make_session

pytestmark = pytest.mark.django_db


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.scripts, self._open = [], [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a":
            self._open = {**attrs, "text": ""}
            self.links.append(self._open)
        if tag == "script" and attrs.get("src"):
            self.scripts.append(attrs["src"])

    def handle_endtag(self, tag):
        if tag == "a":
            self._open = None

    def handle_data(self, data):
        if self._open is not None:
            self._open["text"] += data


def _share_link(session, language="en"):
    teacher = Client()
    teacher.force_login(session.teacher)
    with translation.override(language):
        response = teacher.get(f"/sessions/{session.pk}/", HTTP_ACCEPT_LANGUAGE=language)
    page = _Links()
    page.feed(response.content.decode())
    found = [link for link in page.links if link.get("href", "").startswith("https://classroom.google.com/share?")]
    assert len(found) == 1, [link.get("href") for link in page.links]
    return found[0], page.scripts, response


def test_the_session_page_shares_its_join_link_to_classroom():
    session = make_session(title="Period 3 & 4: storms?")
    link, scripts, response = _share_link(session)
    query = parse_qs(urlsplit(link["href"]).query)
    assert query == {"url": [join_url(session)], "title": ["Period 3 & 4: storms?"]}
    # the join link travels encoded whole: its slashes and colon do not leak into Google's address
    assert "url=http%3A%2F%2F" in link["href"] and "&title=Period+3+%26+4%3A+storms%3F" in link["href"]
    assert link["target"] == "_blank" and set(link["rel"].split()) == {"noopener", "noreferrer"}
    assert link["text"].strip().startswith("Share to Classroom") and "opens in a new tab" in link["text"]
    # a plain link: nothing of Google's loads, and the policy still allows only our own scripts
    assert not [src for src in scripts if "google" in src]
    assert "script-src 'self';" in response["Content-Security-Policy"] + ";"


@pytest.mark.parametrize("language, words", [("es", "Compartir en Classroom"), ("nl", "Delen in Classroom")])
def test_the_share_link_speaks_the_teachers_language(language, words):
    link, _scripts, _response = _share_link(make_session(), language)
    assert link["text"].strip().startswith(words)
