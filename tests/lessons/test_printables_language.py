"""The kit's PDFs in the reader's language: a Spanish or Dutch teacher's printables carry the
game's content words (card titles, places, roles) in that language, not the English of the
content files, and a student's family plan cites its facts in the student's language.

Each language's PDF is printed of the printables that carry the words (``?only=``), and the
whole kit's page, as the printer is given it, is read for English: the same checks without
printing every board and program sheet three times over (the kit tests print the whole kit)."""

import html

import pytest
from django.urls import reverse
from django.utils import translation

from classroom.consumers import token_cookie
from lessons import printing
from scenarios.audience import Audience
from scenarios.registry import get
from tests.factories import PASSWORD, make_teacher
from tests.lessons.test_kit_pages import pdf_text

pytestmark = pytest.mark.django_db


# (scenario, the printables that carry them, English content words, the same in Spanish, in
# Dutch): card titles, places, roles
WORDS = [
    (
        "evacuation",
        ["cards", "board"],
        ["Contraflow!", "Gridlock", "Relative's home"],
        ["¡Contraflujo!", "Atasco total", "Casa de un familiar"],
        ["Tegenstroom!", "Verkeersinfarct", "Huis van familie"],
    ),
    (
        "stormfury",
        ["cards"],
        ["Rapid intensification", "Aquatic Engineer"],
        ["Intensificación rápida", "Ingeniera hidráulica"],
        ["Snelle versterking", "Waterbouwkundige"],
    ),
    (
        "resort",
        ["cards"],
        ["Hurricane drill", "Busy season"],
        ["Simulacro de huracán", "Temporada alta"],
        ["Orkaanoefening", "Druk seizoen"],
    ),
    (
        "tornado_alert",
        ["cards"],
        ["from a storm cellar"],
        ["desde un refugio subterráneo"],
        ["vanuit een schuilkelder"],
    ),
]


@pytest.fixture
def teacher_client(client):
    teacher = make_teacher()
    client.login(email=teacher.email, password=PASSWORD)
    return client


@pytest.mark.parametrize("scenario, printables, english, spanish, dutch", WORDS, ids=[w[0] for w in WORDS])
def test_the_printables_carry_the_content_words_in_the_teachers_language(
    teacher_client, scenario, printables, english, spanish, dutch
):
    url = reverse("lessons:printables_pdf", args=[scenario])
    game = get(scenario)
    for language, words in (("en", english), ("es", spanish), ("nl", dutch)):
        text = "\n".join(
            pdf_text(teacher_client.get(f"{url}?only={key}", HTTP_ACCEPT_LANGUAGE=language)) for key in printables
        )
        assert [w for w in words if w not in text] == [], language
        if language != "en":
            assert [w for w in english if w in text] == [], language
            # and nowhere in the whole kit, as the printer is given it
            with translation.override(language):
                page = html.unescape(printing.printables_html(game, game.kit.printables, Audience()))
            assert [w for w in english if w in page] == [], language


def test_the_family_plan_cites_its_facts_in_the_students_language(client, finished_session):
    session, devices = finished_session
    _participant, token = devices[0]
    client.cookies[token_cookie(session.pk)] = token
    url = reverse("lessons:student_plan_pdf", args=[session.pk])
    english = pdf_text(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert "gallon of water per person per day" in english
    spanish = pdf_text(client.get(url, HTTP_ACCEPT_LANGUAGE="es"))
    assert "galón de agua por persona y día" in spanish and "gallon of water" not in spanish
    assert "Nuestro plan familiar de emergencia" in spanish
    dutch = pdf_text(client.get(url, HTTP_ACCEPT_LANGUAGE="nl"))
    assert "Ons noodplan voor het gezin" in dutch
    assert "gallon of water" not in dutch and "per persoon per dag" in dutch
