"""Joins racing over real HTTP, as a script on a school's network sends them: each with a fresh
cookie (its own ``GET /join/<code>`` for the form and the device id), all posted at once.

Used by ``benchmarks.faults join_crowd`` and by the tests of the join pace.
"""

import http.client
import re
import threading
import time
from http.cookies import SimpleCookie

_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _request(port, method, path, source, headers=None, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        return (
            answer.status,
            answer.getheader("Location") or "",
            answer.headers.get_all("Set-Cookie") or [],
            answer.read(),
        )
    finally:
        connection.close()


def _cookies(set_cookies) -> dict:
    jar = SimpleCookie()
    for line in set_cookies:
        jar.load(line)
    return {name: morsel.value for name, morsel in jar.items()}


def form(port, code, source="127.0.0.1"):
    """A fresh device's form for ``code``: (cookie header, CSRF token)."""
    status, location, set_cookies, body = _request(port, "GET", f"/join/{code}", source)
    found = _CSRF.search(body.decode(errors="replace"))
    if found is None:
        raise RuntimeError(f"GET /join/{code} from {source}: {status} {location} {body[:300]!r}")
    token = found.group(1)
    return "; ".join(f"{k}={v}" for k, v in _cookies(set_cookies).items()), token


def post(port, code, nickname, cookie, csrf, source="127.0.0.1", players=4):
    """Post the join form: (seated, seconds, page)."""
    from urllib.parse import urlencode

    body = urlencode({"code": code, "nickname": nickname, "players": players, "csrfmiddlewaretoken": csrf})
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": cookie,
        "Referer": f"http://127.0.0.1:{port}/join",
    }
    began = time.monotonic()
    status, location, _cookies, page = _request(port, "POST", "/join", source, headers, body)
    return status == 302 and "/play/" in location, time.monotonic() - began, page.decode(errors="replace")


def race(port, code, count, source="127.0.0.1", players=4, prefix="Crowd"):
    """``count`` fresh devices fetch the form, then all post at the same moment (threads released
    together). Returns each one's (seated, seconds, page)."""
    forms = [form(port, code, source) for _ in range(count)]
    gate = threading.Barrier(count)
    results = [None] * count

    def one(number):
        cookie, csrf = forms[number]
        gate.wait()
        results[number] = post(port, code, f"{prefix}{number}", cookie, csrf, source, players)

    threads = [threading.Thread(target=one, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
