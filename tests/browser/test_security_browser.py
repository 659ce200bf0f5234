"""The content security policy in Chromium: no page breaks it, and every page still works (its
scripts load from static files and its own WebSocket connects). The delete confirmation page."""

import re
import time
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from tests.browser.lesson import create_session
from tests.browser.shots import shoot
from tests.conftest import TABLET, in_thread
from tests.factories import PASSWORD, make_teacher

pytestmark = pytest.mark.browser

# Runs in every document before its own scripts (added by the browser, so the policy allows it).
WATCH = """document.addEventListener("securitypolicyviolation", (e) => window.reportViolation(
  `${location.pathname}: ${e.effectiveDirective} blocked ${e.blockedURI || "inline code"}`));"""


class Watched:
    """A tablet-sized browser context that records policy violations (events and console errors),
    uncaught script errors, and the frames each WebSocket received."""

    def __init__(self, browser, base_url):
        self.problems, self.frames = [], {}
        self.context = browser.new_context(viewport=TABLET, base_url=base_url)
        self.context.set_default_timeout(15_000)
        self.context.expose_binding("reportViolation", lambda _source, text: self.problems.append(text))
        self.context.add_init_script(WATCH)
        self.page = self.context.new_page()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"uncaught error: {error}"))
        self.page.on("websocket", self._socket)

    def _console(self, message):
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.problems.append(f"console: {message.text}")

    def _socket(self, socket):
        path = urlparse(socket.url).path
        self.frames.setdefault(path, 0)
        socket.on("framereceived", lambda _payload: self.frames.__setitem__(path, self.frames[path] + 1))

    def wait_for_frames(self, path, timeout=10.0):
        deadline = time.monotonic() + timeout
        while not self.frames.get(path):
            assert time.monotonic() < deadline, f"no frame on {path}; sockets: {self.frames}"
            self.page.wait_for_timeout(100)


def sign_in(watched):
    teacher = in_thread(make_teacher)
    page = watched.page
    page.goto("/accounts/login/")
    page.get_by_label("E-mail address").fill(teacher.email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Your sessions")).to_be_visible()


def _plan_reports(session_id):
    from classroom.models import Session
    from scoring import services

    return [report.pk for report in services.plan_reports(Session.objects.get(pk=session_id))]


def _write_report(report_id):
    from scoring.models import Report

    Report.objects.filter(pk=report_id).update(
        status=Report.Status.DONE, progress=100, html="<p>done</p>", pdf=b"%PDF-1.7"
    )


def touch_targets(page) -> list[str]:
    """Visible controls without an accessible name or smaller than 44 × 44 px."""
    return page.evaluate("""() => [...document.querySelectorAll(
        "a[href], button, input:not([type=hidden]), select, textarea, summary")].flatMap((el) => {
      const box = el.getBoundingClientRect();
      if (!box.width || !box.height || box.right < 0 || box.bottom < 0) return [];  // e.g. the skip link
      const labels = el.labels ? [...el.labels].map((l) => l.innerText).join(" ") : "";
      const name = (el.getAttribute("aria-label") || el.innerText || labels || el.title || "").trim();
      const problems = [];
      if (!name) problems.push(`${el.outerHTML.slice(0, 60)} has no accessible name`);
      if (box.width < 44 || box.height < 44) problems.push(`"${name}" is ${Math.round(box.width)} × ${Math.round(box.height)} px`);
      return problems;
    })""")


def test_no_page_breaks_the_content_security_policy_and_every_page_works(browser, asgi_server):
    """New-session form, dashboard, play page, /check, reports, class debrief and the delete
    confirmation: no violation, no script error, each page's script and socket work; deleting
    the session sends the student's tablet back to the join page."""
    teacher, student = Watched(browser, asgi_server), Watched(browser, asgi_server)
    sign_in(teacher)
    page = teacher.page

    # The new-session form shows only the chosen scenario's options (static/js/session_new.js).
    page.goto("/sessions/new/")
    shared_storm = page.get_by_label("Project Stormfury: every table faces the same storm")
    expect(shared_storm).to_be_hidden()
    page.get_by_label("Scenario").select_option("stormfury")
    expect(shared_storm).to_be_visible()
    page.get_by_label("Scenario").select_option("evacuation")
    expect(shared_storm).to_be_hidden()

    # The dashboard draws itself and its socket delivers snapshots.
    page.goto("/")
    code, session_id = create_session(page, bots=True)
    teacher.wait_for_frames(f"/ws/sessions/{session_id}/")

    # The student's play page goes live over its socket and shows the game once it starts.
    tablet = student.page
    tablet.goto("/join")
    tablet.get_by_label("Lesson code").fill(code)
    tablet.get_by_label("Nickname").fill("Robin")
    tablet.get_by_role("button", name="Join").click()
    expect(tablet.get_by_text("Wait for your teacher to start the game.")).to_be_visible()
    expect(tablet.locator("#connection")).to_have_class(re.compile(r"\blive\b"))
    student.wait_for_frames(f"/ws/play/{session_id}/")
    expect(page.locator(".roster")).to_contain_text("Robin")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Start anyway").click()
    expect(tablet.locator(".evac-actions")).to_be_visible()

    # /check on the same tablet: the page, its socket test and the screen size all pass.
    check = Watched(browser, asgi_server)
    check.page.goto("/check")
    expect(check.page.locator("#check-http")).to_have_text("✓ Web page: works")
    expect(check.page.locator("#check-ws")).to_have_text(re.compile(r"^✓ Live connection: works \(\d+ ms\)$"))
    expect(check.page.locator("#check-screen")).to_have_text("✓ Screen: 768 × 1024 px")

    # The reports page follows its jobs (static/js/reports.js) and the class debrief draws.
    reports = in_thread(_plan_reports, session_id)
    page.goto(f"/sessions/{session_id}/")
    page.get_by_role("link", name="Reports").click()
    expect(page.locator("#jobs tbody tr")).to_have_count(len(reports))
    in_thread(_write_report, reports[0])
    row = page.locator(f'#jobs tr[data-id="{reports[0]}"]')
    expect(row.locator(".status")).to_have_text("Done")
    expect(row.get_by_role("link", name="PDF")).to_be_visible()
    page.get_by_role("link", name="Class debrief screen").click()
    expect(page.get_by_role("heading").first).to_be_visible()

    # The delete confirmation: a clear warning, named controls, 44-px targets; then deletion.
    page.goto(f"/sessions/{session_id}/")
    page.get_by_role("link", name="Delete this session…").click()
    expect(page.get_by_text("This cannot be undone.")).to_be_visible()
    shoot(page, "delete-confirmation")
    assert touch_targets(page) == []
    page.get_by_role("button", name="Delete the session and everything in it").click()
    expect(page.get_by_role("heading", name="Your sessions")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("was deleted with its students' nicknames")
    expect(tablet).to_have_url(re.compile(r"/join$"))
    expect(tablet.get_by_label("Lesson code")).to_be_visible()  # the join page has loaded, not only begun to

    for watched in (teacher, student, check):
        assert watched.problems == []
    # The watch is not blind: an injected inline script is reported.
    tablet.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = '1'; document.body.append(s); }"
    )
    deadline = time.monotonic() + 5
    while not any("script-src" in problem for problem in student.problems):
        assert time.monotonic() < deadline, f"the injected script was not reported: {student.problems}"
        tablet.wait_for_timeout(50)
    for watched in (teacher, student, check):
        watched.context.close()
