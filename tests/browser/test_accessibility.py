"""Accessibility in real Chromium: axe-core on every page and every phase of every game screen,
where focus goes after each action, and what the live region says (issue 19)."""
import pytest
from playwright.sync_api import expect

from tests.browser.a11y import check_axe
from tests.browser.lesson import create_session, student_page, teacher_page

pytestmark = pytest.mark.browser


def test_axe_finds_nothing_serious_on_the_teacher_and_join_pages(browser, asgi_server):
    """Sign-in, the sessions list, the new-session form (with its errors), the dashboard in the
    lobby, the projector, the join form (with its errors) and the student's lobby."""
    anonymous = browser.new_context(base_url=asgi_server).new_page()
    for url in ("/accounts/login/", "/join", "/check", "/accounts/signup/", "/accounts/password_reset/"):
        anonymous.goto(url)
        check_axe(anonymous, url)
    anonymous.goto("/join")
    anonymous.get_by_role("button", name="Join").click()
    expect(anonymous.locator(".errors").first).to_be_visible()
    check_axe(anonymous, "/join with errors")
    # An error and a help text are linked to their field by ids that exist.
    described = anonymous.get_by_label("Lesson code").get_attribute("aria-describedby")
    assert described and all(anonymous.locator(f"[id='{i}']").count() == 1 for i in described.split())

    teacher = teacher_page(browser, asgi_server)
    check_axe(teacher, "the sessions list")
    teacher.get_by_role("link", name="New session").click()
    check_axe(teacher, "the new-session form")
    group = teacher.get_by_role("group", name="Nicknames")
    expect(group).to_be_visible()
    teacher.get_by_label("Seats per table").fill("9")
    teacher.get_by_role("button", name="Create session").click()
    expect(teacher.locator(".has-error")).to_have_count(1)
    check_axe(teacher, "the new-session form with an error")
    seats = teacher.get_by_label("Seats per table")
    assert seats.get_attribute("aria-invalid") == "true"
    error_id = next(i for i in seats.get_attribute("aria-describedby").split() if i.endswith("_error"))
    expect(teacher.locator(f"[id='{error_id}']")).to_contain_text("6")

    teacher.goto("/")
    code, session_id = create_session(teacher, bots=True)
    check_axe(teacher, "the dashboard in the lobby")
    student = student_page(browser, asgi_server, code, "Ana")
    check_axe(student, "the student's lobby")
    expect(teacher.locator(".roster")).to_contain_text("Ana")
    check_axe(teacher, "the dashboard with a student")
    teacher.goto(f"/sessions/{session_id}/screen")
    check_axe(teacher, "the projector in the lobby")
