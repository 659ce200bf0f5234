"""Driving a whole lesson through real browsers: a teacher page and one page per tablet."""

import json
import random
import re
import time

from playwright.sync_api import expect

from tests.browser.shots import failure_shot
from tests.conftest import TABLET, in_thread
from tests.factories import PASSWORD, make_teacher

# A test waiting for the server's answer in the page polls on a timer. Playwright's default polls
# on every animation frame, which keeps a waiting tablet drawing 60 frames a second: 0.42 and 0.51
# core-seconds per 10 s of waiting against 0.03 and 0.04 (docs/decisions/0011-test-suite-time.md).
POLL_MS = 50

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
    page.get_by_label("Game number (optional)").fill("2026")
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


def fetch_pdf(page, href, seconds=60) -> bytes:
    """The PDF a link points to, fetched with the page's cookies. A written report's PDF is
    printed once asked for: until then the link answers "almost ready" (503, ``Retry-After``),
    and it is asked again, as the waiting page does."""
    pdf, printed_by = page.request.get(href), time.monotonic() + seconds
    while pdf.status == 503:
        assert pdf.headers.get("retry-after") == "5", pdf.headers
        assert time.monotonic() < printed_by, f"{href} was asked for and not printed in {seconds} s"
        page.wait_for_timeout(1000)
        pdf = page.request.get(href)
    assert pdf.ok and pdf.body().startswith(b"%PDF"), pdf.status
    return pdf.body()


def _policy_key(participant_nickname, session_id):
    """The policy bot's choice for this student's seat now, as the button's data-key."""
    from classroom.models import Seat
    from games.services import _bot, policy_bot
    from scenarios.registry import ENGINES

    seat = Seat.objects.select_related("table__game").get(
        table__session_id=session_id, participant__nickname=participant_nickname
    )
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
    _tap(page, nickname, session_id)
    return True


def tap_stored(page, nickname, session_id, stored, tries=4) -> None:
    """Tap as ``tap_once`` until the server has stored one more of this student's moves
    (``stored()`` counts them). A tap chosen on a view the table has moved past (a bot's move
    changed this seat's choices meanwhile, likelier on a busy machine or by long-poll) is refused
    as stale and the tablet shows the fresh view: the student taps again, as a child would. The
    buttons come back only once the server has answered, so by then the move is stored or not."""
    before = stored()
    for _ in range(tries):
        tap_once(page, nickname, session_id)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            if stored() > before:
                return
            time.sleep(0.2)
    notice = page.locator("#notice").inner_text() if page.locator("#notice").count() else ""
    raise AssertionError(f"{tries} taps stored no move; the tablet says {notice!r}")


def _tap(page, nickname, session_id):
    """Tap the policy's choice (else a safe one) among the enabled buttons, and wait for the
    server's answer (and any question the tap asked, answered in the page, to close)."""
    keys = page.locator("button.evac-act:not([disabled])").evaluate_all(
        "(buttons) => buttons.map((b) => b.dataset.key)"
    )
    wanted = in_thread(_policy_key, nickname, session_id)
    if wanted not in keys:
        wanted = next((k for prefix in PRIORITY for k in keys if prefix in k), keys[0])
    page.locator(f"button.evac-act[data-key='{wanted}']").first.click()
    page.wait_for_function(
        "() => !document.querySelector('.sw-ask') && (!document.querySelector('button.evac-act[disabled]') || document.querySelector('.evac-results'))",
        timeout=10_000,
        polling=POLL_MS,
    )


def play_to_the_end(pages: dict, session_id, stuck_seconds=20):
    """Every student taps whenever their tablet offers a choice, until each one's game shows its
    results. A tablet with nothing to do (its student waits for the others) is passed over, not
    waited on; the game fails the test if no tablet can move for ``stuck_seconds``."""
    playing, moved_at = dict(pages), time.monotonic()
    while playing:
        for name, page in list(playing.items()):
            if page.locator(".evac-results").count():
                playing.pop(name)
            elif page.locator("button.evac-act:not([disabled])").count():
                _tap(page, name, session_id)
                moved_at = time.monotonic()
        if time.monotonic() - moved_at > stuck_seconds:
            raise AssertionError(f"No tablet could move for {stuck_seconds} s: {list(playing)}")
        time.sleep(0.02)


