"""A whole evacuation lesson as a teacher runs it, in a real browser: a session with the
form's defaults, a class approved in one tap, tablets in three languages playing by tapping,
the lesson ending by itself, the class debrief and every report written. Screenshots of the
projector at 1080p and of each tablet at 768 px are kept in the test's folder to look at."""
import re

from playwright.sync_api import expect

from tests.browser.lesson import accept_questions, play_to_the_end, teacher_page
from tests.conftest import in_thread

PROJECTOR = {"width": 1920, "height": 1080}
STUDENTS = {"Ana": "en-US", "Bea": "es-US", "Cas": "nl-NL"}


def _tablet(browser, base_url, code, name, locale):
    """A tablet whose browser speaks ``locale``: the pages follow it; the student joins by the
    form's own fields (their labels are in that language)."""
    context = browser.new_context(viewport={"width": 768, "height": 1024}, base_url=base_url, locale=locale)
    context.set_default_timeout(15_000)
    page = context.new_page()
    accept_questions(page)
    page.goto("/join")
    expect(page.locator("html")).to_have_attribute("lang", locale[:2])
    page.locator("input[name=code]").fill(code)
    page.locator("input[name=nickname]").fill(name)
    page.locator("form button[type=submit]").last.click()
    expect(page.locator("h1")).to_contain_text(name)
    return page


def _knowledge_base():
    from scoring.models import Fact
    from scoring.outcomes import load_facts

    if not Fact.objects.exists():
        load_facts(Fact)


def _reports(session_id):
    from classroom.models import Session
    from scoring import services

    return services.job_status(Session.objects.get(pk=session_id))


def test_a_whole_lesson_with_the_defaults_runs_itself(browser, asgi_server, celery_worker, tmp_path):
    in_thread(_knowledge_base)
    teacher = teacher_page(browser, asgi_server, answer_questions=False)
    teacher.get_by_role("link", name="New session").click()
    # The form says what each scenario is: ages, seats and length.
    expect(teacher.locator(".scenario-blurb:not([hidden]) .scenario-facts")).to_contain_text("seats per table")
    expect(teacher.get_by_label("Seconds before an idle seat is played")).to_have_value("120")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    session_id = int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))
    expect(teacher.get_by_role("link", name="Test a tablet before class")).to_be_visible()

    projector = teacher.context.new_page()
    projector.set_viewport_size(PROJECTOR)
    projector.goto(f"/sessions/{session_id}/screen")
    # The test server listens on loopback: the projector says so, with the command to serve the class.
    expect(projector.get_by_role("alert")).to_contain_text("HOST=0.0.0.0 make run")

    tablets = {name: _tablet(browser, asgi_server, code, name, locale) for name, locale in STUDENTS.items()}
    teacher.get_by_role("button", name="Approve all 3 waiting names").click()
    for name in STUDENTS:
        expect(projector.locator(".screen-names")).to_contain_text(name)
    projector.screenshot(path=str(tmp_path / "projector-lobby.png"))

    teacher.get_by_role("button", name="Start the game").click()  # all approved: no question
    for name, page in tablets.items():
        expect(page.locator(".evac-actions")).to_be_visible()
    # Tablemates are named by their approved nicknames, not "Player 2".
    expect(tablets["Ana"].locator("#play")).to_contain_text("Bea")
    expect(tablets["Bea"].locator("#play")).to_contain_text("Cas")
    for name, page in tablets.items():
        page.screenshot(path=str(tmp_path / f"tablet-{STUDENTS[name][:2]}.png"), full_page=True)

    pages = dict(tablets)
    for _ in range(3):  # a few taps each, then the projector mid-lesson
        for name, page in pages.items():
            from tests.browser.lesson import tap_once

            tap_once(page, name, session_id)
    expect(projector.locator(".screen-tables li")).to_have_count(1)
    projector.screenshot(path=str(tmp_path / "projector-play.png"))

    play_to_the_end(pages, session_id)
    # Every table has finished: the lesson ends by itself and the reports are written.
    expect(teacher.locator(".status-line .badge")).to_have_text("Ended", timeout=60_000)
    teacher.get_by_role("link", name="Class debrief").click()
    expect(teacher.get_by_role("heading", level=1)).to_be_visible()
    for _ in range(300):
        status = in_thread(_reports, session_id)
        if status["total"] and status["done"] + status["failed"] == status["total"]:
            break
        teacher.wait_for_timeout(500)
    assert status["failed"] == 0 and status["done"] == 4, status  # three students and the packet
    projector.screenshot(path=str(tmp_path / "projector-ended.png"))
    assert teacher.browser_dialogs == [] and all(page.browser_dialogs == [] for page in tablets.values())
