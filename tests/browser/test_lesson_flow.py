"""The teacher's flow around the game in a real browser: asked in the page before starting
with names waiting, and a lesson that ends by itself when every table has finished."""

import re

from playwright.sync_api import expect

from tests.browser.lesson import create_session, student_page, teacher_page
from tests.conftest import in_thread


def _finish_every_table(session_id):
    from classroom.models import Table
    from games import services as games

    for table in Table.objects.filter(session_id=session_id):
        games.finish_with_bots(game_id=table.game_id)


def _status(session_id):
    from classroom.models import Session

    return Session.objects.get(pk=session_id).status


def _waiting(session_id):
    from classroom.models import Participant

    return Participant.objects.filter(session_id=session_id, approved=False).count()


def test_start_asks_in_the_page_then_the_lesson_ends_by_itself(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server, answer_questions=False)
    code, session_id = create_session(teacher, bots=True)
    students = [student_page(browser, asgi_server, code, name) for name in ("Ana", "Ben")]
    expect(teacher.locator(".roster")).to_contain_text("Ben")

    # Start with two names waiting: a question in the page, focus on "Start anyway"; Escape
    # goes back to the list and nothing starts.
    teacher.get_by_role("button", name="Start the game").click()
    question = teacher.get_by_role("alertdialog", name="Some nicknames are not approved")
    expect(question).to_be_visible()
    expect(question).to_contain_text("2 nicknames are still waiting for your approval")
    expect(question.get_by_role("button", name="Start anyway")).to_be_focused()
    teacher.keyboard.press("Escape")
    expect(question).to_be_hidden()
    expect(teacher.get_by_role("button", name="Start the game")).to_be_focused()
    assert in_thread(_status, session_id) == "lobby"

    # "Approve all and start": every name approved, every tablet playing.
    teacher.get_by_role("button", name="Start the game").click()
    question.get_by_role("button", name="Approve all and start").click()
    for page in students:
        expect(page.locator(".evac-actions")).to_be_visible()
    assert in_thread(_waiting, session_id) == 0

    # Every table finishes: the lesson ends by itself and the reports are being written.
    in_thread(_finish_every_table, session_id)
    expect(teacher.locator(".status-line .badge")).to_have_text("Ended", timeout=15_000)
    assert in_thread(_status, session_id) == "ended"
    teacher.get_by_role("link", name="Reports").click()
    expect(teacher.get_by_role("heading", name=re.compile("Debrief reports"))).to_be_visible()
    assert teacher.browser_dialogs == []
