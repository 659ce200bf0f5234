"""Each tablet plays in the language it chose; the teacher's screens keep the teacher's; reports
are written in their reader's language."""

import json

import pytest
from django.test import Client

from classroom import services
from classroom.models import Participant
from tests.factories import PASSWORD, make_session, make_teacher

pytestmark = pytest.mark.django_db


def tablet(language_header):
    return Client(HTTP_ACCEPT_LANGUAGE=language_header)


def join(client, session, nickname):
    answer = client.post("/join", {"code": session.join_code, "nickname": nickname, "players": 1})
    assert answer.status_code == 302, answer.content.decode()[:500]
    return Participant.objects.get(session=session, nickname=nickname)


def test_each_tablet_joins_in_its_browsers_language():
    """Three tablets at one table: English, Mexican Spanish and Dutch browsers."""
    session = make_session()
    english, spanish, dutch = tablet("en-US,en"), tablet("es-MX,es;q=0.9,en;q=0.5"), tablet("nl-NL,nl;q=0.9")
    assert "Join a lesson" in english.get("/join").content.decode()
    assert "Entrar en una clase" in spanish.get("/join").content.decode()
    assert "Meedoen aan een les" in dutch.get("/join").content.decode()
    people = {
        name: join(client, session, name) for name, client in (("Ann", english), ("Bea", spanish), ("Cas", dutch))
    }
    assert {name: p.language for name, p in people.items()} == {"Ann": "en", "Bea": "es", "Cas": "nl"}
    for client, words, lang in (
        (english, "Loading your game…", "en"),
        (spanish, "Cargando tu juego…", "es"),
        (dutch, "Je spel wordt geladen…", "nl"),
    ):
        page = client.get(f"/play/{session.pk}/").content.decode()
        assert f'<html lang="{lang}">' in page and words in page


def test_a_student_changes_language_on_the_tablet_during_the_game():
    """The picker on the play page switches that tablet (and its report) to the language chosen."""
    session = make_session()
    client = tablet("en")
    student = join(client, session, "Dee")
    answer = client.post("/i18n/setlang/", {"language": "nl", "next": f"/play/{session.pk}/"})
    assert answer.status_code == 302 and answer["Location"] == f"/play/{session.pk}/"
    page = client.get(f"/play/{session.pk}/").content.decode()
    assert '<html lang="nl">' in page and "Taal" in page
    student.refresh_from_db()
    assert student.language == "nl"
    catalogue = client.get("/jsi18n/").content.decode()
    assert "Jouw beurt" in catalogue and "Kaart van het schiereiland" in catalogue


def test_an_unknown_language_changes_nothing():
    session = make_session()
    client = tablet("es")
    student = join(client, session, "Eli")
    client.post("/i18n/setlang/", {"language": "xx", "next": f"/play/{session.pk}/"})
    client.get(f"/play/{session.pk}/")
    student.refresh_from_db()
    assert student.language == "es"


def test_the_teachers_pages_keep_the_teachers_language():
    teacher = make_teacher()
    session = make_session(teacher=teacher)
    join(tablet("es"), session, "Flo")
    desk = Client(HTTP_ACCEPT_LANGUAGE="nl")
    assert desk.login(username=teacher.email, password=PASSWORD)
    dashboard = desk.get(f"/sessions/{session.pk}/").content.decode()
    assert '<html lang="nl">' in dashboard and "Deelname" in dashboard
    assert "Proyector" not in desk.get(f"/sessions/{session.pk}/screen").content.decode()
    desk.post(f"/sessions/{session.pk}/do/start")
    desk.post(f"/sessions/{session.pk}/do/end-now")
    session.refresh_from_db()
    assert session.language == "nl"  # the class packet is written in it


def test_a_refused_tap_is_explained_in_the_tablets_language():
    """The HTTP fallback (and the socket) answer a refusal in the student's language."""
    session = make_session()
    client = tablet("es")
    join(client, session, "Gus")
    services.start(session=session)
    answer = client.post(f"/play/{session.pk}/act", data="{not json", content_type="application/json")
    assert answer.json()["message"] == "No se pudo leer ese mensaje."


