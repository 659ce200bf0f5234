"""Three languages and the keyboard in one browser test: a Spanish, a Dutch and an English
student at the same table each choose their language with the tablet's picker and play a whole
game by keyboard alone (Tab, Shift+Tab, Enter, Space and the arrow keys: no click, no
script-dispatched click), with focus on a control of the game after every step and the page and
its live region in their language; then each reads their report, page and PDF written by the
real Celery worker, in it.

The test runs for Hurricane Approaching! (three households and a bot, played to the end by the
students) and for Project Stormfury (the three as one team, six turns, played to the end by the
students). The teacher's page is driven as usual; only the students are keyboard-only.
"""

import re
import time
from pathlib import Path

import polib
import pytest
from playwright.sync_api import expect

from classroom.models import Session
from tests import pdfs
from tests.browser.a11y import announcements, expect_focus_in, focus_matches, focused, press_until, watch_announcements
from tests.browser.lesson import POLL_MS, _policy_key, accept_questions, fetch_pdf, teacher_page
from tests.conftest import TABLET, in_thread

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]

# Each tablet's browser speaks another language than the one its student picks, so the page's
# first language proves the browser's default and the second one proves the picker.
STUDENTS = {
    "Ann": {
        "browser": "nl-NL",
        "lang": "en",
        "hello": "Hi Ann!",
        "report": {"evacuation": "Your 48 hours", "stormfury": "Who did what"},
    },
    "Bea": {
        "browser": "nl-NL",
        "lang": "es",
        "hello": "¡Hola, Bea!",
        "report": {"evacuation": "Tus 48 horas", "stormfury": "Quién hizo qué"},
    },
    "Cas": {
        "browser": "es-MX",
        "lang": "nl",
        "hello": "Hoi Cas!",
        "report": {"evacuation": "Jouw 48 uur", "stormfury": "Wie deed wat"},
    },
}

# Lines of each game's live region that are translated today (turn and seat announcements), as
# the renderers' msgids: each student must hear them in their language, never in English.
SAID = {
    "evacuation": {"others": "position not shown", "end": "Game over"},
    "stormfury": {"start": "Your turn", "ended": "%(who)s ended their turn.", "end": "The storm is over"},
}
PREFIX = {"evacuation": "evac", "stormfury": "sf"}
# How evacuation's feed lines begin in English (the renderer writes them in the tablet's language
# from the view's ids and numbers): an es or nl tablet's feed and live region must carry none.
ENGLISH_FEED = re.compile(
    r"\b(Drove to|Stuck in traffic|Bought|Arrived at|Left home|Waited and|Chose the|"
    r"Took \$|Picked up|Decided to|Tropical-storm winds|Back home|Gave a reason|You arrived)"
)
RESULTS = {"evacuation": ".evac-results", "stormfury": ".sf-results"}


def translated(scenario, lang, msgid) -> str:
    """The scenario's JS catalogue's words for msgid in lang (the msgid itself in English)."""
    if lang == "en":
        return msgid
    po = polib.pofile(str(ROOT / "scenarios" / scenario / "locale" / lang / "LC_MESSAGES" / "djangojs.po"))
    entry = po.find(msgid)
    assert entry and entry.msgstr and "fuzzy" not in entry.flags, f"{scenario}/{lang}: {msgid!r} is not translated"
    return entry.msgstr


def fragment(text) -> str:
    """The longest literal piece of a message (placeholders and end punctuation left out)."""
    return max((p.strip(" .,:;!?") for p in re.split(r"%\(\w+\)s", text)), key=len)


# ---- the keyboard ---------------------------------------------------------------------------------


def keyboard_to(page, selector, *, limit=120):
    """Moves focus to selector with Tab, or Shift+Tab when it lies before the focused control."""
    if focus_matches(page, selector):
        return
    behind = page.evaluate(
        """(sel) => {
      const target = document.querySelector(sel), active = document.activeElement;
      return !!(target && active && active !== document.body
                && (active.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_PRECEDING));
    }""",
        selector,
    )
    press_until(page, selector, key="Shift+Tab" if behind else "Tab", limit=limit)


