"""The words on every game's map and board are readable on a tablet: at 768 and at 1024 px wide,
in English, Spanish and Dutch, each label (a place, a road's roll, a city, a port, a ship's seat, a
resort) is at least 12 CSS px high on screen, as the browser draws it (its font size times the
map's scale), no two labels cover each other more than a little, and none is cut off by the
map's edge. The maps are drawn whole in a small frame, so a label drawn in the map's own units
would shrink with it."""

import functools
import json

import pytest

from classroom.languages import translate_content
from scenarios import registry
from tests.browser.shots import shoot
from tests.browser.test_renderer_contract import HARNESS, screens

pytestmark = pytest.mark.browser
SIZES = [(768, 1024), (1024, 768)]
# Where each game's map or board words are: the maps' SVG, and the whole screen of the two games
# whose board is drawn partly in HTML.
WORDS = {
    "evacuation": ".evac-map",
    "stormfury": ".sf-map",
    "bermuda": ".bt-map",
    "resort": "#root",
    "tornado_alert": "#root",
}
SMALLEST_PX = 12
#: how much of the smaller of two labels' boxes the other may cover ("a little")
COVER = 0.15
LABELS = """(where) => {
  const out = [];
  for (const el of document.querySelectorAll(`${where} *`)) {
    const own = [...el.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim()).map((n) => n.textContent.trim()).join(" ");
    if (!own || el.closest(".visually-hidden")) continue;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || style.visibility === "hidden") continue;
    const map = el.closest("svg");
    // An SVG label's size on screen: its font size in the map's units times the map's scale.
    const scale = map ? Math.hypot(el.getScreenCTM().c, el.getScreenCTM().d) : 1;
    const frame = map ? map.getBoundingClientRect() : null;
    out.push({text: own.slice(0, 40), cls: el.getAttribute("class") || el.tagName.toLowerCase(),
      px: parseFloat(style.fontSize) * scale, svg: Boolean(map), box: [box.left, box.top, box.right, box.bottom],
      frame: frame && [frame.left, frame.top, frame.right, frame.bottom]});
  }
  return out;
}"""


@functools.cache
def fixtures(key):
    return screens(registry.get(key))[0]


def covered(a, b):
    """The share of the smaller of two boxes that the other covers."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return max(0, w) * max(0, h) / smaller


def too_small_or_cut_off(labels):
    """Labels under 12 px, and labels the map's edge cuts off."""
    found = [f"{x['text']!r} ({x['cls']}) is {x['px']:.1f} px" for x in labels if x["px"] < SMALLEST_PX - 0.01]
    for x in labels:
        box, frame = x["box"], x["frame"]
        if frame and (box[0] < frame[0] - 1 or box[1] < frame[1] - 1 or box[2] > frame[2] + 1 or box[3] > frame[3] + 1):
            found.append(f"{x['text']!r} is cut off by the map's edge")
    return found


def over_each_other(labels):
    """Pairs of map labels of which one covers more than a little of the other."""
    drawn = [x for x in labels if x["svg"]]
    return [
        f"{a['text']!r} and {b['text']!r} overlap ({covered(a['box'], b['box']):.0%})"
        for i, a in enumerate(drawn)
        for b in drawn[i + 1 :]
        if covered(a["box"], b["box"]) > COVER
    ]


_measured = {}


def measured(browser, asgi_server, key, lang):
    """Every map word of ``key``'s screens (start, under way, finished) at each size, in ``lang``:
    {"<screen> at <size>": [label, ...]}, measured once for the tests below."""
    if (key, lang) in _measured:
        return _measured[key, lang]
    scenario = registry.get(key)
    board = translate_content(scenario.engine.board(), key, lang)
    harness = HARNESS.replace('<html lang="en">', f'<html lang="{lang}">').replace(
        '<script type="module">', '<script src="/jsi18n/"></script>\n<script type="module">'
    )
    context = browser.new_context(base_url=asgi_server, viewport={"width": 768, "height": 1024}, locale=lang)
    context.add_cookies([{"name": "django_language", "value": lang, "url": asgi_server}])
    page = context.new_page()
    served = {}
    page.route(
        f"{asgi_server}/renderer-harness",
        lambda route: route.fulfill(status=200, content_type="text/html; charset=utf-8", body=served["html"]),
    )
    out = {}
    for name, msg in fixtures(key).items():
        served["html"] = harness % {
            "css": scenario.stylesheet,
            "js": scenario.renderer,
            "fixture": json.dumps({"board": board, "message": msg, "teacher": None}).replace("</", "<\\/"),
        }
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.goto("/renderer-harness")
            page.wait_for_selector("body[data-done='1']", timeout=10_000)
            # the labels are fitted to the map's size once it is laid out, in the next frame
            page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
            out[f"{name} at {width}x{height}"] = labels = page.evaluate(LABELS, WORDS[key])
            assert labels or key == "tornado_alert", f"{key} {name}: no map words found"
            shoot(page, f"labels-{key}-{name}-{width}-{lang}", full_page=False)
    context.close()
    _measured[key, lang] = out
    return out


LANGS = ["en", "es", "nl"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key", list(WORDS))
def test_every_map_word_is_12_px_or_more_and_inside_the_map(browser, asgi_server, key, lang):
    screens_seen = measured(browser, asgi_server, key, lang)
    found = {where: bad for where, labels in screens_seen.items() if (bad := too_small_or_cut_off(labels))}
    assert not found, f"{key} in {lang}: " + json.dumps(found, indent=1, ensure_ascii=False)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key", list(WORDS))
def test_no_map_label_covers_another(browser, asgi_server, key, lang):
    screens_seen = measured(browser, asgi_server, key, lang)
    found = {where: bad for where, labels in screens_seen.items() if (bad := over_each_other(labels))}
    assert not found, f"{key} in {lang}: " + json.dumps(found, indent=1, ensure_ascii=False)
