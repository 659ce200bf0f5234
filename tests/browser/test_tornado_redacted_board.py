"""A Tornado Alert! tablet whose board hides a place's safety note (a student's board has every
claim it may not see redacted: the place's basis is null) still draws the screen after a tornado
strikes that place, and a tap on it is sent. A screen that failed to draw there left the tablet
on "Sending…" with its tap never sent, until the idle timer's bot played for it."""

import json

import pytest

from scenarios import registry
from tests.browser.harness import harness_page
from tests.browser.test_renderer_contract import HARNESS, message

pytestmark = pytest.mark.browser


def test_a_strike_on_a_place_whose_note_is_hidden_still_draws_and_taps(browser, asgi_server):
    scenario = registry.get("tornado_alert")
    engine, bot = scenario.engine, scenario.bots[scenario.policy_bot]
    state = engine.setup(2026, 3, {})
    seat = None
    for _ in range(2000):  # played until a tornado has just struck and a seat may act
        acting = engine.to_act(state)
        if engine.finished(state):
            break
        if acting:
            engine.apply(state, acting[0], bot(state, acting[0]))
        else:  # a slap race waits for the server to settle it
            engine.apply(state, None, engine.due(state)["action"])
        seat = next(
            (
                s
                for s in engine.to_act(state)
                if engine.actions(state, s) and any(e["type"] == "tornado" for e in engine.view(state, s)["events"])
            ),
            None,
        )
        if seat is not None:
            break
    assert seat is not None
    board = engine.board()
    for place in board["locations"]:
        place["basis"] = None  # as the student's redaction leaves a note it may not see
    html = HARNESS.replace(
        "act: () => Promise.resolve()", "act: (a) => { window.__acted = a; return Promise.resolve(); }"
    ) % {
        "css": scenario.stylesheet,
        "js": scenario.renderer,
        "fixture": json.dumps({"board": board, "message": message(engine, state, seat, 5), "teacher": None}).replace(
            "</", "<\\/"
        ),
    }
    page, errors = harness_page(browser, asgi_server, html)
    try:
        assert not errors, errors
        page.locator("button.ta-act:not([disabled])").first.click()
        assert page.evaluate("() => Boolean(window.__acted)")
    finally:
        page.context.close()
