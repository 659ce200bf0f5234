"""Resort's storm option names each real storm by name and year, never by its id, in the
teacher's language; the debrief and class packet name the storm the same way."""

import re

import pytest
from django.test import Client

from classroom import services
from scenarios.resort.rules import PROGRAMS
from tests.factories import PASSWORD, make_teacher, started_session

pytestmark = pytest.mark.django_db


def storm_options(page):
    """{value: label} of the new-session form's resort storm select."""
    select = re.search(r'<select name="resort__storm"[^>]*>(.*?)</select>', page, re.S).group(1)
    return dict(re.findall(r'<option value="([^"]+)"[^>]*>([^<]*)</option>', select))


@pytest.mark.parametrize(
    "language, surprise",
    [
        ("en", "Surprise me: a real storm drawn at random"),
        ("es", "Sorpresa: una tormenta real elegida al azar"),
        ("nl", "Verrassing: een echte storm, willekeurig gekozen"),
    ],
)
def test_the_storm_choices_read_as_name_and_year_in_the_teachers_language(language, surprise):
    teacher = make_teacher()
    desk = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert desk.login(username=teacher.email, password=PASSWORD)
    page = desk.get("/sessions/new/").content.decode()
    shown = storm_options(page)
    assert shown["katrina-2005"] == "Katrina (2005)"
    assert shown["surprise"] == surprise
    assert set(shown) == {"surprise", *PROGRAMS}
    for key, program in PROGRAMS.items():
        assert shown[key] == f"{program['name']} ({program['year']})"
    assert ">katrina-2005<" not in page and ">Surprise<" not in page


def test_a_session_created_with_a_named_storm_plays_it_and_the_debrief_names_it(client):
    teacher = make_teacher()
    desk = Client(HTTP_ACCEPT_LANGUAGE="es")
    assert desk.login(username=teacher.email, password=PASSWORD)
    session, _devices = started_session(
        students=2, scenario="resort", teacher=teacher, options={"storm": "katrina-2005"}
    )
    services.finish_with_bots(session=session)
    services.end(session=session)
    page = desk.get(f"/sessions/{session.pk}/debrief/").content.decode()
    assert '<html lang="es">' in page
    assert "Katrina (2005)" in page
    assert "katrina-2005" not in page and "Katrina 2005" not in page
