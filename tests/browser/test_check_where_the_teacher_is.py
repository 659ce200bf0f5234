"""The knowledge check where the teacher and the child are, in real browsers: a tablet offers the
before-check only once the teacher lets its nickname in (live, no reload), and keeps the rules
played and its connection's round trip under "Details"; when play ends the teacher opens the
after-check from the session page, the class debrief shows no question or answer until they
close it from the debrief page, a student still answering is told it closed, and the gain
panel then says in plain words what changed, its statistics under "How this is worked out"."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.lesson import create_session, student_page, teacher_page
from tests.browser.test_lesson_kit import answer
from tests.conftest import in_thread

pytestmark = pytest.mark.browser


def test_the_before_check_waits_for_approval_and_technical_details_are_folded(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server)
    code, _session_id = create_session(teacher, bots=True)
    student = student_page(browser, asgi_server, code, "Ana")
    lobby = student.locator(".lobby")
    expect(lobby).to_contain_text("Your teacher will check your nickname")
    # not let in yet: no questions offered, in the lobby or in the page's links
    expect(lobby.get_by_role("link", name="Questions before we play")).to_have_count(0)
    expect(student.locator("#check-link")).to_be_hidden()

    # No technical words for the child: the rules played and the round trip wait under "Details".
    details = student.locator("#tech-details")
    expect(details.locator(".rtt")).to_have_text(re.compile(r"Connection: \d+ ms there and back"))
    expect(student.get_by_text("Rules played: Tuned for class (default)")).to_be_hidden()
    expect(details.locator(".rtt")).to_be_hidden()
    details.get_by_text("Details", exact=True).click()
    expect(student.get_by_text("Rules played: Tuned for class (default)")).to_be_visible()
    expect(details.locator(".rtt")).to_be_visible()

    # The teacher lets Ana in: her tablet offers the before-check at once, with no reload.
    teacher.get_by_role("button", name="Approve: Ana").click()
    expect(lobby.get_by_role("link", name="Questions before we play")).to_be_visible()
    expect(student.locator("#check-link")).to_be_visible()
    expect(details.locator(".rtt")).to_be_visible()  # the disclosure stayed open through the update
    for page in (teacher, student):
        page.context.close()


def _questions(session_id):
    """Every question of the session's check, in English (as the teacher's pages show them)."""
    from classroom.models import Session
    from lessons import knowledge

    session = Session.objects.get(pk=session_id)
    return [knowledge.shown(item).question for item in session.check_items.filter(used=True)]


def test_the_after_check_opens_on_the_session_page_and_closes_before_the_answers(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server)
    code, session_id = create_session(teacher, bots=True)
    students = {name: student_page(browser, asgi_server, code, name) for name in ("Ana", "Ben")}
    for name in students:
        teacher.get_by_role("button", name=f"Approve: {name}").click()
    ana, ben = students["Ana"], students["Ben"]
    ana.locator(".lobby").get_by_role("link", name="Questions before we play").click()
    asked = answer(ana, session_id, "Ana", "before", right=False)
    ana.get_by_role("link", name="Back to the game").click()

    teacher.get_by_role("button", name="Start the game").click()
    expect(ana.locator("#screen .lobby")).to_have_count(0)  # the game is on the tablet
    teacher.get_by_role("button", name="Finish with bots").click()
    expect(teacher.locator(".status-line .badge")).to_have_text("Ended", timeout=30_000)

    # Where the teacher stands when play ends: the session page opens the after-check.
    card = teacher.locator(".kit-after")
    expect(card).to_contain_text("When play ends, open the after-check")
    card.get_by_role("button", name="Open the after-check").click()
    expect(teacher).to_have_url(re.compile(rf"/sessions/{session_id}/$"))
    expect(teacher.locator(".kit-after-state")).to_have_text(
        "The after-check is open: 0 of 2 students have answered. Close it once the class has answered; "
        "then the debrief shows the questions and answers."
    )
    for page in students.values():  # the tablets follow at once
        expect(page.locator("#check-link")).to_have_text("Questions after the game")
    ben.locator("#check-link").click()
    expect(ben.get_by_role("heading", name="After the game")).to_be_visible()

    # The class debrief on the projector gives nothing away while the after-check is open.
    teacher.get_by_role("link", name="Class debrief").click()
    expect(teacher.get_by_role("button", name="Close the after-check")).to_be_visible()
    expect(teacher.locator(".kit-panel")).to_have_count(0)
    shown = teacher.locator("main").inner_text()
    assert "Right before" not in shown
    assert not [q for q in in_thread(_questions, session_id) if q in shown]

    ana.locator("#check-link").click()
    answer(ana, session_id, "Ana", "after", right=True)
    teacher.get_by_role("button", name="Close the after-check").click()
    expect(teacher).to_have_url(re.compile(rf"/sessions/{session_id}/debrief/$"))
    expect(teacher.get_by_role("button", name="Close the after-check")).to_have_count(0)

    # Ben was still answering: his answers are refused, plainly, and his tablet drops the link.
    for radio in ben.locator("fieldset.kit-question").all():
        radio.locator("input[type=radio]").first.check()
    ben.get_by_role("button", name="Send my answers").click()
    expect(ben.get_by_role("alert")).to_have_text(
        "Your teacher has closed these questions, so these answers were not saved. Thank you for trying!"
    )
    ben.get_by_role("link", name="Back to the game").click()
    expect(ben.locator(".evac-results")).to_be_visible()
    expect(ben.locator("#check-link")).to_be_hidden()

    # Now the debrief shows what changed, in plain words first; the statistics are one tap away.
    panel = teacher.locator(".kit-panel")
    expect(panel.get_by_role("status")).to_have_text("Before the game, 0 in 10 answers were right; after it, 10 in 10.")
    expect(panel.locator("table.kit-items tbody tr")).to_have_count(2 * asked)
    expect(panel.locator(".kit-gain")).to_be_hidden()
    expect(panel.get_by_text("Discrimination", exact=True).first).to_be_hidden()
    panel.get_by_text("How this is worked out").click()
    expect(panel.locator(".kit-gain")).to_have_text("Normalized gain: 1.00 (90% interval 1.00 to 1.00).")
    for page in (teacher, ana, ben):
        page.context.close()
