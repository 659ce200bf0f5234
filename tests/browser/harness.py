"""A harness page for a renderer: HTML the test writes (a renderer's module, its stylesheet and a
fixture), served at a path of the test server so the page loads the real static files."""

import json

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Renderer harness</title>
<link rel="stylesheet" href="/static/css/stormwise.css"><link rel="stylesheet" href="/static/%(css)s">
</head><body><main id="root"></main>
<script type="application/json" id="fixture">%(fixture)s</script>
<script type="module">
  const {render} = await import("/static/%(js)s");
  const data = JSON.parse(document.getElementById("fixture").textContent);
  const root = document.getElementById("root");
%(script)s
  document.body.dataset.done = "1";
</script></body></html>"""


def renderer_html(scenario, fixture, script):
    """A page that loads ``scenario``'s renderer and stylesheet, holds ``fixture`` (JSON-able) as
    ``data``, and runs ``script`` (which has ``render``, ``data`` and ``root``) before it is done."""
    return PAGE % {
        "css": scenario.stylesheet,
        "js": scenario.renderer,
        "fixture": json.dumps(fixture).replace("</", "<\\/"),
        "script": script,
    }


def harness_page(browser, asgi_server, html, viewport=(768, 1024)):
    """A new tablet showing ``html`` once its script marks ``body[data-done]``; returns the page and
    the list that collects the page's script errors. Close ``page.context`` when done."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, base_url=asgi_server)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route(
        f"{asgi_server}/harness",
        lambda route: route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html),
    )
    page.goto("/harness")
    page.wait_for_selector("body[data-done='1']", timeout=10_000)
    return page, errors
