"""The resort game in English and Bermuda Triangle in Spanish, each played to its end by keyboard
alone (Tab, Shift+Tab, Enter, Space and the arrow keys: no click) by a student at a table of bots.
After every step, the first turn and the end included, focus is on a control of the game (never
on the page), the page is in the student's language, the tab's title says the game's state, and
the live region has said the step in that language: the student's own moves in the second
person ("You rolled 4.", "Llevaste el Barco 2…"), never in English on a Spanish tablet."""

import json
import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games.refusals import MESSAGES
from tests.browser.a11y import (
    TargetGone,
    announcements,
    expect_focus_in,
    focus_matches,
    focused,
    watch_announcements,
)
from tests.browser.lesson import POLL_MS, teacher_page
from tests.browser.test_bermuda_lesson import policy_key
from tests.browser.test_languages_keyboard import fragment, keyboard_to, tablet, translated
from tests.conftest import in_thread

pytestmark = pytest.mark.browser


def new_session(teacher, scenario, option_label, option_value):
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Scenario").select_option(scenario)
    teacher.get_by_label("Seats per table").fill("4")
    teacher.get_by_label("Fill empty seats with bots").set_checked(True)
    teacher.get_by_label("A bot plays for a student who stays idle").set_checked(False)
    teacher.get_by_label("Game number (optional)").fill("2026")
    teacher.get_by_text("Scenario options").click()
    teacher.get_by_role("combobox", name=re.compile(option_label)).select_option(option_value)
    teacher.get_by_role("button", name="Create session").click()
    return teacher.locator(".join-code").inner_text()


def settled(page, prefix):
    """The screen is not waiting on the server (its buttons are back, or the game is over)."""
    page.wait_for_function(
        f"() => document.querySelector('.{prefix}')?.getAttribute('aria-busy') === 'false'",
        timeout=15_000,
        polling=POLL_MS,
    )


def check_step(page, prefix, lang, where):
    """After a step: focus on a control of the game, the page in its language, the tab titled
    with the banner."""
    try:
        expect_focus_in(page, "#play", timeout=5_000)
    except AssertionError as error:
        raise AssertionError(f"{where}: {error}") from None
    expect(page.locator("html")).to_have_attribute("lang", lang)
    # read together, as bots keep moving the game on
    title, banner = page.evaluate(
        f"() => [document.title, document.querySelector('.{prefix}-banner-title').textContent.trim()]"
    )
    assert title.startswith(banner + " · "), f"{where}: title {title!r}, banner {banner!r}"


# ---- the resort game, in English ------------------------------------------------------------------

BAD_ENGLISH = (
    "You is ",
    "You owns",
    "You picks",
    "You loses",
    "You landed in the Bermuda Triangle and loses",
    "its owner You",
)


def plot_by_keyboard(page):
    """North to the latitude, then west to the longitude, by arrow keys in each list, then place."""
    lat, lon = re.search(r"N (\d+)°, W (\d+)°", page.locator(".rs-viewer-line").inner_text()).groups()
    for kind, value, key in (("lat", lat, "Enter"), ("lon", lon, "Space")):
        keyboard_to(page, f"button.rs-coord[data-key^='{kind}-'][tabindex='0']")  # the list is one Tab stop
        for _ in range(20):
            if focus_matches(page, f"button[data-key='{kind}-{value}']"):
                break
            page.keyboard.press("ArrowDown")
        assert focus_matches(page, f"button[data-key='{kind}-{value}']"), focused(page)
        page.keyboard.press(key)
        expect(page.locator(f"button[data-key='{kind}-{value}']")).to_have_attribute("aria-pressed", "true")
        assert focus_matches(page, f"button[data-key='{kind}-{value}']"), focused(page)  # the pick keeps focus
    page.keyboard.press("Tab")
    assert focus_matches(page, "button.rs-act[data-key='place']"), focused(page)
    page.keyboard.press("Enter")


def resort_step(page, count):
    """One step like a careful owner; the kind of step, or None when nothing is offered yet."""
    if page.locator("button.rs-coord:not([disabled])").count():
        plot_by_keyboard(page)
        return "plot"
    keys = page.locator("button.rs-act:not([disabled])").evaluate_all("(bs) => bs.map((b) => b.dataset.key)")
    wanted = (
        next((k for k in keys if '"type":"buy","options":2' in k), None)
        or next((k for k in keys if '"type":"option"' in k), None)
        or next((k for k in keys if '"type":"roll"' in k or '"type":"stay"' in k), None)
        or next((k for k in keys if '"type":"pass"' in k), None)
        or (keys[0] if keys else None)
    )
    if wanted is None:
        return None
    keyboard_to(page, f"button.rs-act[data-key='{wanted}']")
    page.keyboard.press("Enter" if count % 2 else "Space")
    return json.loads(wanted)["type"]


