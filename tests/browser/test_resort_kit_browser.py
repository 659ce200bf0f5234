"""The resort kit's pages in Chromium at four sizes, none scrolling sideways: the kit hub, the
guide, the check's items on a tablet and the teacher's sample plan (screenshots in ``$SHOTS``)."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.lesson import student_page, teacher_page
from tests.browser.test_lesson_kit import at_every_size

pytestmark = pytest.mark.browser


def test_resort_kit_pages(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server)
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Scenario").select_option("resort")
    teacher.get_by_label("Seats per table").fill("2")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    session_id = int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))
    teacher.get_by_role("link", name="Lesson kit").click()
    expect(teacher.locator(".kit-state")).to_have_text("On: students answer in the lobby, before play.")
    at_every_size(teacher, "resort-kit")
    teacher.get_by_role("link", name="Lesson guide", exact=True).click()
    expect(teacher.get_by_role("heading", name="A 45-minute period")).to_be_visible()
    expect(teacher.get_by_text("Common Core Math 5.G.A.2")).to_be_visible()
    at_every_size(teacher, "resort-guide")
    student = student_page(browser, asgi_server, code, "Ana")
    teacher.goto(f"/sessions/{session_id}/")
    teacher.get_by_role("button", name="Approve: Ana").click()  # the before-check waits for it
    student.locator(".lobby").get_by_role("link", name="Questions before we play").click()
    expect(student.locator("fieldset.kit-question")).to_have_count(8)
    expect(
        student.get_by_text("In FEMA's 2019 survey, about how many American adults had made an emergency plan?").or_(
            student.get_by_text("Your friend says every family already has an emergency plan.")
        )
    ).to_be_visible()
    at_every_size(student, "resort-check")
    teacher.goto(f"/sessions/{session_id}/kit/")
    teacher.goto(teacher.locator("a[href*='plan']").first.get_attribute("href"))
    expect(teacher.locator(".kit-plan-lines")).to_contain_text("Our insurance")
    at_every_size(teacher, "resort-plan-sample")
