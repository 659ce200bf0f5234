"""A lesson with the knowledge check, in real browsers: the check is on for the new session, a
student let in answers the before-check from the lobby, plays, the teacher ends the lesson and opens
the after-check, the tablet follows without a reload, the student answers the other form and sees
what changed, and once the teacher closes the after-check the gain shows on the class debrief, in the class packet and in the student's
own report (written by a real Celery worker). Screenshots of the
kit's pages at four sizes go to ``$SHOTS``, if set."""

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import check_axe
from tests.browser.lesson import create_session, play_to_the_end, student_page, teacher_page
from tests.browser.shots import shoot
from tests.conftest import in_thread

pytestmark = pytest.mark.browser
SIZES = {"tablet": (768, 1024), "landscape": (1024, 768), "chromebook": (1366, 650), "phone": (390, 844)}


def _answers(session_id, nickname, phase):
    """item id -> (right answer, a wrong one) for the student's items in this phase."""
    from classroom.models import Participant
    from lessons import knowledge

    participant = Participant.objects.get(session_id=session_id, nickname=nickname)
    return {
        s.item.pk: (s.item.answer, next(c for c in s.order if c != s.item.answer))
        for s in knowledge.items_for(participant, phase)
    }


def answer(page, session_id, nickname, phase, *, right):
    """Answer every question on the check page by keyboard-reachable radios, then send."""
    answers = in_thread(_answers, session_id, nickname, phase)
    expect(page.locator("fieldset.kit-question")).to_have_count(len(answers))
    for item_id, (good, bad) in answers.items():
        page.locator(f"input[name='{item_id}'][value='{good if right else bad}']").check()
    page.get_by_role("button", name="Send my answers").click()
    expect(page.get_by_role("heading", name="Thank you!")).to_be_visible()
    return len(answers)


def at_every_size(page, name, whole_page=True):
    """At the four sizes, a screenshot at each (``shots.shoot``): the kit's own pages never scroll sideways (on a scenario's
    debrief page, which is the projector's, only the kit's panel is held to it)."""
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        shoot(page, f"{name}-{size}")
        sideways = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
            if whole_page
            else "() => { const p = document.querySelector('.kit-panel'); return p.scrollWidth - p.clientWidth; }"
        )
        assert sideways <= 1, f"{name} scrolls sideways at {size}"
    page.set_viewport_size({"width": 1366, "height": 768})


def _let_in(session_id):
    from classroom import services
    from classroom.models import Session

    services.approve_all(session=Session.objects.get(pk=session_id))


