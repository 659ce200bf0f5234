"""A Bermuda lesson from a school's LMS, in real browsers: the teacher adds it to the course by
deep linking and opens its dashboard from the course, three students launch it from the course
and choose nicknames, the class plays to the end (bots finish it), and the course's gradebook
receives three scores."""

import time
from urllib.parse import urlencode

import pytest
import requests
from playwright.sync_api import expect

from tests.browser.lesson import POLL_MS, accept_questions
from tests.browser.test_bermuda_lesson import tap
from tests.conftest import TABLET, in_thread
from tests.lti.platform import INSTRUCTOR, LEARNER, Platform, login_params

pytestmark = pytest.mark.browser


def _from_the_course(browser, base_url, platform, claims, viewport=TABLET):
    """A person opening Stormwise from the course: the platform starts the tool's OIDC login,
    signs the launch and the browser posts it to the tool."""
    context = browser.new_context(viewport=viewport, base_url=base_url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    accept_questions(page)
    hint = platform.expect(claims)
    page.goto(f"/lti/login?{urlencode(login_params(platform, hint, f'{base_url}/lti/launch'))}")
    return page


def _wait(condition, seconds=60):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


@pytest.mark.long
def test_a_lesson_deep_linked_from_the_lms_sends_three_scores_back(browser, asgi_server, celery_worker):
    with Platform() as platform:
        in_thread(platform.register)
        platform.tool_jwks = requests.get(f"{asgi_server}/lti/jwks.json", timeout=10).json()

        # the teacher's "add an activity": a Bermuda lesson, sent back to the course
        teacher = _from_the_course(
            browser,
            asgi_server,
            platform,
            platform.claims("teacher-1", INSTRUCTOR, "LtiDeepLinkingRequest"),
            viewport={"width": 1366, "height": 768},
        )
        expect(teacher.get_by_role("heading", name="Add a Stormwise lesson to your course")).to_be_visible()
        teacher.get_by_label("Scenario").select_option("bermuda")
        teacher.get_by_label("Seats per table").fill("4")
        teacher.get_by_label("Fill empty seats with bots").set_checked(True)
        teacher.get_by_label("A bot plays for a student who stays idle").set_checked(False)
        teacher.get_by_label("Completion: whether each student played to the end").check()
        teacher.get_by_role("button", name="Add to the course").click()
        _wait(lambda: platform.deep_link_returns)
        item = platform.deep_link_returns[0]
        assert item["url"] == f"{asgi_server}/lti/launch" and "lineitem_url" in item

        # the teacher opens the activity from the course: the lesson's dashboard
        teacher = _from_the_course(
            browser,
            asgi_server,
            platform,
            platform.resource_link(item, "teacher-1", INSTRUCTOR),
            viewport={"width": 1366, "height": 768},
        )
        expect(teacher.get_by_role("button", name="Start the game")).to_be_visible()
        session_id = int(item["custom"]["stormwise_session"])

        students = {}
        for n, nickname in enumerate(("Gull", "Tern", "Skua")):
            page = _from_the_course(
                browser, asgi_server, platform, platform.resource_link(item, f"learner-{n + 1}", LEARNER)
            )
            expect(page.get_by_role("heading", name="Choose your nickname")).to_be_visible()
            page.get_by_label("Nickname").fill(nickname)
            page.get_by_role("button", name="Join").click()
            expect(page.get_by_role("heading", name=f"Hi {nickname}!")).to_be_visible()
            students[nickname] = page
        for nickname in students:
            expect(teacher.locator("body")).to_contain_text(nickname)

        teacher.get_by_role("button", name="Start the game").click()
        for page in students.values():
            page.wait_for_function("() => document.querySelector('button.bt-act, .bt-banner')", polling=POLL_MS)
        for name, page in students.items():
            tap(page, name, session_id)  # each sails once; the bell sends the bots in for the rest
        teacher.get_by_role("button", name="Finish with bots").click()
        for page in students.values():
            expect(page.locator(".bt-results")).to_be_visible(timeout=60_000)

        # the lesson ends by itself once the table finished, and the scores go to the course
        _wait(lambda: len(platform.scores) == 3, seconds=90)
        scores = {score["userId"]: score for _line, score in platform.scores}
        assert set(scores) == {"learner-1", "learner-2", "learner-3"}
        assert {s["scoreGiven"] for s in scores.values()} == {100}
        assert {line for line, _score in platform.scores} == {item["lineitem_url"]}
