"""The turn timer is the same on every scenario's tablet screen (kit.js): with the seat's turn
timer running and 15 seconds left, the screen shows the countdown, says once in its live region
that a bot is about to play, and shows a "More time" button that asks the transport for more;
when the seat's own move then arrives without the student having chosen it, the screen says a
bot moved for them rather than speaking the move as the student's own. "Ask the teacher" keeps
focus when pressed and a second press cancels it."""

from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from scenarios import registry
from tests.browser.a11y import focused
from tests.browser.harness import harness_page, renderer_html
from tests.browser.test_renderer_contract import message

pytestmark = pytest.mark.browser
SCRIPT = """
  window.asked = 0; window.more = 0; window.shown = 0;
  const controls = {busy: false, asking: false, act: () => Promise.resolve(),
    askTeacher: () => { window.asked += 1; controls.asking = !controls.asking; window.show(window.shown); return Promise.resolve(); },
    moreTime: () => { window.more += 1; return Promise.resolve(true); }};
  window.show = (i) => { window.shown = i; render(root, data.board, data.messages[i], controls); };
  window.show(0);"""
# Each scenario's own move of a seat that its turn timer's bot would make (the policy bot's,
# or the kind of move the scenario's screen says as the seat's own).
OWN = {"tornado_alert": ("play",), "resort": ("roll",), "stormfury": ("move",)}


def deadline(seconds):
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()


def timed_turn(key):
    """A state under way where a seat acts, with the move its timer's bot makes there."""
    scenario = registry.get(key)
    engine, bot = scenario.engine, scenario.bots[scenario.policy_bot]
    state = engine.setup(2026, scenario.seats[0], {})
    latest = None
    for moves in range(2000):
        acting = engine.to_act(state)
        if engine.finished(state):
            break
        if not acting:
            step = scenario.class_step
            offered = [a for a in engine.actions(state, None) if step and a["type"] == step["action"]["type"]]
            engine.apply(state, None, offered[0] if offered else {"type": "end_now"})
            continue
        seat = acting[0]
        action = bot(state, seat)
        wanted = OWN.get(key)
        if wanted:
            action = next((a for a in engine.actions(state, seat) if a["type"] in wanted), None) or action
        if not wanted or action["type"] in wanted:
            if moves >= 12:
                return engine, state, seat, action
            latest = engine.load(engine.dump(state)), seat, action
        engine.apply(state, seat, action)
    if latest is None:
        raise AssertionError(f"{key}: no turn to time")
    return engine, *latest  # a game shorter than twelve moves: its last own move


@pytest.mark.parametrize("key", registry.keys())
def test_every_screen_warns_offers_more_time_and_names_the_timers_move_as_a_bots(browser, asgi_server, key):
    scenario = registry.get(key)
    engine, state, seat, action = timed_turn(key)
    before = message(engine, state, seat, 10)
    before["timer"] = deadline(15)
    after_state = engine.load(engine.dump(state))
    engine.apply(after_state, seat, action)
    after = message(engine, after_state, seat, 11)
    html = renderer_html(scenario, {"board": engine.board(), "messages": [before, after]}, SCRIPT)
    page, errors = harness_page(browser, asgi_server, html, viewport=(1024, 768))
    live = page.locator("#root [data-live-region]")

    # The countdown, counting down to the bot, never itself a live region.
    countdown = page.locator("#root [data-deadline]")
    expect(countdown).to_have_count(1)
    expect(countdown).to_have_text(__import__("re").compile(r"A bot plays for you in 0:1\d"))
    assert countdown.evaluate("(el) => !el.closest('[aria-live]')"), key
    # Under 20 seconds: warned once in the live region, and "More time" offered.
    expect(live).to_contain_text("unless you choose", timeout=3_000)
    more = page.locator("#root button[data-more-time]")
    expect(more).to_be_visible()
    expect(more).to_have_text("More time")
    more.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.more") == 1, key
    expect(live).to_have_text("You asked for more time.")

    # "Ask the teacher" keeps focus when pressed (never lands on a move), and cancels.
    ask = page.locator("#root button[data-key='ask']")
    ask.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.asked") == 1, key
    expect(ask).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => document.activeElement.dataset.key") == "ask", f"{key}: focus on {focused(page)}"
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.asked") == 2, key
    expect(ask).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("() => document.activeElement.dataset.key") == "ask", f"{key}: focus on {focused(page)}"

    # The seat's own move arrives though the student chose nothing: the timer's bot made it.
    page.evaluate("() => window.show(1)")
    expect(live).to_contain_text(__import__("re").compile(r"a bot (moved|played) for you"))
    assert not errors, f"{key}: {errors}"
    page.context.close()
