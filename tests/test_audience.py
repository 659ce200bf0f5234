"""What a child sees is the teacher's choice: Gentle (no death tolls) and the age band, set on the
new-session form, reach every tablet board and view, printable, report and family plan, through
one filter (``scenarios.audience``)."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from classroom import services as classroom
from classroom.models import Session
from games.models import Game, Move
from scenarios import registry
from scenarios.audience import Audience
from scoring.models import Report
from tests import pdfs
from tests.factories import PASSWORD, make_session, make_teacher
from tests.scoring.conftest import play_as_students
from tests.scoring.test_reports import print_every_pdf, wait_for_reports

#: a death toll, as English states one (the slogan "Turn around, don't drown" is advice, and the
#: settings' own names "Gentle: no death tolls" and "Frank: death tolls shown…" state none)
DEATH = re.compile(
    r"\b(?<!no )(?<!Frank: )(deaths?|died|dies|killed|fatalit\w*|drownings?|lives lost)\b", re.IGNORECASE
)


def pdf_text(data: bytes) -> str:
    return pdfs.pdf_text(data)


def student_client(session):
    client = Client()
    response = client.post("/join", {"code": session.join_code, "nickname": "Ana", "players": 1})
    assert response.status_code in (200, 302)
    return client


def tablet_board(client, session) -> str:
    page = client.get(f"/play/{session.pk}/").content.decode()
    url = re.search(r'data-board-url="([^"]+)"', page).group(1).replace("&amp;", "&")
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def every_view(game: Game) -> str:
    """Every seat's view after every move of the stored game, replayed from its log: what its
    tablets were sent during play."""
    engine = registry.engine(game.scenario)
    state = engine.setup(game.seed, game.seats, game.options)
    seen = [engine.view(state, seat) for seat in range(game.seats)]
    for move in Move.objects.filter(game=game).order_by("seq"):
        engine.apply(state, move.seat, move.action)
        seen += [engine.view(state, seat) for seat in range(game.seats)]
    return json.dumps(seen)


def test_the_new_session_form_sets_what_students_may_see(db, client):
    """The teacher picks Gentle or Frank and the age band when creating the session; a value
    the form does not offer is refused and creates nothing."""
    teacher = make_teacher()
    client.login(email=teacher.email, password=PASSWORD)
    form = {
        "scenario": "evacuation",
        "seats_per_table": 4,
        "turn_seconds": 60,
        "names": "approve",
        "max_participants": 40,
        "intensity": "frank",
        "age_band": "13+",
        "region": "us_gulf",
    }
    page = client.get(reverse("classroom:session_new")).content.decode()
    assert 'name="intensity"' in page and 'name="age_band"' in page
    client.post(reverse("classroom:session_new"), form)
    session = Session.objects.get(teacher=teacher)
    assert (session.intensity, session.age_band) == ("frank", "13+")
    assert session.audience == Audience("frank", "13+")
    client.post(reverse("classroom:session_new"), {**form, "intensity": "brutal"})
    assert Session.objects.filter(teacher=teacher).count() == 1


def test_one_filter_hides_a_claim_by_death_toll_age_or_missing_source():
    """A claim is kept, emptied or dropped by what it says of itself."""
    card = {
        "id": "C1",
        "title": "Hot car",
        "text": "Use 10 supplies.",
        "basis": "46 died.",
        "source": "x",
        "fact": "f",
        "grade": "O",
        "url": "https://example.org",
        "deaths": True,
        "age_band": "13+",
    }
    role = {
        "name": "Engineer",
        "basis": {
            "text": "Rain flooded homes.",
            "source": "NHC",
            "fact": "g",
            "grade": "O",
            "url": "https://example.org",
        },
    }
    reported = {"basis": {"text": "Gas ran out.", "source": "news", "fact": "h", "grade": "S", "url": None}}
    gentle, frank = Audience.of("gentle", "16+"), Audience.of("frank", "16+")
    assert gentle.redact(card)["basis"] is None and gentle.redact(card)["title"] == "Hot car"
    assert frank.redact(card)["basis"] == "46 died."
    assert Audience.of("frank", "10+").redact(card)["basis"] is None
    assert gentle.redact(role) == role
    assert frank.redact(reported)["basis"] is None
    assert Audience.of("frank", "16+", teacher=True).redact(reported) == reported
    assert card["basis"] == "46 died."  # the content itself is never changed
    citation = {"fact": object(), "n": 1, "repeat": False}  # a report's numbered fact row
    assert gentle.redact({"facts": [citation]}) == {"facts": [citation]}


def test_every_death_toll_in_the_cards_is_tagged_and_kept_from_the_youngest():
    """The content says which claims hold a death toll: a basis whose words state one is tagged
    ``deaths`` and is for 13 and older (so a Frank class of ten-year-olds sees none either)."""
    for key in ("evacuation", "stormfury"):
        board = registry.engine(key).board()
        for node in _claims(board):
            words = node.get("basis") if isinstance(node.get("basis"), str) else node.get("text", "")
            if DEATH.search(words or ""):
                assert node.get("deaths") is True, words
            if node.get("deaths"):
                assert node.get("age_band") in ("13+", "16+"), words


def test_every_checked_death_toll_in_the_knowledge_base_is_for_13_and_older():
    """The guide's promise: Frank shows death tolls to classes of 13 and older only."""
    from scoring.outcomes import read_facts

    for fact in read_facts():
        if fact.get("deaths") and fact["verified"]:
            assert fact["age_band"] in ("13+", "16+"), fact["key"]


