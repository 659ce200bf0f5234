"""Small things a student notices on the tablet: Bermuda's focus ring stands out at 3:1 or more
against both the white cards and the page behind them, evacuation's live region says each new line
as a sentence of its own, and Stormfury says the student's own discards."""

import json

import pytest
from playwright.sync_api import expect

from scenarios import registry
from tests.browser.harness import harness_page, renderer_html
from tests.browser.test_renderer_contract import screens

pytestmark = pytest.mark.browser


def contrast(a, b):
    def luminance(rgb):
        c = [x / 255 for x in rgb]
        c = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def rgb(css):
    return [int(float(x)) for x in css[css.index("(") + 1 : css.index(")")].split(",")[:3]]


def test_bermudas_focus_ring_stands_out_on_cards_and_page(browser, asgi_server):
    scenario = registry.get("bermuda")
    fixtures, _teacher = screens(scenario)
    html = renderer_html(
        scenario,
        {"board": scenario.engine.board(), "message": fixtures["underway"]},
        "  render(root, data.board, data.message, {busy: false, act: () => Promise.resolve(), askTeacher: () => Promise.resolve()});",
    )
    page, errors = harness_page(browser, asgi_server, html)
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.closest('.bt') !== null"):
            break
    ring = rgb(page.evaluate("() => getComputedStyle(document.activeElement).outlineColor"))
    behind = rgb(page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor"))
    page.context.close()
    assert contrast(ring, [255, 255, 255]) >= 3 and contrast(ring, behind) >= 3, (ring, behind)


def test_evacuations_live_region_says_each_new_line_as_a_sentence(browser, asgi_server):
    scenario = registry.get("evacuation")
    engine, bot = scenario.engine, scenario.bots[scenario.policy_bot]
    from tests.browser.test_renderer_contract import message

    state = engine.setup(2026, scenario.seats[0], {})
    seat = engine.to_act(state)[0]
    before = message(engine, state, seat, 1)
    while len(engine.view(state, seat).get("feed", [])) < len(before["view"].get("feed", [])) + 3:
        acting = engine.to_act(state)[0]
        engine.apply(state, acting, bot(state, acting))
    after = message(engine, state, seat, 2)
    fresh = len(after["view"]["feed"]) - len(before["view"].get("feed", []))
    html = renderer_html(
        scenario,
        {"board": engine.board(), "messages": [before, after]},
        "  const c = {busy: false, act: () => Promise.resolve(), askTeacher: () => Promise.resolve()};\n"
        "  window.show = (i) => render(root, data.board, data.messages[i], c);\n  window.show(0);",
    )
    page, errors = harness_page(browser, asgi_server, html)
    page.evaluate("() => window.show(1)")
    said = page.locator("[role=status][aria-live=polite]").first.inner_text()
    page.context.close()
    assert said.count(".") >= fresh, said


def test_stormfury_says_the_students_own_discard(browser, asgi_server):
    from tests.browser.test_renderer_contract import message

    scenario = registry.get("stormfury")
    engine, bot = scenario.engine, scenario.bots[scenario.policy_bot]
    state = engine.setup(2026, 2, {})
    for _ in range(3000):
        acting = engine.to_act(state)
        if not acting:
            engine.apply(state, None, next(a for a in engine.actions(state, None)))
            continue
        seat = acting[0]
        discards = [a for a in engine.actions(state, seat) if a["type"] == "discard"]
        if discards:
            break
        engine.apply(state, seat, bot(state, seat))
    assert discards, "no hand ever went over the limit"
    before = message(engine, state, seat, 1)
    engine.apply(state, seat, discards[0])
    after = message(engine, state, seat, 2)
    html = renderer_html(
        scenario,
        {"board": engine.board(), "messages": [before, after]},
        "  const c = {busy: false, act: () => { window.show(1); return Promise.resolve(); },"
        " askTeacher: () => Promise.resolve()};\n"
        "  window.show = (i) => render(root, data.board, data.messages[i], c);\n  window.show(0);",
    )
    page, errors = harness_page(browser, asgi_server, html)
    page.locator(f"#root button[data-key='{json.dumps(discards[0], separators=(',', ':'))}']").click()
    live = page.locator("[role=status][aria-live=polite]").first
    expect(live).to_contain_text("You discarded")
    page.context.close()
    assert not errors
