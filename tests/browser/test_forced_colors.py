"""Windows high-contrast mode (forced colours): every scenario's game screens and the
teacher's dashboard, drawn by Chromium with ``forced-colors: active`` at tablet size, keep what a
student relies on once the page's own colours are replaced by the system's: the focused control
draws a visible outline (box shadows are dropped in forced colours), and a pressed or selected
control looks different from its unpressed neighbour in something other than a background the
system paints over. Screenshots go to ``$SHOTS``, if set."""

import io
import json
from collections import Counter

import pytest
from PIL import Image
from playwright.sync_api import expect

from scenarios import registry
from tests.browser.a11y import focus_matches, focused, press_until
from tests.browser.lesson import create_session, student_page, teacher_page
from tests.browser.shots import shoot
from tests.browser.test_renderer_contract import HARNESS, screens

pytestmark = pytest.mark.browser
TABLET = {"width": 768, "height": 1024}

OUTLINE_JS = """() => {
  const s = getComputedStyle(document.activeElement);
  return {style: s.outlineStyle, width: parseFloat(s.outlineWidth), color: s.outlineColor};
}"""

# Each pressed/selected/current control with the first neighbour of the same kind that is not,
# as the two boxes (page coordinates) to photograph.
SELECTED_JS = """(root) => {
  const picked = '[aria-pressed="true"], [aria-selected="true"], [aria-current]:not([aria-current="false"])';
  const box = (el) => { const r = el.getBoundingClientRect();
    return {x: r.x + scrollX, y: r.y + scrollY, width: Math.max(1, r.width), height: Math.max(1, r.height)}; };
  const out = [];
  for (const el of document.querySelector(root).querySelectorAll(picked)) {
    const other = [...el.parentElement.parentElement.querySelectorAll(el.tagName)]
      .find((o) => o !== el && !o.matches(picked) && o.getClientRects().length);
    if (other && el.getClientRects().length) {
      out.push({name: (el.textContent || '').trim().slice(0, 40), selected: box(el), other: box(other)});
    }
  }
  return out;
}"""


PAGE_BOX_JS = """(el) => { const r = el.getBoundingClientRect();
  return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height}; }"""


def colours(page, clip) -> dict:
    """The share of each colour (to 4 bits a channel) in a screenshot of clip."""
    image = Image.open(io.BytesIO(page.screenshot(clip=clip, full_page=True))).convert("RGB")
    pixels = [(r >> 4, g >> 4, b >> 4) for r, g, b in image.get_flattened_data()]
    return {colour: n / len(pixels) for colour, n in Counter(pixels).items()}


def selection_shows(page, root):
    """For each selected control: a colour covering at least 5 % of it that its unselected
    neighbour does not show at all, as a forced-colours user sees them. Returns how many."""
    pairs = page.evaluate(SELECTED_JS, root)
    for pair in pairs:
        chosen, other = colours(page, pair["selected"]), colours(page, pair["other"])
        own = [c for c, share in chosen.items() if share >= 0.05 and c not in other]
        assert own, f"{pair['name']!r} looks like its unselected neighbour in forced colours"
    return len(pairs)


def harness(html):
    return lambda route: route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html)


def assert_focus_ring(page, where):
    outline = page.evaluate(OUTLINE_JS)
    assert outline["style"] != "none" and outline["width"] >= 2, (
        f"{where}: {focused(page)!r} has no outline in forced colours: {outline}"
    )


@pytest.mark.parametrize("key", registry.keys())
def test_every_game_screen_keeps_focus_and_selection_in_forced_colours(browser, asgi_server, key):
    scenario = registry.get(key)
    fixtures, teacher = screens(scenario)
    board = scenario.engine.board()
    context = browser.new_context(viewport=TABLET, base_url=asgi_server, forced_colors="active")
    page = context.new_page()
    for name, msg in fixtures.items():
        html = HARNESS % {
            "css": scenario.stylesheet,
            "js": scenario.renderer,
            "fixture": json.dumps({"board": board, "message": msg, "teacher": teacher}).replace("</", "<\\/"),
        }
        page.route(f"{asgi_server}/renderer-harness", harness(html))
        page.goto("/renderer-harness")
        page.wait_for_selector("body[data-done='1']", timeout=10_000)
        where = f"{key} {name}"
        assert page.evaluate("() => matchMedia('(forced-colors: active)').matches"), where
        selection_shows(page, "#root")
        if page.locator("#root button:not([disabled])").count():
            press_until(page, "#root button:not([disabled])")
            assert_focus_ring(page, where)
        # A toggle pressed by keyboard (the forecast, a pick) shows it is on.
        # ("Ask the teacher" is a toggle too, alone in its banner: stormwise.css gives every
        # pressed control its forced-colours look.)
        toggle = "#root button[aria-pressed='false']:not([disabled]):not([data-key='ask'])"
        if page.locator(toggle).count():
            press_until(page, toggle, limit=80)
            page.keyboard.press("Space")
            pressed = selection_shows(page, "#root")
            assert pressed, f"{where}: Space did not press {focused(page)!r}"
        shoot(page, f"{key}_{name}_forced")
        page.unroute(f"{asgi_server}/renderer-harness")
    context.close()


def test_the_dashboard_and_a_live_tablet_keep_focus_and_selection_in_forced_colours(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server, viewport={"width": 1366, "height": 768})
    code, session_id = create_session(teacher, bots=True)
    student = student_page(browser, asgi_server, code, "Ana")
    teacher.get_by_role("button", name="Start the game").click()
    for page, where in ((teacher, "dashboard"), (student, "tablet")):
        page.emulate_media(forced_colors="active")
        assert page.evaluate("() => matchMedia('(forced-colors: active)').matches"), where
    expect(student.locator("button.evac-act:not([disabled])").first).to_be_visible()
    # The dashboard has drawn the game's controls: a lobby button focused just before they
    # replace it would leave focus on the page.
    expect(teacher.locator(".status-line .badge")).to_have_text("Playing")
    press_until(teacher, "main button, main select")
    assert_focus_ring(teacher, "the dashboard")
    selection_shows(teacher, "main")
    # A seat's dot still tells an online student from a bot's seat (filled against hollow).
    online, bot = (teacher.locator(f".seats .dot.{kind}").first.evaluate(PAGE_BOX_JS) for kind in ("on", "bot"))
    seen_online, seen_bot = colours(teacher, online), colours(teacher, bot)
    assert any(share >= 0.05 and c not in seen_bot for c, share in seen_online.items()), (
        "an online seat's dot looks like a bot's"
    )
    shoot(teacher, "dashboard_forced")
    press_until(student, "button.evac-act:not([disabled])")
    assert focus_matches(student, "#play")
    assert_focus_ring(student, "the evacuation tablet")
    shoot(student, "tablet_forced")
