"""A Dutch student plays Tornado Alert! by keyboard alone (Tab, Shift+Tab, Enter, Space and the
slap key S: no click) against three bots: after every step focus is on a control of the game
(never on the page), the page is in Dutch, and the live region has said at most a short sentence
or two per change of the pile, in Dutch, never the whole screen and never English. Then the
teacher ends the lesson: the results screen keeps focus too, with the report link added after it."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import TargetGone, announcements, expect_focus_in, focused, watch_announcements
from tests.browser.lesson import POLL_MS, teacher_page
from tests.browser.test_languages_keyboard import keyboard_to, tablet, translated

pytestmark = pytest.mark.browser
# The renderer's English that a Dutch student must never hear (fragments of its msgids).
ENGLISH = (
    "Your turn",
    "played",
    "won the draw",
    "took",
    "Slap the pile",
    "Waiting for",
    "Round",
    "Too late",
    "was faster",
    "Race!",
    "The pile",
    "On the pile",
)
STEPS = 14


def new_session(teacher):
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Scenario").select_option("tornado_alert")
    teacher.get_by_label("Seats per table").fill("4")
    teacher.get_by_label("Fill empty seats with bots").set_checked(True)
    teacher.get_by_label("A bot plays for a student who stays idle").set_checked(False)
    teacher.get_by_label("Game number (optional)").fill("7")
    teacher.get_by_text("Scenario options").click()
    teacher.get_by_role("combobox", name=re.compile("How long a bot takes to slap", re.I)).select_option("1500")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    return code, int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))


def enabled(page, selector):
    return page.locator(f"{selector}:not([disabled])").count() > 0


def check_said(page, heard_before):
    """What the live region said since the last step: short, Dutch, one change at a time."""
    said = announcements(page)[heard_before:]
    for text in said:
        assert len(text) <= 220 and text.count(".") + text.count("!") <= 3, f"too much at once: {text!r}"
        english = [w for w in ENGLISH if w in text]
        assert not english, f"heard English {english}: {text!r}"
    return len(announcements(page))


def press_on(page, selector, key):
    """Tabs to the control and presses key on it; False when the game moved on first (a race window
    closed while focus travelled), as a keyboard user then finds the control gone and looks again."""
    try:
        keyboard_to(page, selector)
    except TargetGone:
        return False
    page.keyboard.press(key)
    return True


def test_a_dutch_student_plays_tornado_alert_by_keyboard_with_focus_and_announcements_checked(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server)
    code, session_id = new_session(teacher)
    page = tablet(browser, asgi_server, code, "Cas")  # the browser speaks Spanish, Cas picks Dutch
    watch_announcements(page)
    teacher.get_by_role("button", name="Start the game").click()
    expect(page.locator("button.ta-slap")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    # The first Tab from the page's top reaches the game.
    keyboard_to(page, ".ta-banner .ta-ask, button.ta-act:not([disabled])")
    heard = check_said(page, 0)
    done = {"card": 0, "slap": 0, "pass": 0, "choice": 0}
    for count in range(1, 200):
        if sum(done.values()) >= STEPS and done["card"] and (done["slap"] or done["pass"]):
            break
        try:
            page.locator("button.ta-act:not([disabled]), button.ta-pass:not([disabled])").first.wait_for(timeout=15_000)
        except Exception:
            raise AssertionError(f"nothing to do for 15 s; focus on {focused(page)!r}") from None
        key = "Enter" if count % 2 else "Space"
        if enabled(page, "button.ta-slap") and (count % 3 or not enabled(page, "button.ta-pass")):
            page.keyboard.press("s")  # the slap key, from wherever focus is
            done["slap"] += 1
        elif enabled(page, "button.ta-pass"):
            if not press_on(page, "button.ta-pass:not([disabled])", key):
                continue
            done["pass"] += 1
        elif enabled(page, "button.ta-card"):
            if not press_on(page, "button.ta-card:not([disabled])", key):
                continue
            done["card"] += 1
        elif enabled(page, "button.ta-choice"):
            if not press_on(page, "button.ta-choice[data-key='choice-keep']:not([disabled])", key):
                continue
            done["choice"] += 1
        else:
            continue
        page.wait_for_function(
            "() => document.querySelector('.ta')?.getAttribute('aria-busy') === 'false'",
            timeout=10_000,
            polling=POLL_MS,
        )
        try:
            expect_focus_in(page, "#play", timeout=3_000)
        except AssertionError as error:
            raise AssertionError(f"after step {count} ({done}): {error}") from None
        expect(page.locator("html")).to_have_attribute("lang", "nl")
        heard = check_said(page, heard)
    assert done["card"] >= 1 and done["slap"] + done["pass"] >= 1, done
    said = " ".join(announcements(page))
    assert "legde" in said or translated("tornado_alert", "nl", "Your turn: play a card.") in said, said[-400:]

    teacher.get_by_role("button", name="End now").click()
    expect(
        page.get_by_text(translated("tornado_alert", "nl", "Final results: your worst round counts"))
    ).to_be_visible()
    expect(page.locator(".report-link a")).to_be_visible()  # added after the screen, which keeps focus
    expect_focus_in(page, "#play", timeout=5_000)
    check_said(page, heard)
