"""Every PDF the project prints is tagged PDF/UA: ``pdfinfo`` says "Tagged: yes", a screen reader
walking its structure tree meets the title before the body and the sections in the page's order,
every picture has its alternative text, and the document's language is the page's."""

import html
import logging
import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from classroom import services as classroom
from lessons import printing, services
from scenarios import registry
from scenarios.audience import Audience
from scoring import reports
from tests import pdfs
from tests.factories import started_session

pytestmark = pytest.mark.django_db


def _headings(page: str) -> list[str]:
    return [
        " ".join(html.unescape(re.sub(r"<[^>]+>", "", h)).split())
        for h in re.findall(r"<h[12][^>]*>(.*?)</h[12]>", page, re.S)
    ]


def check_tagged(pdf: bytes, language: str, page: str | None = None, *, tree: bool = True):
    """``pdf`` is tagged and in ``language``; with the ``page`` it was printed from, its text
    (``pdftotext``) holds the page's headings in the page's order, and (``tree``) a screen reader
    walking the structure tree meets the page's title, as a first-level heading, before anything."""
    assert pdfs.info(pdf)["Tagged"] == "yes"
    assert pdfs.language(pdf) == language
    if page is None:
        return
    headings = _headings(page)
    text = pdfs.pdf_text(pdf)
    at = 0
    for heading in headings:
        found = text.find(heading, at)
        assert found >= 0, f"{heading!r} is not printed after what comes before it"
        at = found + len(heading)
    if tree:
        pieces = pdfs.structure(pdf)
        read = " ".join(" ".join(text for _tag, text in pieces).split())
        assert pieces[0][0] == "H1" and read.startswith(headings[0]), pieces[:3]


@pytest.fixture
def no_missing_alt(caplog):
    """WeasyPrint logs each picture it tagged without alternative text."""
    caplog.set_level(logging.ERROR, logger="weasyprint")
    yield
    assert not [r.getMessage() for r in caplog.records if "alt description" in r.getMessage()]


@pytest.mark.parametrize("key", registry.keys())
def test_every_kit_pdf_is_tagged_and_read_in_order(key, no_missing_alt):
    scenario = registry.get(key)
    session, devices = started_session(students=2, scenario=key)
    with translation.override("nl"):
        page = render_to_string("lessons/print_guide.html", services.guide_context(scenario, session))
        check_tagged(printing.guide_pdf(scenario, session), "nl", page)
        if scenario.how_to_play:
            check_tagged(printing.how_to_play_pdf(scenario, scenario.how_to_play, session), "nl")
    with translation.override("es"):
        printables = scenario.kit.printables[:2]  # each printable is drawn alike; two keep it short
        page = printing.printables_html(scenario, printables, Audience(), session)
        check_tagged(printing.printables_pdf(scenario, printables, Audience(), session), "es", page, tree=False)
        check_tagged(printing.handout_pdf(session), "es")
        plan = services.family_plan_blank(session)
        page = render_to_string("lessons/print_plan.html", {"plan": plan, "paper": plan["paper"]})
        check_tagged(printing.plan_pdf(plan), "es", page)


@pytest.mark.parametrize("key", registry.keys())
def test_every_report_pdf_is_tagged_in_the_reports_language(key, no_missing_alt):
    session, devices = started_session(students=2, scenario=key)
    classroom.finish_with_bots(session=session)
    classroom.end(session=session)
    seat = next(s for t in session.tables.all() for s in t.seats.all() if s.participant_id)
    with translation.override("nl"):
        page, _data = reports.seat_report(session, seat)
        check_tagged(reports.printed(session, page, seat), "nl", page)
    with translation.override("es"):
        page, _data = reports.class_packet(session)
        check_tagged(reports.printed(session, page), "es", page)