def pick_language(page, lang):
    """The picker in the page's header: Tab to it, arrow keys to the language, Tab, Enter."""
    keyboard_to(page, "#language-picker")
    picker = page.locator("#language-picker")
    page.keyboard.press("Home")
    for _ in range(4):
        if picker.input_value() == lang:
            break
        page.keyboard.press("ArrowDown")
    assert picker.input_value() == lang, picker.input_value()
    page.keyboard.press("Tab")
    assert focus_matches(page, ".language-picker button[type=submit]"), focused(page)
    page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", lang)


def tablet(browser, base_url, code, name):
    """The student's tablet: opens /join in the browser's language, picks theirs, types the code
    and nickname and presses Enter, all by keyboard."""
    student = STUDENTS[name]
    context = browser.new_context(viewport=TABLET, base_url=base_url, locale=student["browser"])
    context.set_default_timeout(15_000)
    page = context.new_page()
    accept_questions(page)
    page.goto("/join")
    expect(page.locator("html")).to_have_attribute("lang", student["browser"][:2])  # the browser's, by default
    pick_language(page, student["lang"])
    keyboard_to(page, "input[name=code]")
    page.keyboard.type(code)
    keyboard_to(page, "input[name=nickname]")
    page.keyboard.type(name)
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name=student["hello"])).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", student["lang"])
    return page


# ---- one step, by keyboard --------------------------------------------------------------------------

EVAC_PRIORITY = ('"type":"reason"', '"type":"set_destination"', '"type":"drive"', '"type":"buy_fuel"', '"type":"wait"')
SF_PRIORITY = ('"type":"pick_role"', '"type":"decline_trade"', '"type":"discard"', '"type":"end_turn"', '"type":"draw"')


def wanted_key(scenario, page, name, session_id):
    """The data-key a sensible student chooses now among the enabled buttons, or None."""
    prefix = PREFIX[scenario]
    keys = [
        k
        for k in page.locator(f"button.{prefix}-act:not([disabled])").evaluate_all(
            "(bs) => bs.map((b) => b.dataset.key)"
        )
        if k and k.startswith("{")
    ]
    if not keys:
        return None
    if scenario == "evacuation":
        policy = in_thread(_policy_key, name, session_id)
        if policy in keys:
            return policy
        return next((k for p in EVAC_PRIORITY for k in keys if p in k), keys[0])
    return next((k for p in SF_PRIORITY for k in keys if p in k), None)


def check_step(page, scenario, name):
    """After a step: focus is on a control of the game (never on the page), the page is in the
    student's language, and the live region has not said a translated line in English."""
    lang = STUDENTS[name]["lang"]
    if not page.locator(RESULTS[scenario]).count():
        expect_focus_in(page, "#play", timeout=3_000)  # the server's answer may still be drawing
    expect(page.locator("html")).to_have_attribute("lang", lang)
    if lang != "en":
        said = " ".join(announcements(page))
        for msgid in SAID[scenario].values():
            assert fragment(msgid) not in said, f"{name} ({lang}) heard {fragment(msgid)!r} in English: {said[-300:]}"


def step(scenario, page, name, session_id, count) -> bool:
    """One move by keyboard; False once the game shows its results on this tablet."""
    prefix = PREFIX[scenario]
    if page.locator(RESULTS[scenario]).count():
        return False
    try:
        # briefly: a tablet whose student waits for the others is passed over, not waited on
        page.locator(f"button.{prefix}-act:not([disabled])").first.wait_for(timeout=500)
    except Exception:
        return not page.locator(RESULTS[scenario]).count()
    key = wanted_key(scenario, page, name, session_id)
    if key is None:
        page.wait_for_timeout(300)  # waiting for the team or the class storm
        return True
    keyboard_to(page, f"button.{prefix}-act[data-key='{key}']")
    page.keyboard.press("Enter" if count % 2 else "Space")  # both keys press a button
    page.wait_for_function(
        f"() => !document.querySelector('.sw-ask') && (!document.querySelector('button.{prefix}-act[disabled]') || document.querySelector('{RESULTS[scenario]}'))",
        timeout=10_000,
        polling=POLL_MS,
    )
    try:
        check_step(page, scenario, name)
    except AssertionError as error:
        raise AssertionError(f"{name} after {key}: {error}") from None
    return True


