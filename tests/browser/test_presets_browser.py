"""A teacher picks the "As printed" rules on the new-session form, on a tablet-sized screen."""

import pytest
from playwright.sync_api import expect

from tests.browser import shots
from tests.browser.lesson import teacher_page
from tests.browser.shots import shoot

pytestmark = pytest.mark.browser


def test_the_teacher_picks_the_rules_as_printed(browser, asgi_server):
    """The choice shows for the evacuation game, defaults to the tuned rules, and the session
    page then names the rules played."""
    page = teacher_page(browser, asgi_server, viewport={"width": 768, "height": 1024})
    page.get_by_role("link", name="New session").click()
    # only the chosen scenario's rules show (the form's script hides the others' once it runs)
    expect(page.locator("#id_stormfury__preset_0")).to_be_attached()
    expect(page.locator("#id_stormfury__preset_0")).to_be_hidden()
    tuned = page.get_by_role("radio", name="Tuned for class (default)")
    book = page.get_by_role("radio", name="As printed in the rule book")
    expect(tuned).to_be_checked()
    book.check()
    if shots.FOLDER:
        shoot(page, "session_new_768")
        page.set_viewport_size({"width": 390, "height": 844})
        shoot(page, "session_new_390")
    page.get_by_label("Game number (optional)").fill("2026")
    page.get_by_role("button", name="Create session").click()
    expect(page.get_by_text("Rules played: As printed in the rule book")).to_be_visible()
    shoot(page, "session_390", full_page=False)
    page.context.close()
