"""Both teacher guides walked step by step against the running app: the guide's page prints each
step's controls (``lessons.flow``), and a teacher and two tablets then do exactly what the steps
say, in their order. Every control a step names must be on its page, visible, at that moment of
the lesson: a control the app renames, moves or offers later than the guide says fails here."""

import re

import pytest
from playwright.sync_api import expect

from lessons import flow
from scenarios import registry
from tests.browser.lesson import student_page, teacher_page
from tests.browser.test_lesson_kit import answer

pytestmark = pytest.mark.browser
NAMES = ("Ana", "Ben")


def _control(page, control, nickname=None):
    name = f"{control.label}: {nickname}" if control.per_student else str(control.label)
    return page.get_by_role(control.role, name=name, exact=True)


def _walk(browser, base_url, scenario_key):
    scenario = registry.get(scenario_key)
    teacher = teacher_page(browser, base_url)

    # The guide's page prints, under each step, the control that step uses.
    teacher.goto(f"/lessons/{scenario_key}/guide")
    for step in scenario.kit.guide.steps:
        for key in step.does:
            expect(teacher.locator(f".kit-steps li[data-control='{key}']")).to_have_text(flow.CONTROLS[key].line())

    teacher.goto("/")
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Scenario").select_option(value=scenario_key)
    teacher.get_by_label("Seats per table").fill("4")
    teacher.get_by_label("Fill empty seats with bots").set_checked(True)
    teacher.get_by_label("A bot plays for a student who stays idle").set_checked(False)
    teacher.get_by_label("Game number (optional)").fill("2026")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    session_id = int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))
    session_url = teacher.url
    students = {name: student_page(browser, base_url, code, name) for name in NAMES}

    walked = []
    for step in scenario.kit.guide.steps:
        for key in step.does:
            control = flow.CONTROLS[key]
            walked.append(key)
            if control.who == flow.TEACHER:
                if key != "close_after" and teacher.url != session_url:
                    teacher.goto(session_url)
                for nickname in NAMES if control.per_student else (None,):
                    found = _control(teacher, control, nickname)
                    expect(found, f"{scenario_key}: step “{step.title}” names “{control.label}”").to_be_visible()
                    found.click()
                if key in ("finish", "end_now"):
                    expect(teacher.locator(".status-line .badge")).to_have_text("Ended", timeout=60_000)
                if key == "debrief":
                    expect(teacher).to_have_url(re.compile(rf"/sessions/{session_id}/debrief/$"))
                continue
            for nickname, tablet in students.items():
                found = _control(tablet, control)
                expect(found.first, f"{scenario_key}: step “{step.title}” names “{control.label}”").to_be_visible()
                found.first.click()
                if key in ("before_check", "after_check"):
                    answer(tablet, session_id, nickname, "before" if key == "before_check" else "after", right=True)
                    tablet.get_by_role("link", name="Back to the game").click()
                if key == "plan":
                    expect(tablet.locator("h1")).to_contain_text("family", ignore_case=True)
                    tablet.go_back()
    # the guide took the class through the whole lesson: both checks answered, the debrief shown
    assert {"approve", "before_check", "start", "open_after", "after_check", "close_after", "debrief", "plan"} <= set(
        walked
    )
    expect(teacher.locator(".kit-panel")).to_be_visible()
    for page in (teacher, *students.values()):
        page.context.close()


def test_the_evacuation_guide_walked_against_the_app(browser, asgi_server):
    _walk(browser, asgi_server, "evacuation")


def test_the_tornado_guide_walked_against_the_app(browser, asgi_server):
    _walk(browser, asgi_server, "tornado_alert")
