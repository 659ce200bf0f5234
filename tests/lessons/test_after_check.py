"""The check where the teacher is: a tablet is offered the before-check only once its nickname is
let in; the after-check is opened and closed from the session page and the class debrief; the
debrief and the class packet give no question or answer away before it has closed; the gain
panel speaks plainly first."""

import html as html_lib
import re

import pytest
from django.urls import reverse

from classroom import selectors
from classroom import services as classroom
from classroom.consumers import token_cookie
from lessons import knowledge, panels
from lessons.services import CheckError
from tests.factories import PASSWORD, join_students, make_session, make_teacher
from tests.lessons.test_knowledge_check import answer_all, joined

pytestmark = pytest.mark.django_db


@pytest.fixture
def teacher_client(client):
    teacher = make_teacher()
    client.login(email=teacher.email, password=PASSWORD)
    client.teacher = teacher
    return client


def test_a_tablet_is_offered_the_before_check_only_once_its_nickname_is_let_in(client):
    session = make_session()
    [(ana, token)] = join_students(session, 1)
    assert not ana.approved
    assert selectors.student_state(ana)["check"] is None
    client.cookies[token_cookie(session.pk)] = token
    page = client.get(reverse("lessons:student_check", args=[session.pk])).content.decode()
    assert "Your teacher has not let your nickname in yet." in html_lib.unescape(page)
    assert "kit-question" not in page  # no questions to answer yet
    play = client.get(reverse("classroom:play", args=[session.pk])).content.decode()
    assert re.search(r'<a id="check-link"[^>]* hidden>', play)

    classroom.approve(participant=ana)  # pushes the lobby to the tablet
    ana.refresh_from_db()
    assert selectors.student_state(ana)["check"] == {
        "phase": "before",
        "to_answer": True,
        "url": reverse("lessons:student_check", args=[session.pk]),
    }
    page = client.get(reverse("lessons:student_check", args=[session.pk])).content.decode()
    assert "kit-question" in page


def test_closing_the_after_check_keeps_what_was_sent_and_takes_nothing_more():
    session = make_session()
    ana, ben = [p for p, _token in joined(session, 2)]
    for student in (ana, ben):
        answer_all(student, "before", right=False)
    with pytest.raises(CheckError, match="Open the after-check first"):
        knowledge.close_after(session=session)
    classroom.start(session=session)
    knowledge.open_after(session=session)
    assert knowledge.after_progress(session) == {"state": "open", "answered": 0, "students": 2}
    answer_all(ana, "after", right=True)
    knowledge.close_after(session=session)

    assert knowledge.phase_for(ben) is None and knowledge.phase_open(session) is None
    assert selectors.student_state(ben)["check"] is None  # the tablets drop the link
    with pytest.raises(CheckError, match="Your teacher has closed these questions"):
        answer_all(ben, "after", right=True)
    results = knowledge.class_results(session)
    assert results["paired"] == 1 and results["after_n"] == 1 and results["after"] == 100
    assert knowledge.after_progress(session) == {"state": "closed", "answered": 1, "students": 2}
    with pytest.raises(CheckError, match="closed already"):
        knowledge.open_after(session=session)


def test_the_session_page_and_the_debrief_open_and_close_the_after_check(teacher_client, finished_session):
    session, _devices = finished_session
    session.teacher = teacher_client.teacher
    session.save(update_fields=["teacher"])
    session_url = reverse("classroom:session", args=[session.pk])
    debrief_url = reverse("scoring:session_debrief", args=[session.pk])
    page = teacher_client.get(session_url).content.decode()
    assert "Open the after-check" in page and reverse("lessons:kit_command", args=[session.pk, "open-after"]) in page

    opened = teacher_client.post(reverse("lessons:kit_command", args=[session.pk, "open-after"]), {"back": "session"})
    assert opened.status_code == 302 and opened["Location"] == session_url
    assert knowledge.phase_open(session) == "after"
    page = teacher_client.get(debrief_url).content.decode()
    assert reverse("lessons:kit_command", args=[session.pk, "close-after"]) in page
    closed = teacher_client.post(reverse("lessons:kit_command", args=[session.pk, "close-after"]), {"back": "debrief"})
    assert closed.status_code == 302 and closed["Location"] == debrief_url
    assert knowledge.after_progress(session)["state"] == "closed"
    # any other page to come back to is the kit's
    again = teacher_client.post(
        reverse("lessons:kit_command", args=[session.pk, "close-after"]), {"back": "https://elsewhere.test/"}
    )
    assert again["Location"] == reverse("lessons:kit", args=[session.pk])


def test_the_debrief_shows_no_question_or_answer_until_the_after_check_has_closed(teacher_client):
    session = make_session(teacher=teacher_client.teacher)
    students = [p for p, _token in joined(session, 4)]
    for student in students:
        answer_all(student, "before", right=False)
    classroom.start(session=session)
    knowledge.open_after(session=session)
    for student in students:
        answer_all(student, "after", right=True)
    questions = [knowledge.shown(item).question for item in session.check_items.filter(used=True)]

    shown = html_lib.unescape(panels.debrief(session=session) + panels.debrief_head(session=session))
    assert "Close the after-check" in shown
    assert "Right before" not in shown and not [q for q in questions if q in shown]
    assert panels.debrief(session=session) == ""

    knowledge.close_after(session=session)
    shown = html_lib.unescape(panels.debrief(session=session))
    assert "Right before" in shown and all(q in shown for q in questions)
    assert panels.debrief_head(session=session) == ""


def test_the_gain_panel_says_what_changed_in_plain_words_and_keeps_the_statistics_folded():
    session = make_session()
    students = [p for p, _token in joined(session, 4)]
    for student in students:
        answer_all(student, "before", right=False)
    classroom.start(session=session)
    knowledge.open_after(session=session)
    for student in students:
        answer_all(student, "after", right=True)
    knowledge.close_after(session=session)
    shown = html_lib.unescape(panels.debrief(session=session))
    summary = shown.index("Before the game, 0 in 10 answers were right; after it, 10 in 10.")
    assert "The class got more answers right after the game" in shown
    folded = shown.index("<summary>How this is worked out</summary>")
    assert summary < folded
    for words in ("Normalized gain", "90% interval", "Discrimination", "Guessing alone"):
        assert folded < shown.index(words), f"{words} shows before the disclosure"
