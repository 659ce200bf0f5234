"""The resort game's tablet screen in Chromium, driven like a student with a keyboard: plotting
the storm by latitude then longitude sends exactly that point, open panels stay open when the
next move arrives, the live region reads each move's events, and every control is a named
44-px target."""

import json

import pytest

from scenarios.resort import ENGINE
from scenarios.resort.bots import BOTS
from tests.browser.harness import harness_page
from tests.browser.test_renderer_contract import message
from tests.browser.test_security_browser import touch_targets

pytestmark = pytest.mark.browser
PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/css/stormwise.css"><link rel="stylesheet" href="/static/scenarios/resort/renderer.css">
</head><body><main id="root"></main>
<script type="application/json" id="fixture">%s</script>
<script type="module">
  const {render} = await import("/static/scenarios/resort/renderer.js");
  const data = JSON.parse(document.getElementById("fixture").textContent);
  window.acts = [];
  const controls = {busy: false, asking: false, act: (a) => { window.acts.push(a); return Promise.resolve(); },
                    askTeacher: () => Promise.resolve()};
  const root = document.getElementById("root");
  window.show = (i) => render(root, data.board, data.messages[i], controls);
  window.show(0);
  document.body.dataset.done = "1";
</script></body></html>"""


def until(pred, seed=4):
    state = ENGINE.setup(seed, 4, {"storm": "andrew-1992"})
    while not pred(state):
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, BOTS["prepared"](state, seat))
    return state


def open_page(browser, asgi_server, messages, viewport=(768, 1024)):
    html = PAGE % json.dumps({"board": ENGINE.board(), "messages": messages}).replace("</", "<\\/")
    return harness_page(browser, asgi_server, html, viewport)


def test_plotting_by_keyboard_sends_the_point_read_north_then_west(browser, asgi_server):
    state = until(lambda s: s["phase"] == "track")
    seat = ENGINE.to_act(state)[0]
    line = ENGINE.program(state)["lines"][state["line"]]
    page, errors = open_page(browser, asgi_server, [message(ENGINE, state, seat, 1)])
    place = page.locator("button[data-key='place']")
    assert place.is_disabled() and "Pick a latitude" in place.inner_text()
    page.locator(f"button[data-key='lat-{line['lat']}']").focus()
    page.keyboard.press("Enter")
    assert page.locator(f"button[data-key='lat-{line['lat']}']").get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => document.activeElement.dataset.key") == f"lat-{line['lat']}"  # focus kept
    page.locator(f"button[data-key='lon-{line['lon']}']").focus()
    page.keyboard.press("Space")
    assert place.is_enabled() and place.inner_text() == f"Place the storm at {line['lat']}°N, {line['lon']}°W"
    place.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.acts") == [{"type": "track", "lat": line["lat"], "lon": line["lon"]}]
    badge = str(line["category"]) if line["category"] else "TS"  # a tropical storm reads as one, not "category 0"
    viewer = page.locator(".rs-viewer-line").inner_text()
    assert viewer.startswith(f"{badge} N {line['lat']}°, W {line['lon']}°")
    assert ("tropical storm" in viewer) == (line["category"] == 0) and "SSS 0" not in viewer
    # Tapping a square of the map picks both coordinates at once.
    page.locator("rect.is-pickable").first.click()
    sea = ENGINE.board()["sea"]
    assert place.inner_text() == f"Place the storm at {sea['lats'][0]}°N, {sea['lons'][0]}°W"
    assert not errors


def test_open_panels_stay_open_and_each_move_is_announced(browser, asgi_server):
    first = until(lambda s: s["phase"] == "roll" and s["round"] > 2)
    seat = first["turn"]
    later = ENGINE.load(ENGINE.dump(first))
    events = ENGINE.apply(later, seat, {"type": "roll"})
    page, errors = open_page(browser, asgi_server, [message(ENGINE, first, seat, 1), message(ENGINE, later, seat, 2)])
    page.get_by_text("The boards in words").click()
    assert page.locator("details.rs-words").get_attribute("open") is not None
    page.evaluate("() => window.show(1)")
    assert page.locator("details.rs-words").get_attribute("open") is not None
    live = page.locator("[role=status][aria-live=polite]").inner_text()
    die = next(e["die"] for e in events if e["type"] == "rolled")
    assert f"You rolled {die}." in live
    assert touch_targets(page) == []
    assert not errors


def test_a_player_who_cannot_afford_a_resort_is_told_which(browser, asgi_server):
    state = until(lambda s: s["phase"] == "roll" and s["round"] > 1)
    seat = state["turn"]
    other = next(s for s in range(4) if s != seat)
    resort = ENGINE.board()["resorts"][0]
    messages = [message(ENGINE, state, seat, version) for version in (1, 2, 3)]
    messages[1]["view"]["events"] = [{"type": "cannot_afford", "seat": other, "resort": resort["id"]}]
    messages[2]["view"]["events"] = [{"type": "cannot_afford", "seat": seat, "resort": resort["id"]}]
    page, errors = open_page(browser, asgi_server, messages)
    live = page.locator("[role=status][aria-live=polite]")
    page.evaluate("() => window.show(1)")
    assert f"cannot afford {resort['name']}." in live.inner_text()
    assert "undefined" not in live.inner_text() + page.locator("#root").inner_text()
    page.evaluate("() => window.show(2)")
    assert f"You cannot afford {resort['name']}." in live.inner_text()
    assert not errors
