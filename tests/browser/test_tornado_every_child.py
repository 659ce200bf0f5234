"""Every child can race in Tornado Alert! (RULES.md, "Reaction allowance").

- A student who reacts in 2.5-3 s, at the class's default settings against three bots, wins piles
  in the fair draw, and the tablet's live region never says an old slap's result again.
- The tablet's refusal notice (an alert) is written once: a screen drawn again does not say it
  again.
- The slap key can be turned off on the tablet (remembered there), and the slap button is the
  first stop after the game's banner.
- The teacher gives one student more time to react with one tap on the dashboard, and a
  student's "I need more time to react" reaches the dashboard, where one tap gives it.
"""

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.lesson import student_page, teacher_page
from tests.conftest import in_thread

pytestmark = pytest.mark.browser

# The sentences that tell a tablet what its own slap came to (the renderer's T.gotIt, T.wonDraw,
# T.drawWonBy, T.tooLate, T.faster).
OWN_SLAP = re.compile(r"You got it|You won the draw|\bwon the draw\.|Too late: the pile|was faster\.")

# A student who reacts in 2.5-3 s: every new chance (a pile to slap, a card to play, a round to
# keep) is taken 2.5-3 s after it shows, if it is still there; slaps first. What the live region
# says is kept with the number of slaps made by then.
SLOW_STUDENT = """(seed) => {
  let s = seed >>> 0;
  const rand = () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s / 4294967296; };
  const sim = window.__sim = { slaps: 0, said: [] };
  let plan = null, last = "";
  const text = (sel) => { const el = document.querySelector(sel); return el ? el.textContent : ""; };
  new MutationObserver(() => {
    const now = text("#play [data-live-region]").trim();
    if (now && now !== last) sim.said.push({ text: now, slaps: sim.slaps });
    last = now;
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
  setInterval(() => {
    const slap = document.querySelector("button.ta-slap:not([disabled])");
    const target = slap || document.querySelector("button.ta-card:not([disabled])")
      || document.querySelector("button.ta-choice[data-key='choice-keep']:not([disabled])");
    const key = target ? [target.dataset.key, text("#ta-pile-top"), text(".ta-pile"), text(".ta-decide")].join("|") : null;
    if (!key) { plan = null; return; }
    if (!plan || plan.key !== key) plan = { key, at: Date.now() + 2500 + rand() * 500 };
    if (plan.done || Date.now() < plan.at) return;
    plan.done = true;
    if (target === slap) sim.slaps += 1;
    target.click();
  }, 50);
}"""


def new_session(teacher, seats=4):
    """A Tornado Alert! lesson at the class's default options, empty seats filled with bots."""
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Scenario").select_option("tornado_alert")
    teacher.get_by_label("Seats per table").fill(str(seats))
    teacher.get_by_label("Fill empty seats with bots").set_checked(True)
    teacher.get_by_label("A bot plays for a student who stays idle").set_checked(False)
    teacher.get_by_label("Game number (optional)").fill("61")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    return code, int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))


def seat_of(session_id, nickname):
    from classroom.models import Seat

    return Seat.objects.get(table__session_id=session_id, participant__nickname=nickname).number


def game_state(session_id):
    game = Game.objects.get(table__session_id=session_id)
    return game.state, game.status


def until_slappable(page):
    """Plays the student's cards (when it is their turn) until the pile may be slapped."""
    slap, card = page.locator("button.ta-slap:not([disabled])"), page.locator("button.ta-card:not([disabled])")
    for _ in range(20):
        expect(slap.or_(card).first).to_be_visible(timeout=30_000)
        if slap.count():
            return
        card.first.click()
        page.wait_for_function("() => document.querySelector('.ta')?.getAttribute('aria-busy') === 'false'")
    raise AssertionError("the pile never became one to slap")


def start(teacher, page):
    teacher.get_by_role("button", name="Start the game").click()
    expect(page.locator("button.ta-slap")).to_be_visible()


def test_a_student_reacting_in_2_5_to_3_s_wins_races_and_hears_each_slap_once(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server)
    code, session_id = new_session(teacher)
    page = student_page(browser, asgi_server, code, "Sam")
    start(teacher, page)
    seat = in_thread(seat_of, session_id, "Sam")
    page.evaluate(SLOW_STUDENT, 61)
    stats = None
    for _ in range(600):  # until the student has been in ten races (or the game ended without)
        state, status = in_thread(game_state, session_id)
        stats = state["stats"][seat]
        if stats["races_won"] + stats["races_lost"] >= 10 or status == Game.Status.FINISHED:
            break
        page.wait_for_timeout(1000)
    races = stats["races_won"] + stats["races_lost"]
    assert races >= 10, f"in {races} races only, with the class default: {stats}"
    assert stats["races_won"] >= 1, stats

    # what the student heard: each slap's result at most once, and none before the first slap
    said = page.evaluate("() => window.__sim.said")
    own = [(s["slaps"], OWN_SLAP.search(s["text"]).group(0)) for s in said if OWN_SLAP.search(s["text"])]
    assert own, said[-10:]
    counts = [n for n, _ in own]
    assert len(counts) == len(set(counts)) and 0 not in counts, f"an old slap said again: {own}"