# --- A whole lesson, every scenario -------------------------------------------------------------
#
# The tablets count the frames they receive and the server's answers to their taps ("ok" or
# "error" on the socket), so a test taps once, waits for that answer, and looks again: no sleeps,
# and a tablet that has nothing to do (another seat's turn) is simply passed over.

COUNT_FRAMES = """
(() => {
  const Native = window.WebSocket;
  window.__swFrames = 0;
  window.__swAnswers = 0;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        window.__swFrames += 1;
        try { const m = JSON.parse(event.data); if (m.type === "ok" || m.type === "error") window.__swAnswers += 1; } catch (_) { /* not JSON */ }
      });
    }
  };
})();
"""


def tablet(browser, base_url, code, nickname, locale):
    """A 768-px tablet whose browser speaks ``locale``: the pages follow it, and the student joins
    by the form's own fields (their labels are in that language)."""
    context = browser.new_context(viewport=TABLET, base_url=base_url, locale=locale)
    context.set_default_timeout(15_000)
    page = context.new_page()
    accept_questions(page)
    page.add_init_script(COUNT_FRAMES)
    page.goto("/join")
    expect(page.locator("html")).to_have_attribute("lang", locale[:2])
    page.locator("input[name=code]").fill(code)
    page.locator("input[name=nickname]").fill(nickname)
    page.locator("form button[type=submit]").last.click()
    expect(page.locator("h1")).to_contain_text(nickname)
    return page


def policy_action(nickname, session_id):
    """The scenario's policy bot's choice for this student's seat now, as a button's data-key
    (None when the seat is not to act)."""
    from classroom.models import Seat
    from scenarios.registry import get

    seat = Seat.objects.select_related("table__game").get(table__session_id=session_id, participant__nickname=nickname)
    game = seat.table.game
    scenario = get(game.scenario)
    state = scenario.engine.load(game.state)
    if seat.number not in scenario.engine.to_act(state):
        return None
    return json.dumps(scenario.bots[scenario.policy_bot](state, seat.number), separators=(",", ":"))


class Tapper:
    """How a sensible student plays one scenario by tapping: the policy bot's choice when its
    button shows, else the first offered kind in ``prefer`` (data-key prefixes)."""

    def __init__(self, buttons, results, prefer=(), policy=True):
        self.buttons, self.results, self.prefer, self.policy = buttons, results, prefer, policy

    def choose(self, page, nickname, session_id, keys):
        if self.policy:
            wanted = in_thread(policy_action, nickname, session_id)
            if wanted in keys:
                return wanted
        return next((k for prefix in self.prefer for k in keys if k.startswith(prefix) or prefix in k), None)

    # What a student sees, read in one round trip to the page: each Playwright call costs the
    # test, its driver and the browser a message each way, and the play loop looks at every
    # tablet ten times a second while bots and tablemates move.
    LOOK = """([buttons, results]) => ({
        done: document.querySelector(results) !== null,
        keys: [...document.querySelectorAll(buttons + ":not([disabled])")].map((b) => b.dataset.key || ""),
        answers: window.__swAnswers,
    })"""

    def look(self, page):
        """Whether the results show, the keys of the buttons the student may press, and how many
        answers the page has had."""
        return page.evaluate(self.LOOK, [self.buttons, self.results])

    def tap(self, page, nickname, session_id, seen=None):
        """One tap. None once the student's results show; True after a tap the server answered;
        False when there is nothing to tap now."""
        seen = seen or self.look(page)
        if seen["done"]:
            return None
        if not seen["keys"]:
            return False
        wanted = self.choose(page, nickname, session_id, seen["keys"])
        if wanted is None:
            return False
        return self.press(page, f"{self.buttons}[data-key='{wanted}']", seen["answers"])

    def press(self, page, selector, before=None):
        before = page.evaluate("() => window.__swAnswers") if before is None else before
        try:
            page.locator(selector).first.click(timeout=2_000)
        except Exception:  # the view moved on under the finger: look again
            return False
        try:
            page.wait_for_function(
                f"() => window.__swAnswers > {before} || document.querySelector('{self.results}')",
                timeout=5_000,
                polling=POLL_MS,
            )
        except Exception:  # a tap the page let go unsent (a slap race another tablet settled): look again
            pass
        return True


