"""Canvas opens a tool's deep linking in a modal iframe of the course: in a real browser, the
registered platform's course page frames the launch and the teacher adds a lesson inside the
frame; a page of an origin no admin registered frames the same launch and the browser refuses."""

import time
from urllib.parse import urlencode

import pytest
import requests
from playwright.sync_api import expect

from tests.conftest import in_thread
from tests.lti.platform import INSTRUCTOR, Platform, login_params

pytestmark = pytest.mark.browser


def _wait(condition, seconds=30):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def _course_page(browser, course, platform, asgi_server):
    """A teacher on ``course``'s page, whose iframe starts a deep-linking launch from ``platform``."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    hint = platform.expect(platform.claims("teacher-1", INSTRUCTOR, "LtiDeepLinkingRequest"))
    login = f"{asgi_server}/lti/login?{urlencode(login_params(platform, hint, f'{asgi_server}/lti/launch'))}"
    return page, f"{course.url}/course?{urlencode({'src': login})}"


def test_the_registered_course_frames_deep_linking_and_a_stranger_cannot(browser, asgi_server):
    with Platform() as platform, Platform() as stranger:
        in_thread(platform.register)
        platform.tool_jwks = requests.get(f"{asgi_server}/lti/jwks.json", timeout=10).json()

        page, url = _course_page(browser, platform, platform, asgi_server)
        page.goto(url)
        tool = page.frame_locator("#tool")
        expect(tool.get_by_role("heading", name="Add a Stormwise lesson to your course")).to_be_visible()
        tool.get_by_label("Scenario").select_option("bermuda")
        tool.get_by_role("button", name="Add to the course").click()
        _wait(lambda: platform.deep_link_returns)
        assert platform.deep_link_returns[0]["url"] == f"{asgi_server}/lti/launch"

        # the same launch framed by a page of an origin no admin registered: refused by the browser
        page, url = _course_page(browser, stranger, platform, asgi_server)
        with page.expect_console_message(lambda message: "frame-ancestors" in message.text) as refused:
            page.goto(url)
        assert stranger.url not in refused.value.text
        expect(page.get_by_role("heading", name="Science 101")).to_be_visible()
        heading = page.frame_locator("#tool").get_by_role("heading", name="Add a Stormwise lesson to your course")
        assert heading.count() == 0