def test_the_refusal_notice_is_said_once_however_often_the_screen_is_drawn(browser, asgi_server):
    """Two tablets slap the same pile at the same moment with no race window ("as printed"):
    the slower is refused; its notice (role=alert) is written once, and the moves that follow,
    which draw its screen again, do not write it again."""
    from classroom import services
    from tests.factories import make_session

    session = in_thread(
        make_session,
        scenario="tornado_alert",
        seats_per_table=3,
        fill_with_bots=False,
        turn_timer=False,
        seed=61,
        options={"race_ms": 0},
    )
    pages = {name: student_page(browser, asgi_server, session.join_code, name) for name in ("Ana", "Ben", "Cy")}
    for page in pages.values():
        page.evaluate("""() => {
          window.__notices = [];
          const notice = document.getElementById('notice');
          new MutationObserver(() => window.__notices.push(notice.textContent)).observe(
            notice, { childList: true, subtree: true, characterData: true });
        }""")
    in_thread(services.start, session=session)
    for page in pages.values():
        expect(page.locator("button.ta-slap")).to_be_visible()
    player = next(p for p in pages.values() if p.locator("button.ta-card:not([disabled])").count())
    values = player.locator("button.ta-card:not([disabled]) .ta-val").all_inner_texts()
    player.locator("button.ta-card:not([disabled])").nth(next(i for i, v in enumerate(values) if v != "0")).click()
    others = [p for p in pages.values() if p is not player]
    for page in others:
        expect(page.locator("button.ta-slap:not([disabled])")).to_be_visible()
    at = others[0].evaluate("() => Date.now() + 400")
    for page in others:
        page.evaluate(
            "(at) => setTimeout(() => document.querySelector('button.ta-slap:not([disabled])')?.click(), at - Date.now())",
            at,
        )
    refused = None
    for _ in range(100):
        refused = next((p for p in others if p.locator("#notice:not([hidden])").count()), None)
        if refused:
            break
        others[0].wait_for_timeout(100)
    assert refused is not None, "neither slap was refused"
    notice = refused.locator("#notice").inner_text()
    assert re.search(r"was faster|Too late", notice), notice
    # the teacher approves the nicknames: each approval draws every tablet's screen again, with
    # the tablemate's name in it
    from classroom.models import Participant

    for participant in in_thread(lambda: list(Participant.objects.filter(session=session))):
        in_thread(services.approve, participant=participant)
        expect(refused.locator(".ta-seats")).to_contain_text(participant.nickname)
    expect(refused.locator("#notice")).to_have_text(notice)
    assert refused.evaluate("() => window.__notices") == [notice], "the same refusal was written again"


def test_the_slap_key_can_be_turned_off_and_the_slap_button_is_one_tab_from_the_banner(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server)
    code, session_id = new_session(teacher)
    page = student_page(browser, asgi_server, code, "Kai")
    start(teacher, page)
    until_slappable(page)  # a bot played a card the student may slap
    # from the start of the game area (its banner, where focus waits), one Tab reaches the slap
    page.locator(".ta-banner-title").focus()
    page.keyboard.press("Tab")
    expect(page.locator("button.ta-slap")).to_be_focused()
    # the slap key is turned off on this tablet, by keyboard, and stays off after a reload
    setting = page.get_by_label("Slap with the S key")
    expect(setting).to_be_checked()
    setting.focus()
    page.keyboard.press("Space")
    expect(setting).not_to_be_checked()
    page.reload()
    expect(page.get_by_label("Slap with the S key")).not_to_be_checked()
    until_slappable(page)
    page.locator(".ta-banner-title").focus()
    page.keyboard.press("s")
    # a slap would have been sent at once (the screen turns busy as the tap leaves)
    assert page.evaluate("() => document.querySelector('.ta').getAttribute('aria-busy')") == "false"
    assert page.locator(".ta-banner-title").evaluate("(el) => el === document.activeElement")
    # turned on again, the key slaps
    page.get_by_label("Slap with the S key").check()
    until_slappable(page)
    page.locator(".ta-banner-title").focus()
    page.keyboard.press("s")
    expect(page.locator(".ta-banner-title")).to_have_text(
        re.compile("Your slap counted|Waiting for|Your turn|Slap the pile"), timeout=15_000
    )
    seat = in_thread(seat_of, session_id, "Kai")
    assert in_thread(lambda: Game.objects.get(table__session_id=session_id).moves.filter(seat=seat).exists())