@pytest.mark.long
def test_a_lesson_with_the_check_shows_the_gain_on_the_debrief_and_in_both_reports(browser, asgi_server, celery_worker):
    teacher = teacher_page(browser, asgi_server)
    code, session_id = create_session(teacher, bots=True)

    # The check is on for every new session; the kit is one tap from the session page.
    teacher.get_by_role("link", name="Lesson kit").click()
    expect(teacher.locator(".kit-state")).to_have_text("On: students answer in the lobby, before play.")
    check_axe(teacher, "the lesson kit")
    at_every_size(teacher, "kit")
    teacher.get_by_role("link", name="Lesson guide", exact=True).click()
    expect(teacher.get_by_role("heading", name="A 45-minute period")).to_be_visible()
    at_every_size(teacher, "guide")

    student = student_page(browser, asgi_server, code, "Ana")
    in_thread(_let_in, session_id)  # only students the teacher let in answer the check
    # The before-check is part of the lobby, once the teacher let the student in.
    student.locator(".lobby").get_by_role("link", name="Questions before we play").click()
    expect(student.get_by_role("heading", name="Before we play")).to_be_visible()
    check_axe(student, "the before-check")
    at_every_size(student, "check")
    asked = answer(student, session_id, "Ana", "before", right=False)
    assert asked >= 8
    student.get_by_role("link", name="Back to the game").click()
    expect(student.locator(".lobby")).to_contain_text("Thank you: your answers are saved.")
    expect(student.get_by_role("link", name="My family plan")).to_be_visible()
    at_every_size(student, "play")

    teacher.goto(f"/sessions/{session_id}/")
    teacher.get_by_role("button", name="Start the game").click()
    expect(student.locator(".evac-actions")).to_be_visible()
    expect(student.locator("#check-link")).to_be_hidden()  # the before-check closed at the start
    play_to_the_end({"Ana": student}, session_id)
    # Every table has finished: the lesson ends by itself.
    expect(teacher.get_by_text("Ended").first).to_be_visible(timeout=30_000)

    teacher.goto(f"/sessions/{session_id}/kit/")
    teacher.get_by_role("button", name="Open the after-check").click()
    expect(teacher.locator(".kit-state")).to_have_text("On: the after-check is open.")
    # The tablet follows the phase live, with no reload.
    expect(student.locator("#check-link")).to_have_text("Questions after the game")
    student.locator("#check-link").click()
    expect(student.get_by_role("heading", name="After the game")).to_be_visible()
    answer(student, session_id, "Ana", "after", right=True)
    own = student.locator(".kit-own")
    expect(own.get_by_role("status")).to_have_text(f"Before: 0 of {asked} right · After: {asked} of {asked} right")
    expect(own.locator(".kit-change").first).to_have_text("✓ Changed: right now, not before")
    expect(own.locator(".kit-right-answer").first).to_contain_text("Right answer:")
    check_axe(student, "what changed since the start")
    at_every_size(student, "check-done")

    # The class debrief: the after-check closed, the paired result and every item, with how many answered.
    teacher.goto(f"/sessions/{session_id}/debrief/")
    teacher.get_by_role("button", name="Close the after-check").click()
    panel = teacher.locator(".kit-panel")
    expect(panel.get_by_role("heading", name="How the class's answers changed: the knowledge check")).to_be_visible()
    expect(panel).to_contain_text(
        "For the 1 student who answered before play (on time) and after: 0% right before, 100% after."
    )
    expect(panel.locator(".kit-gain")).to_have_text("Normalized gain: 1.00 (90% interval 1.00 to 1.00).")
    expect(panel).to_contain_text("Indicative only:")
    expect(panel.locator("table.kit-items tbody tr")).to_have_count(2 * asked)
    check_axe(teacher, "the class debrief with the check", include=".kit-panel")
    at_every_size(teacher, "debrief", whole_page=False)
    teacher.goto(f"/sessions/{session_id}/kit/")
    teacher.locator(".kit-roster summary").click()
    expect(teacher.locator(".kit-roster tbody tr")).to_have_count(1)
    expect(teacher.locator(".kit-roster tbody tr")).not_to_contain_text("late")
    check_axe(teacher, "the lesson kit with results")
    # The kit with its results, in Spanish and Dutch too (sources, links and tables named alike).
    for lang in ("es", "nl", "en"):
        teacher.context.add_cookies([{"name": "django_language", "value": lang, "url": asgi_server}])
        teacher.goto(f"/sessions/{session_id}/kit/")
        expect(teacher.locator("html")).to_have_attribute("lang", lang)
        if lang != "en":
            check_axe(teacher, f"the lesson kit with results in {lang}")

    # The class packet, once the worker has written it.
    _wait_for_reports(session_id)
    teacher.goto(in_thread(_report_url, session_id))
    expect(teacher.locator(".kit-panel")).to_contain_text("Normalized gain: 1.00")

    # The student's own report: what changed, and the family plan from it.
    student.goto(f"/play/{session_id}/my-report")
    own = student.locator(".kit-panel")
    expect(own).to_contain_text("Your knowledge check, before and after")
    expect(own.locator(".kit-own").get_by_role("status")).to_have_text(
        f"Before: 0 of {asked} right · After: {asked} of {asked} right"
    )
    own.get_by_role("link", name="Open your family emergency plan").click()
    expect(student.get_by_role("heading", name="Our family emergency plan")).to_be_visible()
    expect(student.locator(".kit-plan-lines")).to_contain_text("from your game")
    at_every_size(student, "plan")


def _wait_for_reports(session_id):
    from classroom.models import Session
    from tests.scoring.test_reports import wait_for_reports

    status = in_thread(wait_for_reports, in_thread(Session.objects.get, pk=session_id))
    assert status["failed"] == 0, status


def _report_url(session_id):
    from scoring.models import Report

    return f"/debrief/reports/{Report.objects.get(session_id=session_id, kind=Report.Kind.CLASS).pk}/"
