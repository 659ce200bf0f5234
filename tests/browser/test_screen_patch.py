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


# A screen of the kit's own: a note that comes and goes above a list and a button.
NOTE_AND_LIST = """
  const kit = await import("/static/js/kit.js");
  const mem = kit.screenMemory()(root);
  window.show = (note, items) => kit.renderScreen(root, mem, {
    prefix: "t", pageClass: "t", busy: false, mapLabel: "Map", announce: "", version: 1,
    countdown: {running: "", over: "", warn: ""},
    header: () => kit.h("header", {}, kit.h("h1", {text: "Title"})),
    map: () => [kit.h("p", {text: "The map"})],
    panel: () => [
      note ? kit.h("p", {class: "note", text: note}) : null,
      kit.h("ul", {}, items.map((item) => kit.h("li", {text: item}))),
      kit.h("button", {type: "button", "data-key": "ask", text: "Ask"}),
    ],
  });
  window.mark = () => document.querySelectorAll("#root *").forEach((el) => { el.firstRender = true; });
  window.replaced = () => [...document.querySelectorAll("#root ul, #root li, #root button")]
    .filter((el) => !el.firstRender).map((el) => el.tagName + " " + el.textContent);
  show(null, ["Ana", "Ben", "Cas"]);"""


def test_a_note_that_comes_and_goes_leaves_the_nodes_after_it_in_place(browser, asgi_server):
    """A sentence shown above a list only now and then (a personal note, a warning) does not make
    the list and the buttons after it new nodes, each laid out and painted again: they pair with
    their own kind, wherever the note came or went."""
    html = renderer_html(registry.get("tornado_alert"), {}, NOTE_AND_LIST)
    page, errors = harness_page(browser, asgi_server, html)
    page.evaluate("() => mark()")
    page.evaluate("() => show('Ben won the draw', ['Ana', 'Ben', 'Cas'])")
    assert page.locator("#root .note").inner_text() == "Ben won the draw"
    assert page.evaluate("() => replaced()") == []
    page.evaluate("() => show(null, ['Ana', 'Ben', 'Dee'])")
    assert page.locator("#root .note").count() == 0
    assert page.locator("#root li").all_inner_texts() == ["Ana", "Ben", "Dee"]
    assert page.evaluate("() => replaced()") == []
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("key", ["evacuation", "stormfury"])
def test_a_redraw_leaves_the_maps_hit_areas_at_the_size_fitted_to_the_zoom(browser, asgi_server, key):
    """A tap target on the map grows to 44 px at the zoom shown; a frame of the same game does
    not shrink it back and grow it again (which made the whole map paint anew at every frame)."""
    scenario = registry.get(key)
    fixtures, _teacher = screens(scenario)
    html = renderer_html(scenario, {"board": scenario.engine.board(), "message": fixtures["underway"]}, SCRIPT)
    page, errors = harness_page(browser, asgi_server, html)
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-hit]')].some((c) => c.getAttribute('r') !== c.dataset.r)"
    )
    changed = page.evaluate(
        """async () => {
        const changed = [];
        const watch = new MutationObserver((records) => changed.push(...records.map((r) => r.target.dataset.r)));
        watch.observe(root, {subtree: true, attributeFilter: ["r"]});
        draw("second", 2);
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        watch.disconnect();
        return changed.length;
    }"""
    )
    assert changed == 0
    assert page.evaluate(
        "() => [...document.querySelectorAll('[data-hit]')].every((c) => Number(c.getAttribute('r')) >= Number(c.dataset.r))"
    )
    assert not errors, errors
    page.context.close()
