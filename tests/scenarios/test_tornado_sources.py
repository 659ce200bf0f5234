"""Tornado Alert!'s debrief, reports and after-check cite as a family would need: a safety note
the class may not see is left out whole (never "reported by None; grade None"), only tornado
facts (no hurricane's category-4 roofs or deaths), each source listed once, and the after-check's
facts with their grade and address."""

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from scenarios.tornado_alert import rules
from scoring import reports
from scoring import services as scoring
from scoring.models import Fact
from tests.factories import PASSWORD, ended_session

pytestmark = pytest.mark.django_db
HURRICANE_FACTS = ("cat4-damage", "what-kills-1963-2012")


def _played(seed=42):
    return ended_session(3, scenario="tornado_alert", seats_per_table=3, seed=seed)


def _text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _sources(html):
    footer = html[html.rindex("Sources") :]
    return re.findall(r"<li>(.*?)</li>", footer, re.S)


def test_the_debrief_shows_no_note_without_its_source_and_no_hurricane_facts(client):
    session = _played()
    client.login(email=session.teacher.email, password=PASSWORD)
    with translation.override("en"):
        page = client.get(reverse("scoring:session_debrief", args=[session.pk])).content.decode()
    text = _text(page)
    assert "None" not in text
    # every note the class sees names its source and grade
    notes = re.findall(r'<ul class="db-notes">(.*?)</ul>', page, re.S)[0]
    for note in re.findall(r"<li>(.*?)</li>", notes, re.S):
        assert re.search(r"safety advice as reported by [A-Z][^;]+; grade [OSU]", _text(note)), note
    for key in HURRICANE_FACTS:
        assert Fact.objects.get(key=key).statement not in text
    sources = _sources(page)
    assert sources and len(sources) == len(set(sources)), sources  # each source once
    assert sum("weather.gov/safety/tornado-during" in s for s in sources) == 1


def test_a_place_whose_note_the_class_may_not_see_is_left_out_whole():
    """The flying-debris note is only reported (grade S): the class's page leaves it out, with
    its text, rather than show it without a source."""
    session = _played()
    template, context = scoring.debrief_page(session)
    shown = context["summary"]["notes"]
    debris = [n for n in shown if n["place"] == rules.LOCATIONS["rooftop"]["name"]]
    assert all(n["basis"] is None for n in debris)
    with translation.override("en"):
        text = _text(render_to_string(template, context))
    assert "None" not in text
    assert rules.LOCATIONS["rooftop"]["basis"]["text"] not in text


def test_a_students_report_has_no_hurricane_facts_and_lists_each_source_once():
    session = _played()
    seat = session.tables.first().seats.filter(participant__isnull=False).first()
    with translation.override("en"):
        html, data = reports.seat_report(session, seat, progress=lambda *a: None)
    text = _text(html)
    assert "None" not in text
    assert not set(HURRICANE_FACTS) & set(data["facts"])
    for key in HURRICANE_FACTS:
        assert Fact.objects.get(key=key).statement not in text
    sources = re.findall(r"<li>(.*?)</li>", html[html.index('class="sources"') :], re.S)
    assert sources and len(sources) == len(set(sources)), sources


def test_the_after_check_feedback_gives_each_fact_its_grade_and_address():
    fact = Fact.objects.get(key="tornado-interior-room")
    row = {"key": "p", "objective": "", "fact": fact, "before": None, "after": None, "change": None}
    results = {"items": [row], "before": 0, "before_n": 0, "after": 0, "after_n": 0}
    with translation.override("en"):
        html = render_to_string("lessons/_own_table.html", {"results": results})
    assert f'<a href="{fact.url}">{fact.url}</a>' in html
    assert f"grade {fact.confidence}" in html
