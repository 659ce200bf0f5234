"""Every registered scenario's tablet renderer, at the four target sizes, in headless Chromium:
the start of a game, a game under way, the end with results, and the teacher's summary. Each
screen draws without a script error, fits the width (no sideways scrolling), offers the
acting seat enabled buttons a keyboard reaches, and axe-core finds no serious or critical
accessibility violation in it (tests/browser/a11y.py). Screenshots go to ``$SHOTS``, if set."""

import json

import pytest

from scenarios import registry
from tests.browser.a11y import check_axe, focus_matches
from tests.browser.shots import shoot

pytestmark = pytest.mark.browser
SIZES = [(768, 1024), (1024, 768), (1366, 650), (390, 844)]
HARNESS = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Renderer harness</title>
<link rel="stylesheet" href="/static/css/stormwise.css"><link rel="stylesheet" href="/static/%(css)s">
</head><body><main id="root"></main><div id="summary" class="card"></div>
<script type="application/json" id="fixture">%(fixture)s</script>
<script type="module">
  const {render, summary} = await import("/static/%(js)s");
  const data = JSON.parse(document.getElementById("fixture").textContent);
  // "Ask the teacher" toggles as the real transport does: pressed, then the screen drawn again.
  const controls = {busy: false, asking: false, act: () => Promise.resolve(),
    askTeacher: () => { controls.asking = !controls.asking; show(); return Promise.resolve(); }};
  const show = () => render(document.getElementById("root"), data.board, data.message, controls);
  show();
  if (data.teacher && summary) {
    const out = summary(data.board, data.teacher);
    const holder = document.getElementById("summary");
    typeof out === "string" ? (holder.innerHTML = out) : holder.append(out);
  }
  document.body.dataset.done = "1";
</script></body></html>"""


def message(engine, state, seat, version):
    finished = engine.finished(state)
    return {
        "type": "view",
        "game": 1,
        "seat": seat,
        "version": version,
        "status": "finished" if finished else "playing",
        "view": engine.view(state, seat),
        "mark": 0,
        "bot": None,
        "timer": None,
        "results": engine.results(state) if finished else None,
    }


def screens(scenario):
    """Start, under way (the policy bot has played a while) and finished, seen by a seat."""
    engine, bot = scenario.engine, scenario.bots[scenario.policy_bot]
    seats = scenario.seats[0]
    state = engine.setup(2026, seats, {})
    seat = (engine.to_act(state) or [0])[0]
    out = {"start": message(engine, state, seat, 1)}
    moves, snapshots = 0, []
    while not engine.finished(state) and moves < 2000:
        acting = engine.to_act(state)
        if not acting:
            step = scenario.class_step
            offered = [a for a in engine.actions(state, None) if step and a["type"] == step["action"]["type"]]
            engine.apply(state, None, offered[0] if offered else {"type": "end_now"})
            continue
        engine.apply(state, acting[0], bot(state, acting[0]))
        moves += 1
        snapshots.append(engine.dump(state))
    middle = engine.load(snapshots[len(snapshots) // 2])
    out["underway"] = message(engine, middle, (engine.to_act(middle) or [seat])[0], 2)
    out["finished"] = message(engine, state, 0, 3)
    return out, engine.view(state, None)


@pytest.mark.parametrize("key", registry.keys())
def test_the_renderer_draws_every_screen_at_every_size(browser, asgi_server, key):
    scenario = registry.get(key)
    fixtures, teacher = screens(scenario)
    board = scenario.engine.board()
    # One tablet for every screen and size: the harness page is loaded afresh for each.
    context = browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]}, base_url=asgi_server)
    page = context.new_page()
    errors, served = [], {}
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.route(
        f"{asgi_server}/renderer-harness",
        lambda route: route.fulfill(status=200, content_type="text/html; charset=utf-8", body=served["html"]),
    )
    for name, msg in fixtures.items():
        served["html"] = HARNESS % {
            "css": scenario.stylesheet,
            "js": scenario.renderer,
            "fixture": json.dumps({"board": board, "message": msg, "teacher": teacher}).replace("</", "<\\/"),
        }
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.goto("/renderer-harness")
            page.wait_for_selector("body[data-done='1']", timeout=10_000)
            where = f"{key} {name} {width}x{height}"
            assert not errors, f"{where}: {errors}"
            assert page.locator("#root *").count() > 0, where
            overflow = page.evaluate(
                "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 1, f"{where}: {overflow}px wider than the screen"
            if msg["status"] == "playing" and msg["view"].get("actions"):
                assert page.locator("#root button:not([disabled])").count() > 0, where
                if width == SIZES[0][0]:
                    for _ in range(40):  # Tab reaches a choice: the screen plays by keyboard
                        page.keyboard.press("Tab")
                        if focus_matches(page, "#root button:not([disabled])"):
                            break
                    assert focus_matches(page, "#root button:not([disabled])"), f"{where}: no choice reached by Tab"
            if width == SIZES[0][0]:
                check_axe(page, where)
            assert page.locator("#summary *").count() > 0 or page.locator("#summary").inner_text().strip(), where
            shoot(page, f"{key}_{name}_{width}x{height}", full_page=False)
    context.close()
