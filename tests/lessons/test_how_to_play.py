"""Each game's one-minute "how to play" card: one tap from the game on the tablet, in the
student's language, printable by the teacher; and the printables a teacher hands out show no
program keys or file paths."""

import io
import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from classroom.consumers import token_cookie
from lessons import printing
from scenarios import registry
from scenarios.audience import Audience
from tests.factories import PASSWORD, join_students, make_session, make_teacher
from tests.lessons.test_kit_pages import pdf_text

pytestmark = pytest.mark.django_db
GAMES = ["evacuation", "stormfury", "resort", "bermuda", "tornado_alert"]
# Words of the program, not of the lesson: file paths, content files, Python values, template tags.
PROGRAM_WORDS = re.compile(r"scenarios/|RULES\.md|\.json\b|\.py\b|\b[a-z_]+\.[a-z_]+ (True|False|None)\b|\{\{|\{%")


def _text(html: str) -> str:
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.mark.parametrize("scenario", GAMES)
def test_the_game_links_its_card_and_the_card_reads_in_the_students_language(client, scenario):
    session = make_session(scenario=scenario)
    ((participant, token),) = join_students(session, 1)
    client.cookies[token_cookie(session.pk)] = token
    play = client.get(reverse("classroom:play", args=[session.pk])).content.decode()
    url = reverse("lessons:how_to_play", args=[scenario])
    assert f'href="{url}?session={session.pk}"' in play

    card = registry.get(scenario).how_to_play
    assert 3 <= len(card.steps) <= 5  # a minute's reading
    with translation.override("en"):
        goal = str(card.goal)
    english = _text(client.get(f"{url}?session={session.pk}", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert goal in english and "Back to the game" in english
    for language in ("es", "nl"):
        shown = _text(client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode())
        assert goal not in shown, f"{scenario}: the card is not translated into {language}"
        assert not PROGRAM_WORDS.search(shown)


def test_the_teacher_prints_the_card_on_the_classs_paper(client):
    teacher = make_teacher()
    client.login(email=teacher.email, password=PASSWORD)
    session = make_session(teacher=teacher, scenario="bermuda", region="nl_be")
    response = client.get(
        reverse("lessons:how_to_play_pdf", args=["bermuda"]) + f"?session={session.pk}", HTTP_ACCEPT_LANGUAGE="nl"
    )
    pages = PdfReader(io.BytesIO(response.content)).pages
    assert len(pages) == 1 and round(float(pages[0].mediabox.width)) == 595  # one A4 page
    assert "Zo speel je" in pdf_text(response)
    guide = client.get(reverse("lessons:guide", args=["bermuda"])).content.decode()
    assert reverse("lessons:how_to_play_pdf", args=["bermuda"]) in guide


def test_the_printed_card_is_for_teachers_only(client):
    response = client.get(reverse("lessons:how_to_play_pdf", args=["resort"]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize("scenario", GAMES)
@pytest.mark.parametrize("language", ["en", "es", "nl"])
def test_printables_show_no_program_keys_or_file_paths(scenario, language):
    game = registry.get(scenario)
    with translation.override(language):
        html = printing.printables_html(game, game.kit.printables, Audience())
    found = PROGRAM_WORDS.search(_text(html))
    assert not found, f"{scenario} ({language}) printables show {found.group(0)!r}"