@pytest.mark.long
def test_an_english_student_plays_the_resort_game_to_its_end_by_keyboard(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server)
    code = new_session(teacher, "resort", "Season length", "20")
    page = tablet(browser, asgi_server, code, "Ann")
    watch_announcements(page)
    teacher.get_by_role("button", name="Start the game").click()
    expect(page.locator(".rs-banner-title")).to_be_visible()
    # The first turn: spoken, and focus in the game (the lobby it replaced took focus with it).
    check_step(page, "rs", "en", "the first turn")
    expect(page.locator("[data-live-region]")).not_to_be_empty()
    first = announcements(page)
    assert any("Your turn: roll the die" in t or "Waiting for" in t for t in first), first
    heard, done = len(first), {}
    for count in range(1, 400):
        if page.locator(".rs-results").count():
            break
        try:
            page.locator("button.rs-act:not([disabled]), button.rs-coord:not([disabled]), .rs-results").first.wait_for(
                timeout=15_000
            )
        except Exception:
            raise AssertionError(f"nothing to do for 15 s; focus on {focused(page)!r}") from None
        kind = resort_step(page, count)
        if kind is None:
            continue
        done[kind] = done.get(kind, 0) + 1
        settled(page, "rs")
        check_step(page, "rs", "en", f"step {count} ({kind})")
        said = announcements(page)[heard:]
        heard += len(said)
        bad = [t for t in said if any(b in t for b in BAD_ENGLISH)]
        assert not bad, bad
        if kind == "roll":
            assert any(re.search(r"You rolled \d\.", t) for t in said) or page.locator(".rs-results").count(), said
    expect(page.locator(".rs-results")).to_be_visible()
    assert done.get("roll", 0) >= 5 and done.get("plot", 0) >= 1, done
    # The end: said, focus kept in the game, and the report link added after the screen.
    check_step(page, "rs", "en", "the end")
    expect(page.locator(".report-link a")).to_be_visible()
    expect_focus_in(page, "#play")
    assert "The season is over" in " ".join(announcements(page)[-5:]), announcements(page)[-5:]


# ---- Bermuda Triangle, in Spanish -----------------------------------------------------------------

# The renderer's English that a Spanish student must never hear (fragments of its msgids).
BERMUDA_ENGLISH = ("Your turn", "sailed", "Waiting for", "The spinner", "It caught", "Fleet ", "Ship ", "The voyage")


def test_a_spanish_student_sails_bermuda_to_its_end_by_keyboard(browser, asgi_server, settings):
    # the tablemates' bots at a pace a tablet's screen follows (the suite's 0.05 s a step moved
    # the three fleets faster than a tablet may send, and it was told to slow down before it began)
    settings.BOT_STEP_SECONDS = 0.4
    teacher = teacher_page(browser, asgi_server)
    code = new_session(teacher, "bermuda", "Most rounds", "12")
    session_id = int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))
    page = tablet(browser, asgi_server, code, "Bea")
    watch_announcements(page)
    teacher.get_by_role("button", name="Start the game").click()
    expect(page.locator(".bt-banner-title")).to_be_visible()
    check_step(page, "bt", "es", "the first turn")
    expect(page.locator("[data-live-region]")).not_to_be_empty()
    your_turn = fragment(
        translated("bermuda", "es", "Your turn: you rolled %(roll)s. Pick a ship, then where it sails.")
    )
    waiting = fragment(translated("bermuda", "es", "Waiting for %(name)s"))
    # the fleets move together: the tablemates' bots may have sailed before Bea's first look
    theirs = [
        fragment(translated("bermuda", "es", "%(fleet)s sailed %(ship)s to %(place)s.")),
        fragment(
            translated("bermuda", "es", "%(fleet)s sailed %(ship)s out to sea between %(a)s and %(b)s (space %(i)s).")
        ),
    ]
    first = announcements(page)
    assert any(your_turn in t or waiting in t or any(f in t for f in theirs) for t in first), first
    you_sailed = fragment(translated("bermuda", "es", "You sailed %(ship)s to %(place)s."))
    you_sailed_sea = fragment(
        translated("bermuda", "es", "You sailed %(ship)s out to sea between %(a)s and %(b)s (space %(i)s).")
    )
    with translation.override("es"):
        stale = str(MESSAGES["stale_view"])
    heard, sails = len(first), 0
    for count in range(1, 200):
        if page.locator(".bt-results").count():
            break
        try:
            page.locator("button.bt-act:not([disabled]), .bt-results").first.wait_for(timeout=15_000)
        except Exception:
            raise AssertionError(f"nothing to do for 15 s; focus on {focused(page)!r}") from None
        if page.locator(".bt-results").count():
            break
        wanted = in_thread(policy_key, "Bea", session_id)
        keys = page.locator("button.bt-act:not([disabled])").evaluate_all("(bs) => bs.map((b) => b.dataset.key)")
        if wanted not in keys:
            page.wait_for_timeout(100)  # the view is a step behind the database: look again
            continue
        if count == 1 or sails == 0:
            # At the start of a turn focus is on a move already (or one Tab away).
            assert focus_matches(page, "#play"), focused(page)
        try:
            keyboard_to(page, f"button.bt-act[data-key='{wanted}']")
        except TargetGone:
            continue  # a tablemate's bot moved first and the sail is gone: she looks again
        page.keyboard.press("Enter" if count % 2 else "Space")
        sails += 1
        settled(page, "bt")
        check_step(page, "bt", "es", f"sail {sails}")
        said = announcements(page)[heard:]
        heard += len(said)
        english = [t for t in said if any(w in t for w in BERMUDA_ENGLISH)]
        assert not english, english
        assert not [t for t in said if "Bea llevó" in t or "La Flota 1 llevó" in t], said  # never the third person
        if not any(you_sailed in t or you_sailed_sea in t for t in said) and any(stale in t for t in said):
            sails -= 1  # a tablemate's bot sailed first: the tablet said so in Spanish, and she chooses again
            continue
        assert any(you_sailed in t or you_sailed_sea in t for t in said), said
    expect(page.locator(".bt-results")).to_be_visible()
    assert sails >= 3, sails
    check_step(page, "bt", "es", "the end")
    expect(page.locator(".report-link a")).to_be_visible()
    expect_focus_in(page, "#play")
    over = fragment(translated("bermuda", "es", "The voyage is over"))
    assert over in " ".join(announcements(page)[-5:]), announcements(page)[-5:]
