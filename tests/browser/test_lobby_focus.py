"""A student waiting in the lobby keeps their place: pressing "Ask the teacher" (and pressing it
again) and a classmate joining leave focus on the control the student used, never on the page,
in every game."""

import pytest
from playwright.sync_api import expect

from scenarios import registry
from tests.browser.lesson import student_page
from tests.conftest import in_thread
from tests.factories import join_students, make_session

pytestmark = pytest.mark.browser
FOCUSED = "() => document.activeElement ? document.activeElement.textContent : null"


@pytest.mark.parametrize("key", [k for k in registry.keys() if registry.get(k).kit is not None])
def test_asking_the_teacher_and_a_classmate_joining_keep_focus_in_the_lobby(browser, asgi_server, key):
    session = in_thread(make_session, scenario=key)
    student = student_page(browser, asgi_server, session.join_code, "Ana")
    ask = student.get_by_role("button", name="Ask the teacher")
    expect(ask).to_be_visible()  # the lobby has come (on a busy machine after the first tabs would)
    for _ in range(40):  # by keyboard, as a student without a pointer gets there
        student.keyboard.press("Tab")
        if student.evaluate(FOCUSED) == "Ask the teacher":
            break
    expect(ask).to_be_focused()
    student.keyboard.press("Enter")
    asked = student.locator("button.ask[aria-pressed=true]")
    expect(asked).to_be_focused()
    in_thread(join_students, session, 1, prefix="Ben")
    expect(student.locator(".lobby li")).to_have_count(2)  # the classmate, named once approved
    expect(asked).to_be_focused()
    student.keyboard.press("Enter")
    expect(student.locator("button.ask[aria-pressed=false]")).to_be_focused()
    student.context.close()
