"""Accessibility checks any browser test can call, for every page and every scenario's screens.

- ``check_axe(page, where)``: runs axe-core (WCAG 2.1 A/AA rules) in the page and fails on any
  serious or critical violation, naming the rule, its help text and the first nodes it found.
  axe-core is the npm package in the repository's ``package.json`` (``make axe`` / ``npm ci``
  installs it into ``node_modules``); Playwright injects the local file, nothing is fetched.
- ``focused(page)``: a short description of the element that has focus (tag, data-key, name),
  and ``expect_focus_in(page, selector)`` to assert focus sits inside (or on) an element.
- ``press_until(page, predicate)``: presses Tab until the focused element matches, as a
  keyboard-only student does, and fails if it takes more than ``limit`` presses.
- ``announcements(page)`` / ``watch_announcements(page)``: what the page's polite live regions
  have said, recorded by a MutationObserver from the moment ``watch_announcements`` is called.

A new scenario's lesson test calls these on each of its phases: ``check_axe`` once per phase,
the keyboard helpers to play a turn without the mouse, ``announcements`` to read what a screen
reader heard.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")


def axe_source() -> str:
    if not AXE.exists():
        raise AssertionError(f"axe-core is not installed at {AXE}: run `make axe` (npm ci).")
    return AXE.read_text()


def axe_violations(page, *, include=None):
    """axe-core's violations on the page as it is now (WCAG 2.1 A and AA, best practices off)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated through the DevTools protocol, so the page's script-src 'self' (no inline
        # scripts) stays as it is and nothing is served from elsewhere.
        page.evaluate(axe_source() + "\n;true")
    return page.evaluate(
        """async (include) => {
          const result = await axe.run(include ? document.querySelector(include) : document,
            {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}, resultTypes: ['violations']});
          return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary || '').split('\\n').slice(0, 3).join(' '))}));
        }""",
        include,
    )


SETTLED_JS = """() => !document.querySelector('[data-animating]')
  && document.getAnimations().every((a) => a.playState !== 'running'
  || a.effect.getComputedTiming().iterations === Infinity)"""


def check_axe(page, where: str, *, include=None):
    """Fails on any serious or critical axe-core violation, saying where it was found. Judged
    once every finite animation has ended, so a line fading in is judged at its final colours,
    not caught half-way: CSS animations and transitions, and a renderer's own by script (which
    marks its root ``data-animating`` while it plays: Stormfury's storm moving step by step)."""
    # Polled on a timer, not on animation frames, which a busy renderer may hold back.
    page.wait_for_function(SETTLED_JS, polling=100, timeout=30_000)
    bad = [v for v in axe_violations(page, include=include) if v["impact"] in BLOCKING]
    if bad:
        lines = [f"{v['impact']} {v['id']}: {v['help']}\n    " + "\n    ".join(v["nodes"]) for v in bad]
        raise AssertionError(f"axe-core on {where}:\n" + "\n".join(lines))


FOCUSED_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return 'body';
  const name = (el.getAttribute('aria-label') || el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 80);
  return `${el.tagName.toLowerCase()}${el.dataset && el.dataset.key ? '[' + el.dataset.key + ']' : ''} ${name}`;
}"""


def focused(page) -> str:
    """The focused element as 'tag[data-key] name', or 'body' when focus is lost."""
    return page.evaluate(FOCUSED_JS)


def focus_matches(page, selector: str) -> bool:
    return page.evaluate(
        "(sel) => { const el = document.activeElement; return !!el && el !== document.body && !!el.closest(sel); }",
        selector,
    )


def expect_focus_in(page, selector: str, *, timeout=5_000):
    """Waits until the focused element is (inside) selector; fails saying where focus is."""
    try:
        page.wait_for_function(
            "(sel) => { const el = document.activeElement; return !!el && el !== document.body && !!el.closest(sel); }",
            arg=selector,
            timeout=timeout,
        )
    except Exception:
        raise AssertionError(f"focus is on {focused(page)!r}, not in {selector!r}") from None


def focus_is_visible(page) -> bool:
    """The focused element draws an outline (or box shadow) of at least 2 px."""
    return page.evaluate("""() => {
      const el = document.activeElement;
      if (!el || el === document.body) return false;
      const s = getComputedStyle(el);
      return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2) || s.boxShadow !== 'none';
    }""")


class TargetGone(AssertionError):
    """The control being tabbed to left the page (or was disabled) before focus reached it, and
    did not come back: the game moved on, as it does when a race window closes while a keyboard
    user travels towards it."""


def press_until(page, selector: str, *, key="Tab", limit=40, gone_after_ms=10_000) -> int:
    """Presses key until the focused element matches selector; returns the number of presses.
    Raises TargetGone when nothing on the page has matched selector for ``gone_after_ms``."""
    for n in range(1, limit + 1):
        page.keyboard.press(key)
        where = page.evaluate(
            """(sel) => {
          const el = document.activeElement;
          if (el && el !== document.body && el.closest(sel)) return 'reached';
          return document.querySelector(sel) ? 'on the way' : 'gone';
        }""",
            selector,
        )
        if where == "reached":
            return n
        if where == "gone":  # or not here yet, as on a page still loading
            try:
                page.wait_for_selector(selector, state="attached", timeout=gone_after_ms)
            except Exception:
                raise TargetGone(f"{selector!r} left the page after {n} presses of {key}") from None
    raise AssertionError(f"{limit} presses of {key} never reached {selector!r}; focus is on {focused(page)!r}")


WATCH_JS = """() => {
  if (window.__announced) return;
  window.__announced = [];
  const note = (region) => {
    const text = (region.textContent || '').trim();
    if (text) window.__announced.push(text);
  };
  const isLive = (el) => el && el.nodeType === 1 && (el.getAttribute('aria-live') === 'polite' || el.getAttribute('aria-live') === 'assertive'
    || el.getAttribute('role') === 'status' || el.getAttribute('role') === 'alert');
  new MutationObserver((records) => {
    const seen = new Set();
    for (const r of records) {
      let el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      while (el && !isLive(el)) el = el.parentElement;
      if (el && !seen.has(el)) { seen.add(el); note(el); }
    }
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
}"""


def watch_announcements(page):
    """From now on, record every change of text in the page's live regions."""
    page.evaluate(WATCH_JS)


def announcements(page) -> list:
    """What the live regions have said since watch_announcements, in order."""
    return page.evaluate("() => window.__announced || []")