class ResortTapper(Tapper):
    """Plot the storm where the viewer window says (north to the latitude, then west), else the
    policy's roll, buy or option."""

    LOOK = Tapper.LOOK.replace(
        "answers:",
        """plotting: document.querySelector("button.rs-coord:not([disabled])") !== null,
        line: document.querySelector(".rs-viewer-line")?.innerText || "",
        answers:""",
    )

    def tap(self, page, nickname, session_id):
        seen = self.look(page)
        if seen["done"] or not seen["plotting"]:
            return super().tap(page, nickname, session_id, seen)
        lat, lon = re.search(r"(\d+)°\D+(\d+)°", seen["line"]).groups()
        page.locator(f"button.rs-coord[data-key='lat-{lat}']").click()
        page.locator(f"button.rs-coord[data-key='lon-{lon}']").click()
        return self.press(page, "button.rs-act[data-key='place']", seen["answers"])


def tornado_policy_key(nickname, session_id):
    """The policy bot's choice for this student's Tornado Alert! seat now, as its button's
    data-key (a card by its place in the hand), or None."""
    from classroom.models import Seat
    from scenarios.registry import get

    seat = Seat.objects.select_related("table__game").get(table__session_id=session_id, participant__nickname=nickname)
    scenario = get("tornado_alert")
    state = scenario.engine.load(seat.table.game.state)
    if seat.number not in scenario.engine.to_act(state):
        return None
    action = scenario.bots[scenario.policy_bot](state, seat.number)
    if action["type"] == "play":
        return f"hand-{state['hands'][seat.number].index(action['card'])}"
    return {"slap": "slap", "wait": "pass"}.get(action["type"], f"choice-{action['type']}")


class TornadoTapper(Tapper):
    """Decide the round, lay a card on one's turn, slap a pile, or let it go when one may not;
    with ``policy``, as the policy bot would (slapping only a pile worth it)."""

    def choose(self, page, nickname, session_id, keys):
        if self.policy:
            wanted = in_thread(tornado_policy_key, nickname, session_id)
            if wanted in keys:
                return wanted
        for prefix in ("choice-keep", "choice-", "hand-", "slap", "pass"):
            found = next((k for k in keys if k.startswith(prefix)), None)
            if found:
                return found
        return None


TAPPERS = {
    "evacuation": Tapper("button.evac-act", ".evac-results", PRIORITY),
    "bermuda": Tapper("button.bt-act", ".bt-results", ('{"type":"sail"',)),
    "stormfury": Tapper(
        "button.sf-act",
        ".sf-results",
        ('{"type":"pick_role"', '{"type":"decline_trade"', '{"type":"discard"', '{"type":"end_turn"', '{"type":"draw"'),
        policy=False,
    ),
    "resort": ResortTapper(
        "button.rs-act",
        ".rs-results",
        ('{"type":"buy","options":2', '{"type":"option"', '{"type":"roll"', '{"type":"stay"', '{"type":"pass"'),
    ),
    # "Let it go" (a pass) answers a pile one will not slap: the race settles once every seat has
    "tornado_alert": TornadoTapper(":is(button.ta-act, button.ta-pass)", ".ta-results", policy=False),
}


def play_by_tapping(scenario, pages: dict, session_id, seconds=600):
    """Every student taps as their game asks until each one's results show (on giving up, each
    tablet still playing is photographed, ``shots.failure_shot``)."""
    tapper = TAPPERS[scenario]
    playing = dict(pages)
    deadline = time.monotonic() + seconds
    while playing:
        if time.monotonic() > deadline:
            pictures = [failure_shot(page, f"{scenario}-stuck-{name}") for name, page in playing.items()]
            raise AssertionError(f"still playing after {seconds} s: {list(playing)} (see {', '.join(pictures)})")
        tapped = False
        for name, page in list(playing.items()):
            done = tapper.tap(page, name, session_id)
            if done is None:
                playing.pop(name)
            tapped = tapped or bool(done)
        if playing and not tapped:
            next(iter(playing.values())).wait_for_timeout(100)  # bots' and other seats' moves


# --- A lesson at a child's pace ----------------------------------------------------------------


