import re

import pytest
from playwright.sync_api import expect

from tests.factories import PASSWORD

pytestmark = pytest.mark.browser


def test_teacher_signs_up_sees_empty_home_and_signs_out(page):
    """A new teacher signs up through the e-mailed link, signs out, signs back in, sees the empty
    home page, signs out."""
    from django.core import mail

    from classroom import accounts

    page.goto("/accounts/signup/")
    page.get_by_label("E-mail address").fill("ms.okafor@school.test")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("heading", name="Check your e-mail")).to_be_visible()
    accounts.mail_sent()
    page.goto(re.search(r"https?://\S+/accounts/signup/\S+/", mail.outbox[-1].body).group(0))
    page.get_by_label("New password", exact=True).fill(PASSWORD)
    page.get_by_label("New password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Save password and sign in").click()
    expect(page.get_by_role("heading", name="Your sessions")).to_be_visible()
    expect(page.get_by_text("No sessions yet")).to_be_visible()
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", name="You are signed out")).to_be_visible()

    page.goto("/accounts/login/")
    page.get_by_label("E-mail address").fill("ms.okafor@school.test")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_contain_text("correct e-mail address and password")

    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.get_by_text("No sessions yet")).to_be_visible()
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", name="You are signed out")).to_be_visible()


def test_signing_out_in_another_tab_takes_the_dashboard_off_the_screen(browser, asgi_server):
    """A teacher signs out from a second tab: the open dashboard, with the class's nicknames,
    turns into the sign-in page by itself."""
    from tests.browser.lesson import create_session, teacher_page

    dashboard = teacher_page(browser, asgi_server)
    _code, session_id = create_session(dashboard)
    expect(dashboard).to_have_url(re.compile(rf"/sessions/{session_id}/$"))
    dashboard.wait_for_timeout(1500)  # the dashboard's socket is open and has had a snapshot
    other = dashboard.context.new_page()
    other.goto(asgi_server + "/")
    other.get_by_role("button", name="Sign out").click()
    expect(other.get_by_role("heading", name="You are signed out")).to_be_visible()
    expect(dashboard).to_have_url(re.compile(r"/accounts/login/"), timeout=10_000)
    dashboard.context.close()
