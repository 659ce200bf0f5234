"""Driving a whole lesson through real browsers: a teacher page and one page per tablet."""
import json
import re
import time

from playwright.sync_api import expect

from tests.conftest import TABLET, in_thread
from tests.factories import PASSWORD, make_teacher


# The pages ask in the page (kit.js ask(), a div role=alertdialog), never with the browser's
# confirm(). A test that means "yes" to every question installs this, as a person would tap
# the going-ahead button (the last one) each time a question shows.
_ANSWER_YES = """
new MutationObserver(() => {
  for (const dialog of document.querySelectorAll('.sw-ask:not([data-answered])')) {
    dialog.dataset.answered = '1';
    setTimeout(() => { const buttons = dialog.querySelectorAll('.sw-ask-buttons button'); buttons[buttons.length - 1].click(); }, 0);
  }
}).observe(document, {childList: true, subtree: true});
"""


def accept_questions(page):
    """Answer every in-page question with its going-ahead button; any browser pop-up (which the
    pages must never open) is recorded in ``page.browser_dialogs`` and dismissed."""
    page.browser_dialogs = []
    page.on("dialog", lambda dialog: (page.browser_dialogs.append(dialog.message), dialog.dismiss()))
    page.add_init_script(_ANSWER_YES)


def teacher_page(browser, base_url, viewport=None, answer_questions=True):
    """A signed-in teacher's page (a new teacher, made in the database); with
    ``answer_questions`` every in-page question is answered with its going-ahead button."""
    teacher = in_thread(make_teacher)
    context = browser.new_context(viewport=viewport or {"width": 1366, "height": 768}, base_url=base_url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    if answer_questions:
        accept_questions(page)
    else:
        page.browser_dialogs = []
        page.on("dialog", lambda dialog: (page.browser_dialogs.append(dialog.message), dialog.dismiss()))
    page.goto("/accounts/login/")
    page.get_by_label("E-mail address").fill(teacher.email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Your sessions")).to_be_visible()
    return page


def create_session(page, *, bots=True, timer=False, seats=4):
    page.get_by_role("link", name="New session").click()
    page.get_by_label("Seats per table").fill(str(seats))
    page.get_by_label("Fill empty seats with bots").set_checked(bots)
    page.get_by_label("A bot plays for a student who stays idle").set_checked(timer)
    page.get_by_label("Seed (optional: the same seed replays the same dice)").fill("2026")
    page.get_by_role("button", name="Create session").click()
    code = page.locator(".join-code").inner_text()
    session_id = int(re.search(r"/sessions/(\d+)/", page.url).group(1))
    return code, session_id


def student_page(browser, base_url, code, nickname, *, viewport=TABLET):
    context = browser.new_context(viewport=viewport, base_url=base_url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    accept_questions(page)
    page.goto("/join")
    page.get_by_label("Lesson code").fill(code.lower().replace("-", " "))
    page.get_by_label("Nickname").fill(nickname)
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_role("heading", name=f"Hi {nickname}!")).to_be_visible()
    return page


def _policy_key(participant_nickname, session_id):
    """The policy bot's choice for this student's seat now, as the button's data-key."""
    from classroom.models import Seat
    from scenarios.registry import ENGINES
    from games.services import _bot, policy_bot

    seat = Seat.objects.select_related("table__game").get(
        table__session_id=session_id, participant__nickname=participant_nickname)
    game = seat.table.game
    engine = ENGINES[game.scenario]
    state = engine.load(game.state)
    if seat.number not in engine.to_act(state):
        return None
    action = _bot(game.scenario, policy_bot(game.scenario))(state, seat.number)
    return json.dumps(action, separators=(",", ":"))


PRIORITY = ('"type":"reason"', '"type":"set_destination"', '"type":"drive"', '"type":"buy_fuel"', '"type":"wait"')


def tap_once(page, nickname, session_id) -> bool:
    """One tap like a sensible student: the policy's choice if its button shows, else a safe one.
    Returns False once the student's game shows its results."""
    if page.locator(".evac-results").count():
        return False
    enabled = page.locator("button.evac-act:not([disabled])")
    try:
        enabled.first.wait_for(timeout=5_000)
    except Exception:
        return not page.locator(".evac-results").count()
    keys = enabled.evaluate_all("(buttons) => buttons.map((b) => b.dataset.key)")
    wanted = in_thread(_policy_key, nickname, session_id)
    if wanted not in keys:
        wanted = next((k for prefix in PRIORITY for k in keys if prefix in k), keys[0])
    before = page.evaluate("() => document.querySelectorAll('.evac-feed li').length + ':' + document.body.innerText.length")
    page.locator(f"button.evac-act[data-key='{wanted}']").first.click()
    # The buttons are disabled until the server answers; wait for the answer before the next tap.
    # (and any question the tap asked, answered in the page, has closed)
    page.wait_for_function("() => !document.querySelector('.sw-ask') && (!document.querySelector('button.evac-act[disabled]') || document.querySelector('.evac-results'))",
                           timeout=10_000)
    del before
    return True


def play_to_the_end(pages: dict, session_id, max_rounds=400):
    """Every student taps in turn until each one's game shows its results."""
    playing = dict(pages)
    for _ in range(max_rounds):
        for name, page in list(playing.items()):
            if not tap_once(page, name, session_id):
                playing.pop(name)
        if not playing:
            return
        time.sleep(0.02)
    raise AssertionError(f"Still playing after {max_rounds} rounds: {list(playing)}")
