"""Dollars and numbers on paper as the reader's language writes them, the way the tablets do
(``static/js/kit.js`` money()/num()): a Spanish printable or report says "200.000 $", a Dutch one
"$ 200.000", an English one "$200,000"; amounts stay US dollars."""

import json
import re
import shutil
import subprocess

import pytest
from django.urls import reverse
from django.utils import translation

from classroom.models import Seat
from scenarios import words
from scoring import reports
from tests import pdfs
from tests.factories import PASSWORD, make_teacher, started_session
from tests.lessons.test_kit_pages import pdf_text

AMOUNTS = [0, 5, 200, 1200, 25000, 200000, 12345678, -2000]
NUMBERS = [0, 7, 1200, 12345, 300000, 2.5, 1234.5, -12345]


def tablet(language):
    """What the tablets' Intl writes for AMOUNTS and NUMBERS in ``language`` (kit.js's options)."""
    script = (
        "const [l, a, n] = JSON.parse(process.argv[1]);"
        "const f = new Intl.NumberFormat(l, {style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol',"
        " minimumFractionDigits: 0, maximumFractionDigits: 0});"
        "console.log(JSON.stringify([a.map(x => f.format(x)), n.map(x => Number(x).toLocaleString(l))]));"
    )
    node = shutil.which("node")
    assert node, "node is needed to compare with the tablets' Intl"
    out = subprocess.run(
        [node, "-e", script, json.dumps([language, AMOUNTS, NUMBERS])], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize("language", ["en", "es", "nl"])
def test_paper_writes_amounts_and_numbers_as_the_tablet_does(language):
    with translation.override(language):
        paper = [[words.money(a) for a in AMOUNTS], [words.number(n) for n in NUMBERS]]
    assert paper == tablet(language)


def test_each_language_writes_a_big_amount_its_own_way():
    shown = {}
    for language in ("en", "es", "nl"):
        with translation.override(language):
            shown[language] = (words.money(200000), words.number(12.5, 1))
    assert shown == {"en": ("$200,000", "12.5"), "es": ("200.000\xa0$", "12,5"), "nl": ("$\xa0200.000", "12,5")}


def plain(text):
    return text.replace("\xa0", " ")


@pytest.mark.django_db
def test_the_resort_printables_price_the_resorts_in_the_readers_language(client):
    teacher = make_teacher()
    client.login(email=teacher.email, password=PASSWORD)
    url = reverse("lessons:printables_pdf", args=["resort"]) + "?only=cards"
    expected = {"en": "$200,000", "es": "200.000 $", "nl": "$ 200.000"}
    for language, amount in expected.items():
        text = plain(pdf_text(client.get(url, HTTP_ACCEPT_LANGUAGE=language)))
        assert amount in text, language
        assert [other for other in expected.values() if other != amount and other in text] == [], language


@pytest.mark.django_db
def test_a_resort_report_counts_its_dollars_in_the_readers_language():
    from classroom import services as classroom

    session, devices = started_session(students=2, scenario="resort")
    classroom.finish_with_bots(session=session)
    classroom.end(session=session)
    seat = Seat.objects.get(participant=devices[0][0])
    texts = {}
    for language in ("en", "es", "nl"):
        with translation.override(language):
            pdf = reports.printed(session, reports.seat_report(session, seat)[0], seat)
        texts[language] = plain(pdfs.pdf_text(pdf))
    assert re.search(r"\$\d", texts["en"])
    # Spanish puts the sign after the amount, Dutch before it with a space; never "$12,000"
    assert re.search(r"\d \$", texts["es"]) and not re.search(r"\$ ?\d", texts["es"])
    assert re.search(r"\$ \d", texts["nl"]) and not re.search(r"\$\d|\d,\d{3}", texts["nl"])