# A sensible child plays Tornado Alert! as its policy bot does: slapping the piles worth it.
CHILDS_TAPPERS = {"tornado_alert": TornadoTapper(TAPPERS["tornado_alert"].buttons, ".ta-results")}


class ChildsPace:
    """Children tapping as a class does: each reads a new choice for 8–15 s of the lesson's time
    before tapping; a quick tap takes less (``QUICK``: a slap or letting a pile go is a reaction,
    laying a card a flip, a roll of the dice half a decision, as ``benchmarks/`` time them). The
    lesson's clock runs ``speed`` times faster (``games.clock``). The pauses are drawn from a
    seeded random, the same every run."""

    THINK = (8, 15)
    QUICK = (("slap", (1, 3)), ("pass", (1, 3)), ("hand-", (2, 5)), ('{"type":"roll"', (4, 7.5)))

    def __init__(self, scenario, session_id, speed, seed=0):
        self.tapper, self.session_id, self.speed = CHILDS_TAPPERS.get(scenario, TAPPERS[scenario]), session_id, speed
        self.random = random.Random(f"{scenario}:{seed}")
        self.seen, self.due = {}, {}  # name -> the choice last seen, and when its tap comes
        self.owed = []  # (due, answered): when a child's tap was due and when the test had made it

    def seconds(self, keys) -> float:
        """The lesson's seconds a child takes over these choices: the slowest one's pace."""
        paces = [next((pace for prefix, pace in self.QUICK if key.startswith(prefix)), self.THINK) for key in keys]
        return self.random.uniform(max(low for low, _ in paces), max(high for _, high in paces))

    def lesson_seconds(self, since: float) -> float:
        """The lesson's seconds since ``since`` (a ``time.monotonic()``). The test's own time
        counts at its real length, not ``speed`` times it: one thread looks at every tablet in
        turn and taps for each, waiting for the answer, where a class's children each look at
        their own tablet and tap at once. That time is every stretch in which some child's tap
        was due and not yet made or being made (``self.owed``, overlapping stretches once): a
        tenth of a second a tap on a quiet machine, more on a busy one."""
        elapsed = time.monotonic() - since
        owed = self.owed_seconds(since)
        return (elapsed - owed) * self.speed + owed

    def owed_seconds(self, since: float) -> float:
        """The real seconds since ``since`` covered by the stretches in ``self.owed``."""
        total, reached = 0.0, since
        for start, end in sorted(self.owed):
            start = max(start, reached)
            if end > start:
                total, reached = total + end - start, end
        return total

    def step(self, name, page) -> bool | None:
        """Look at one tablet and tap if its child has thought long enough. None once the
        child's results show; True after a tap."""
        seen = self.tapper.look(page)
        if seen["done"]:
            return None
        keys = seen["keys"] or (["plot"] if seen.get("plotting") else [])  # the resort's map: a decision
        choice = (tuple(keys), seen["answers"])
        if not keys:
            self.seen.pop(name, None)
            return False
        if self.seen.get(name) != choice:
            self.seen[name], self.due[name] = choice, time.monotonic() + self.seconds(keys) / self.speed
        if time.monotonic() < self.due[name]:
            return False
        self.seen.pop(name)
        tapped = bool(self.tapper.tap(page, name, self.session_id))
        self.owed.append((self.due[name], time.monotonic()))
        return tapped

    def play(self, pages: dict, *, on_the_way=None, seconds=600):
        """Every child in ``pages`` plays at this pace until each one's results show;
        ``on_the_way()`` runs between rounds of looks (a late child arriving) and may add to
        ``pages``."""
        deadline, done = time.monotonic() + seconds, set()
        while len(done) < len(pages):
            if time.monotonic() > deadline:
                playing = {name: page for name, page in pages.items() if name not in done}
                pictures = [failure_shot(page, f"childs-pace-stuck-{name}") for name, page in playing.items()]
                raise AssertionError(f"still playing after {seconds} s: {list(playing)} (see {', '.join(pictures)})")
            for name, page in list(pages.items()):
                if name not in done and self.step(name, page) is None:
                    done.add(name)
            if on_the_way:
                on_the_way()
            next(iter(pages.values())).wait_for_timeout(50)