def test_the_teacher_gives_one_student_more_time_in_one_tap_and_answers_the_tablets_request(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server)
    code, session_id = new_session(teacher)
    page = student_page(browser, asgi_server, code, "Ana")
    teacher.get_by_role("button", name="Approve: Ana").click()
    start(teacher, page)
    seat = in_thread(seat_of, session_id, "Ana")

    def allowance():
        return in_thread(game_state, session_id)[0]["allow"][seat]

    assert allowance() == 3500  # the class default
    more = teacher.get_by_role("button", name="More time to react: Ana")
    expect(more).to_have_attribute("aria-pressed", "false")
    more.click()
    expect(more).to_have_attribute("aria-pressed", "true")
    expect(more).to_be_focused()
    assert allowance() == 7000
    expect(page.locator(".ta-time").get_by_text("You have 7 seconds to react to every pile.")).to_be_visible()
    more.click()  # and back to the class's allowance
    expect(more).to_have_attribute("aria-pressed", "false")
    assert allowance() == 3500

    # the tablet asks; the dashboard says so under "Needs you"; one tap gives the time
    page.get_by_role("button", name="I need more time to react").click()
    expect(page.locator(".ta-time").get_by_text("You asked your teacher for more time to react.")).to_be_visible()
    alerts = teacher.locator(".alerts")
    expect(alerts.get_by_text("asks for more time to react")).to_be_visible()
    alerts.get_by_role("button", name=re.compile("^Give more time: Ana")).click()
    expect(alerts.get_by_text("asks for more time to react")).to_have_count(0)
    assert allowance() == 7000 and in_thread(game_state, session_id)[0]["asked"] == []
    expect(more).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".ta-time").get_by_text("You have 7 seconds to react to every pile.")).to_be_visible()
    expect(page.get_by_role("button", name="I need more time to react")).to_have_count(0)


LIVE_HARNESS = """
  const controls = {busy: false, asking: false, names: {}, act: () => Promise.resolve(),
    askTeacher: () => Promise.resolve()};
  window.show = (message) => {
    render(root, data.board, message, controls);
    const live = root.querySelector("[data-live-region]");
    return live ? live.textContent.trim() : "";
  };
"""


def test_a_slaps_result_is_said_once_not_at_every_later_change_of_the_pile(browser, asgi_server):
    """The tablet slaps a pile and takes it; the pile changes five more times. Its live region
    says "You got it" once, when the pile was taken, and then only what each change was."""
    from scenarios import registry
    from tests.browser.harness import harness_page, renderer_html
    from tests.browser.test_renderer_contract import message

    scenario = registry.get("tornado_alert")
    engine, bot = scenario.engine, scenario.bots[scenario.policy_bot]
    state = engine.setup(7, 3, {"allowance_ms": 3000, "race_ms": 0})
    me, version = 0, 1

    def step(seat_choice):
        acting = engine.to_act(state)
        if not acting:
            engine.apply(state, None, engine.due(state)["action"])
            return
        seat = acting[0]
        action = seat_choice(seat) if seat == me else bot(state, seat)
        engine.apply(state, seat, action)

    def mine_waits(seat):
        action = bot(state, seat)
        return {"type": "wait", "pile": state["pile_id"]} if action["type"] == "slap" else action

    for _ in range(500):  # until this seat may slap a pile worth taking
        if any(a["type"] == "slap" for a in engine.actions(state, me)):
            break
        step(mine_waits)
    page, errors = harness_page(browser, asgi_server, renderer_html(scenario, {"board": engine.board()}, LIVE_HARNESS))
    try:
        page.evaluate("(m) => window.show(m)", message(engine, state, me, version))
        page.locator("button.ta-slap:not([disabled])").click()
        engine.apply(state, me, {"type": "slap", "pile": state["pile_id"]})  # no window: taken at once
        assert state["last_take"]["seat"] == me
        said = []
        for _ in range(6):  # the take, then five more changes of the pile
            version += 1
            said.append(page.evaluate("(m) => window.show(m)", message(engine, state, me, version)))
            pile = state["pile_id"]
            for _ in range(200):
                if state["pile_id"] != pile or engine.finished(state):
                    break
                step(mine_waits)
        assert not errors, errors
    finally:
        page.context.close()
    own = [text for text in said if OWN_SLAP.search(text)]
    assert len(own) == 1 and OWN_SLAP.search(said[0]), said
