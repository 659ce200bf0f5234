"""At 320 px (a phone, or a tablet zoomed to 200 % and more) every teacher and report page of a
finished lesson of each game reflows: nothing makes the page scroll sideways, and a wide table
scrolls in a region of its own, which a keyboard can reach and which says what it holds."""

import pytest

from classroom import services as classroom
from scenarios import registry
from scoring import services as scoring
from scoring.models import Report
from tests.browser.shots import shoot
from tests.conftest import in_thread
from tests.factories import PASSWORD, make_teacher, started_session

pytestmark = pytest.mark.browser
NARROW = {"width": 320, "height": 640}
SIDEWAYS = "() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth"
#: every box that scrolls sideways: it must be a named region a keyboard reaches
SCROLLERS = """() => [...document.querySelectorAll("body *")].filter((el) => {
  const style = getComputedStyle(el);
  return ["auto", "scroll"].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
}).filter((el) => !(el.getAttribute("role") === "region" && el.tabIndex === 0
  && (el.getAttribute("aria-label") || el.getAttribute("aria-labelledby"))))
  .map((el) => el.className || el.tagName)"""
#: where the page first grows past the screen: boxes wider than the screen inside ones that are not
OUTSIDE = """() => [...document.querySelectorAll("body *")].filter((el) => {
  const right = (node) => node.getBoundingClientRect().right;
  const limit = document.scrollingElement.clientWidth + 1;
  return right(el) > limit && el.parentElement && right(el.parentElement) <= limit;
}).slice(0, 6).map((el) => `${el.tagName.toLowerCase()}.${el.className}`)"""


def finished_lesson(teacher, key):
    """A lesson of ``key`` played to the end by bots, ended, its reports written (not printed)."""
    session, _devices = started_session(students=2, scenario=key, teacher=teacher)
    classroom.finish_with_bots(session=session)
    classroom.end(session=session)
    for report in scoring.plan_reports(session):
        scoring.write_page(report.pk)
    return session, list(Report.objects.filter(session=session).values_list("pk", flat=True))


@pytest.mark.parametrize("key", [k for k in registry.keys() if registry.get(k).kit is not None])
def test_every_teacher_and_report_page_reflows_at_320_px(browser, asgi_server, key):
    teacher = in_thread(make_teacher)
    session, reports = in_thread(finished_lesson, teacher, key)
    context = browser.new_context(viewport=NARROW, base_url=asgi_server)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.get_by_label("E-mail address").fill(teacher.email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/")
    pages = {
        "sessions": "/",
        "dashboard": f"/sessions/{session.pk}/",
        "projector": f"/sessions/{session.pk}/screen",
        "debrief": f"/sessions/{session.pk}/debrief/",
        "reports": f"/sessions/{session.pk}/debrief/reports/",
        "kit": f"/sessions/{session.pk}/kit/",
        "guide": f"/lessons/{key}/guide",
        **{f"report-{i}": f"/debrief/reports/{pk}/" for i, pk in enumerate(reports)},
    }
    wide = {}
    for name, url in pages.items():
        assert page.goto(url).ok, url
        page.wait_for_load_state("networkidle")
        shoot(page, f"reflow-{key}-{name}")
        sideways, unnamed = page.evaluate(SIDEWAYS), page.evaluate(SCROLLERS)
        if sideways > 0 or unnamed:
            wide[name] = (sideways, unnamed, page.evaluate(OUTSIDE))
    context.close()
    assert not wide, f"scrolls sideways by (px, unnamed scrolling boxes, where): {wide}"