def _claims(value):
    if isinstance(value, dict):
        if value.get("fact"):
            yield value
        for item in value.values():
            yield from _claims(item)
    elif isinstance(value, list):
        for item in value:
            yield from _claims(item)


@pytest.mark.django_db(transaction=True)
def test_a_gentle_ten_plus_lesson_shows_no_death_toll_anywhere_and_a_frank_one_does(celery_worker):
    """A Gentle 10+ evacuation lesson played through (students and bots): no death figure on the
    tablet's board or any view it was sent, the printables, the debrief screen, the reports or the
    family plan. The same lesson set Frank for 16+ shows death figures where checked facts have them."""
    session = make_session(turn_timer=False, intensity="gentle", age_band="10+")
    tablet = student_client(session)
    classroom.join(session=session, nickname="Ben")
    classroom.start(session=session)
    session.refresh_from_db()
    play_as_students(session)
    classroom.end(session=session)
    assert wait_for_reports(session)["failed"] == 0
    assert print_every_pdf(session)["failed"] == 0  # the PDFs say no more than the pages

    teacher = Client()
    teacher.login(email=session.teacher.email, password=PASSWORD)
    seen = {
        "board": tablet_board(tablet, session),
        "views": "".join(every_view(t.game) for t in session.tables.select_related("game")),
        "printables": pdf_text(
            teacher.get(reverse("lessons:printables_pdf", args=["evacuation"]) + f"?session={session.pk}").content
        ),
        "debrief": teacher.get(reverse("scoring:session_debrief", args=[session.pk])).content.decode(),
        "plan": tablet.get(reverse("lessons:student_plan", args=[session.pk])).content.decode(),
    }
    for report in Report.objects.filter(session=session):
        seen[f"report {report.pk}"] = report.html
        seen[f"report {report.pk} PDF"] = pdf_text(bytes(report.pdf))
    assert len(seen) >= 8
    students = Report.objects.filter(session=session, kind=Report.Kind.STUDENT)
    # the filter takes out claims, not the citations a report made of facts the class may see
    assert any("No facts matched this report." not in r.html for r in students)
    for where, text in seen.items():
        assert not DEATH.search(text), f"{where}: {DEATH.search(text).group(0)!r}"
    assert "Really happened" in seen["board"] or '"grade":"O"' in seen["board"].replace(" ", "")

    # the same class, Frank and 16+: the checked death figures come back
    Session.objects.filter(pk=session.pk).update(intensity="frank", age_band="16+")
    session.refresh_from_db()
    debrief = teacher.get(reverse("scoring:session_debrief", args=[session.pk])).content.decode()
    assert DEATH.search(debrief)


@pytest.mark.django_db
def test_stormfury_cards_on_tablets_and_paper_follow_the_choice():
    """Stormfury's Evacuate card rests on a checked death statistic: a Frank 13+ class sees it on
    the tablet's board and its printed cards; a Gentle class sees neither, and keeps the card."""
    for intensity, band, shown in (("gentle", "16+", False), ("frank", "13+", True), ("frank", "10+", False)):
        session = make_session(scenario="stormfury", seats_per_table=2, intensity=intensity, age_band=band)
        tablet = student_client(session)
        board = tablet_board(tablet, session)
        assert "Evacuate" in board
        assert bool(DEATH.search(board)) is shown, (intensity, band)
        teacher = Client()
        teacher.login(email=session.teacher.email, password=PASSWORD)
        cards = pdf_text(
            teacher.get(
                reverse("lessons:printables_pdf", args=["stormfury"]) + f"?session={session.pk}&only=cards"
            ).content
        )
        assert bool(DEATH.search(cards)) is shown, (intensity, band)
    outside = pdf_text(teacher.get(reverse("lessons:printables_pdf", args=["stormfury"]) + "?only=cards").content)
    assert not DEATH.search(outside)  # printed outside a session: the gentlest, youngest class
