"""A tablemate's move redraws every tablet at the table; the kit patches the screen shown rather
than building it again. For every scenario's renderer in headless Chromium: after a second
render of the game under way, the screen's elements are the same nodes (nothing to lay out and
paint again, a screen reader keeps its place), the focused button keeps focus, and a tap on a
button kept from the first render acts through the newest render's controls, never an older
view's."""

import pytest

from scenarios import registry
from tests.browser.harness import harness_page, renderer_html
from tests.browser.test_renderer_contract import screens

pytestmark = pytest.mark.browser
# Each render gets controls of its own, named, as the transport's change with every frame.
SCRIPT = """
  window.calls = [];
  window.draw = (name, version) => {
    const controls = {busy: false, asking: false,
      act: () => { calls.push(`act ${name}`); return Promise.resolve(); },
      askTeacher: () => { calls.push(`ask ${name}`); return Promise.resolve(); },
      moreTime: () => { calls.push(`more ${name}`); return Promise.resolve(); }};
    render(root, data.board, {...data.message, version}, controls);
  };
  draw("first", 1);"""


@pytest.mark.parametrize("key", registry.keys())
def test_a_second_render_keeps_the_screens_nodes_focus_and_acts_through_the_newest_controls(browser, asgi_server, key):
    scenario = registry.get(key)
    fixtures, _teacher = screens(scenario)
    html = renderer_html(scenario, {"board": scenario.engine.board(), "message": fixtures["underway"]}, SCRIPT)
    page, errors = harness_page(browser, asgi_server, html)
    ask = page.locator("#root [data-key='ask']")
    ask.focus()
    before = page.evaluate(
        """() => {
        const all = [...document.querySelectorAll('#root *')];
        all.forEach((el) => { el.firstRender = true; });
        return all.length;
    }"""
    )
    page.evaluate("() => draw('second', 2)")
    kept = page.evaluate("() => [...document.querySelectorAll('#root *')].filter((el) => el.firstRender).length")
    assert kept >= 0.9 * before, f"{key}: {kept} of {before} elements kept"
    assert page.evaluate("() => document.activeElement.dataset.key === 'ask' && document.activeElement.firstRender")
    ask.click()
    page.wait_for_function("() => calls.length > 0")
    assert page.evaluate("() => calls") == ["ask second"]
    assert not errors, errors
    page.context.close()
