"""A whole lesson of the resort game ("Hurricane") in real browsers: the teacher picks a real
storm, two tablets roll, buy resorts with options and plot the storm by latitude and longitude,
the bell rings and bots finish the season, then the class debrief names the storm with cited
facts, the Celery worker writes every report, and prints the class packet's PDF when the teacher
opens it."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Game, Move
from scoring.models import Report
from tests import pdfs
from tests.browser import shots
from tests.browser.lesson import POLL_MS, fetch_pdf, student_page, teacher_page
from tests.browser.shots import shoot
from tests.conftest import in_thread

pytestmark = pytest.mark.browser
NAMES = ("Lena", "Kofi")


def plot(page) -> bool:
    """Plot the storm where the viewer window says: north to the latitude, then west."""
    line = page.locator(".rs-viewer-line").inner_text()
    lat, lon = re.search(r"N (\d+)°, W (\d+)°", line).groups()
    page.locator(f"button.rs-coord[data-key='lat-{lat}']").click()
    page.locator(f"button.rs-coord[data-key='lon-{lon}']").click()
    expect(page.locator(f"button.rs-coord[data-key='lat-{lat}']")).to_have_attribute("aria-pressed", "true")
    page.locator("button.rs-act[data-key='place']").click()
    return True


def tap(page) -> bool:
    """One tap like a careful owner: plot exactly, buy with two options, take an option on P,
    roll otherwise. False once the results show."""
    if page.locator(".rs-results").count():
        return False
    if page.locator("button.rs-coord:not([disabled])").count():
        plot(page)
    else:
        keys = page.locator("button.rs-act:not([disabled])").evaluate_all("(bs) => bs.map((b) => b.dataset.key)")
        wanted = (
            next((k for k in keys if '"type":"buy","options":2' in k), None)
            or next((k for k in keys if '"type":"option"' in k), None)
            or next((k for k in keys if '"type":"roll"' in k or '"type":"stay"' in k), None)
            or next((k for k in keys if '"type":"pass"' in k), None)
        )
        if wanted is None:
            page.wait_for_timeout(250)
            return True
        page.locator(f"button.rs-act[data-key='{wanted}']").first.click()
    page.wait_for_function(
        "() => !document.querySelector('button.rs-act[disabled]:not([data-key=place])') "
        "|| document.querySelector('.rs-results')",
        timeout=10_000,
        polling=POLL_MS,
    )
    return True


def student_moves(session_id, kind):
    return in_thread(
        lambda: Move.objects.filter(
            game__table__session_id=session_id, actor=Move.Actor.STUDENT, action__type=kind
        ).count()
    )


def test_a_resort_lesson_from_the_form_to_the_pdfs(browser, asgi_server, celery_worker):
    teacher = teacher_page(browser, asgi_server)
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Scenario").select_option("resort")
    expect(teacher.get_by_text("plot a real hurricane's track by latitude and longitude")).to_be_visible()
    teacher.get_by_label("Seats per table").fill("2")
    teacher.get_by_label("Fill empty seats with bots").set_checked(False)
    teacher.get_by_label("A bot plays for a student who stays idle").set_checked(False)
    teacher.get_by_label("Game number (optional)").fill("2026")
    teacher.get_by_text("Scenario options").click()
    teacher.get_by_role("combobox", name="Storm").select_option("andrew-1992")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    session_id = int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))
    students = [student_page(browser, asgi_server, code, name) for name in NAMES]
    teacher.get_by_role("button", name="Start the game").click()
    expect(students[0].get_by_role("button", name="Roll the die")).to_be_enabled()
    expect(students[1].locator(".rs-banner-title")).to_have_text("Waiting for Player 1")
    expect(students[0].get_by_role("img", name=re.compile("sea board"))).to_be_visible()
    # The teacher chose the storm, so the table's card names it from the start.
    expect(teacher.locator(".table-card .table-subtitle")).to_have_text("Andrew (1992)")

    # Play until both students have plotted the storm and bought something.
    for _ in range(300):
        for page in students:
            tap(page)
        if student_moves(session_id, "track") >= 2 and student_moves(session_id, "buy") >= 1:
            break
    assert student_moves(session_id, "track") >= 2 and student_moves(session_id, "buy") >= 1
    game = in_thread(lambda: Game.objects.get(table__session_id=session_id))
    assert game.options["storm"] == "andrew-1992"
    exact = [s["exact"] for s in game.state["seats"]]
    assert sum(exact) >= 2  # both tablets plotted the viewer's line exactly

    # The bell: bots finish the season; the tablets show the result and the storm's name.
    teacher.get_by_role("button", name="Finish with bots").click()
    for page in students:
        expect(page.locator(".rs-results")).to_be_visible()
        expect(page.locator(".rs-storm-name")).to_contain_text("The storm was Andrew (1992)")
    expect(teacher.get_by_role("heading", name="Class ranking (bots not ranked)")).to_be_visible()
    assert in_thread(lambda: Game.objects.get(table__session_id=session_id).status) == Game.Status.FINISHED

    teacher.goto(f"/sessions/{session_id}/debrief/")
    expect(teacher.get_by_role("heading", name="The storm we tracked")).to_be_visible()
    expect(teacher.get_by_text("Andrew (1992) peaked at category 5")).to_be_visible()
    expect(teacher.get_by_role("heading", name="What our options were worth")).to_be_visible()
    expect(teacher.locator(".db-sources")).to_contain_text("Federal Emergency Management Agency")
    shoot(teacher, "resort_debrief")

    teacher.goto(f"/sessions/{session_id}/debrief/reports/")
    rows = teacher.locator("#jobs tbody tr")
    expect(rows).to_have_count(3, timeout=30_000)  # the class packet and one report per student
    for i in range(3):
        expect(rows.nth(i).locator(".status")).to_have_text("Done", timeout=60_000)
        expect(rows.nth(i).locator(".links a", has_text="PDF")).to_be_visible()
    done = in_thread(lambda: list(Report.objects.filter(session_id=session_id).values_list("kind", "pdf", "html")))
    assert len(done) == 3 and not any(pdf for _, pdf, _ in done)  # printed only when asked for
    student = next(html for kind, _, html in done if kind == Report.Kind.STUDENT)
    assert "Andrew" in student and "HURDAT2" in student
    # The teacher opens the class packet's PDF: almost ready, then printed by the worker.
    packet = rows.filter(has_text="Class packet").locator(".links a", has_text="PDF")
    href = packet.get_attribute("href")
    packet.click()
    expect(teacher.get_by_role("heading", name="The PDF is almost ready")).to_be_visible()
    assert "Andrew" in pdfs.pdf_text(fetch_pdf(teacher, href))
    if shots.FOLDER:  # a student's report page, to look at
        report = in_thread(lambda: Report.objects.filter(session_id=session_id, kind=Report.Kind.STUDENT).first().pk)
        teacher.goto(f"/debrief/reports/{report}/")
        shoot(teacher, "resort_report")