def test_an_engines_refusal_is_explained_in_the_tablets_language():
    """The engine says why in English; the web layer gives the student its translation."""
    session = make_session()
    client = tablet("es")
    join(client, session, "Ivo")
    services.start(session=session)
    held = client.get(f"/play/{session.pk}/poll").json()["views"][0]
    frame = {
        "type": "act",
        "id": "reason-without-question-1",
        "seat": held["seat"],
        "version": held["version"],
        "action": {"type": "reason", "about": "leave", "choice": "warning"},
    }
    answer = client.post(f"/play/{session.pk}/act", data=json.dumps(frame), content_type="application/json").json()
    assert answer["code"] == "no_question"
    assert answer["message"] == "Ahora no hay ninguna pregunta que responder."


@pytest.mark.parametrize(
    "language, sentence",
    [
        ("en", "Choose the public shelter as your destination first."),
        ("es", "Primero elige este lugar como destino: Refugio público."),
        ("nl", "Kies eerst deze plek als bestemming: Openbare opvang."),
    ],
)
def test_an_engines_refusal_with_a_name_in_it_is_explained_in_the_tablets_language(language, sentence):
    """A refusal that names a place: the sentence and the place's name are both the tablet's."""
    session = make_session()
    client = tablet(language)
    join(client, session, "Jo")
    services.start(session=session)
    held = client.get(f"/play/{session.pk}/poll").json()["views"][0]
    frame = {
        "type": "act",
        "id": "shelter-before-choosing-1",
        "seat": held["seat"],
        "version": held["version"],
        "action": {"type": "drive", "to": "SH"},
    }
    answer = client.post(f"/play/{session.pk}/act", data=json.dumps(frame), content_type="application/json").json()
    assert answer["code"] == "choose_destination_first"
    assert answer["message"] == sentence


def test_numbers_in_an_engines_refusal_are_written_the_readers_way():
    """The engine's English groups thousands with commas; a Dutch tablet reads its own grouping."""
    from django.utils import translation

    from games.refusals import Refused
    from scenarios.base import IllegalAction
    from scenarios.words import gettext_noop

    error = IllegalAction("bad_amount", gettext_noop("Choose $500, $1,000, ... up to $%(most)s."), most=2000)
    assert error.message == "Choose $500, $1,000, ... up to $2,000."
    with translation.override("nl"):
        assert (
            Refused.from_illegal(error, "evacuation").message
            == "Kies een bedrag in stappen van $\u00a0500, tot $\u00a02.000."
        )
    with translation.override("en"):
        assert Refused.from_illegal(error, "evacuation").message == error.message


@pytest.mark.parametrize(
    "language, label, description, choice",
    [
        (
            "en",
            "Points for arriving early",
            "15 points for arriving at least a day before the tropical-storm winds",
            "Round the table",
        ),
        (
            "es",
            "Puntos por llegar temprano",
            "15 puntos por llegar al menos un día antes de los vientos de tormenta tropical",
            "Por turnos en la mesa",
        ),
        (
            "nl",
            "Punten voor vroeg aankomen",
            "15 punten voor aankomen minstens een dag voor de tropische-stormwinden",
            "Om de beurt aan tafel",
        ),
    ],
)
def test_the_new_session_forms_scenario_options_are_in_the_teachers_language(language, label, description, choice):
    """An engine's options (label, explanation, the words of its choices) come from the engine in
    English; the teacher's form shows them in the teacher's language."""
    teacher = make_teacher()
    desk = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert desk.login(username=teacher.email, password=PASSWORD)
    page = desk.get("/sessions/new/").content.decode()
    assert f'<html lang="{language}">' in page
    assert label in page and description in page
    assert f'<option value="round_table">{choice}</option>' in page
    if language != "en":
        assert "Points for arriving early" not in page and "Race points" not in page