# ---- the lesson -------------------------------------------------------------------------------------


def new_session(teacher, scenario):
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Scenario").select_option(scenario)
    teacher.get_by_label("Seats per table").fill("4" if scenario == "evacuation" else "3")
    teacher.get_by_label("Fill empty seats with bots").set_checked(scenario == "evacuation")
    teacher.get_by_label("A bot plays for a student who stays idle").set_checked(False)
    teacher.get_by_label("Game number (optional)").fill("7")
    if scenario == "stormfury":
        teacher.get_by_text("Scenario options").click()
        teacher.get_by_role("combobox", name=re.compile("Most turns", re.I)).select_option("6")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    return code, int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))


def end_lesson(teacher, session_id):
    """Every table has played to the end: the lesson ends by itself, without "End now"."""
    deadline = time.monotonic() + 30
    while in_thread(lambda: Session.objects.get(pk=session_id).status) != Session.Status.ENDED:
        assert time.monotonic() < deadline, "the lesson did not end"
        time.sleep(0.2)


def read_report(page, session_id, heading, timeout=180):
    """From the tablet: the student's report page once the worker has written it (a list of
    reports is followed by Tab and Enter to the first, this student's own); returns the text of
    the PDF its "Download" link points to."""
    page.goto(f"/play/{session_id}/my-report")
    deadline = time.monotonic() + timeout
    while not page.get_by_role("heading", name=re.compile(heading)).count():
        assert time.monotonic() < deadline, f"no report headed {heading!r}: {page.content()[:600]}"
        if page.locator("a.button.primary").count():
            keyboard_to(page, "a.button.primary")
            with page.expect_navigation():
                page.keyboard.press("Enter")
            continue
        page.wait_for_timeout(1500)
        page.reload()
    keyboard_to(page, "a.pdf-link")
    href = page.evaluate("() => document.activeElement.href")
    return "\n".join(pdfs.pdf_pages(fetch_pdf(page, href)))


@pytest.mark.long
@pytest.mark.parametrize("scenario", ["evacuation", "stormfury"])
def test_spanish_dutch_and_english_students_play_a_whole_game_by_keyboard_in_their_languages(
    browser, asgi_server, celery_worker, scenario
):
    teacher = teacher_page(browser, asgi_server)
    code, session_id = new_session(teacher, scenario)
    students = {name: tablet(browser, asgi_server, code, name) for name in STUDENTS}
    for page in students.values():
        watch_announcements(page)
    teacher.get_by_role("button", name="Start the game").click()
    expect(teacher.locator("html")).to_have_attribute("lang", "en")  # the teacher's pages keep the teacher's
    prefix = PREFIX[scenario]
    for page in students.values():
        expect(page.locator(f"button.{prefix}-act:not([disabled])").first).to_be_visible()
        # The first Tab from the page's top reaches the game: the student starts by keyboard.
        keyboard_to(page, f"button.{prefix}-act:not([disabled])")

    playing, count = dict(students), 0
    while playing:
        count += 1
        assert count < 900, f"still playing: {list(playing)}"
        for name, page in list(playing.items()):
            if not step(scenario, page, name, session_id, count):
                playing.pop(name)

    for name, page in students.items():
        lang = STUDENTS[name]["lang"]
        expect(page.locator(RESULTS[scenario])).to_be_visible()
        check_step(page, scenario, name)
        said = " ".join(announcements(page))
        for msgid in SAID[scenario].values():
            words = fragment(translated(scenario, lang, msgid))
            assert words in said, f"{name} ({lang}) never heard {words!r}: {said[-400:]}"
        if scenario == "evacuation":
            feed = page.locator(".evac-ev > span:nth-child(2)").all_inner_texts()
            english = [line for line in feed + announcements(page) if ENGLISH_FEED.search(line)]
            assert feed and (english != []) == (lang == "en"), (name, lang, feed, english[:5])
    end_lesson(teacher, session_id)
    for name, page in students.items():
        student = STUDENTS[name]
        text = read_report(page, session_id, student["report"][scenario])
        expect(page.locator("html")).to_have_attribute("lang", student["lang"])
        assert student["report"][scenario] in text, f"{name}'s PDF is not in {student['lang']}: {text[:300]}"
