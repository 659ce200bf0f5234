"""Race to the shelter, registered only by the registry line, goes through a whole lesson in
real browsers: it is offered in the new-session form, two tablets play it to the end, and the
teacher opens its debrief page with cited real-world facts."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.lesson import student_page, teacher_page
from tests.conftest import in_thread

pytestmark = pytest.mark.browser


def tap(page) -> bool:
    """Run when it is this tablet's turn; False once the result shows."""
    if page.locator(".race-results").count():
        return False
    run = page.locator("""button.race-act[data-key='{"type":"run"}']:not([disabled])""")
    if run.count():
        run.click()
        page.wait_for_timeout(100)
    else:
        page.wait_for_timeout(200)
    return True


def test_a_lesson_of_the_race_from_the_form_to_the_debrief(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server)
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Scenario").select_option(label="Race to the shelter (test scenario)")
    expect(teacher.get_by_text("Run for the shelter or pack one more supply")).to_be_visible()
    teacher.get_by_label("Seats per table").fill("2")
    teacher.get_by_label("A bot plays for a student who stays idle").set_checked(False)
    teacher.get_by_text("Scenario options").click()
    teacher.get_by_label("Rounds before the storm").select_option("8")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    session_id = int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))
    students = [student_page(browser, asgi_server, code, name) for name in ("Iris", "Jon")]
    teacher.get_by_role("button", name="Start the game").click()
    expect(students[0].locator("button.race-act").first).to_be_visible()
    expect(students[1].locator(".race-banner-title")).to_have_text("Waiting for player 1.")

    for _ in range(200):
        if not any([tap(page) for page in students]):
            break
    for page in students:
        expect(page.locator(".race-results")).to_be_visible()
    game = in_thread(lambda: Game.objects.get(table__session_id=session_id))
    assert game.status == Game.Status.FINISHED and game.options["storm_rounds"] == 8
    expect(teacher.get_by_role("heading", name="Class ranking (bots not ranked)")).to_be_visible()

    teacher.goto(f"/sessions/{session_id}/debrief/")
    expect(teacher.get_by_role("heading", name="Who reached the shelter")).to_be_visible()
    expect(teacher.locator(".db-sources li").first).to_contain_text("Huang")
