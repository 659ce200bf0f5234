"""On the tablet a real-world basis shows its grade: a checked fact as what really happened, a
secondary one as reported, each with its source (the renderers, drawn by Chromium)."""

import functools
import importlib.util
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def harness_server():
    """The repository served as static files, as the renderer harnesses expect."""
    for name in ("evacuation", "stormfury"):
        spec = importlib.util.spec_from_file_location(
            f"{name}_fixtures", ROOT / "scenarios" / name / "harness" / "build_fixtures.py"
        )
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.main()
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(ROOT)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_a_secondary_fact_on_a_chance_card_is_shown_as_reported(browser, harness_server):
    """ "Gridlock" rests on a news report of the Rita evacuation (grade S): the card says
    "reported" and names who reported it; it never says "really happened"."""
    page = browser.new_page(viewport={"width": 768, "height": 1024})
    page.goto(f"{harness_server}/scenarios/evacuation/harness/index.html?s=mid&nav=0")
    basis = page.locator(".evac-card .fact-basis")
    basis.wait_for()
    text = basis.inner_text()
    assert "Reported, not checked against the original source:" in text and "Really happened" not in text
    assert "Houston Chronicle" in text and basis.get_attribute("data-grade") == "S"
    page.close()


def test_a_checked_fact_on_a_role_says_what_really_happened_and_links_its_source(browser, harness_server):
    page = browser.new_page(viewport={"width": 768, "height": 1024})
    page.goto(f"{harness_server}/scenarios/stormfury/harness/index.html?s=roles&nav=0")
    basis = page.locator(".sf-role-basis").first
    basis.wait_for()
    assert basis.get_attribute("data-grade") == "O"
    assert "Really happened:" in basis.inner_text()
    assert "Source:" in basis.inner_text()
    page.close()
