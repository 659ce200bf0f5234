"""A tap is never lost to a redraw: a screen that arrives while a student's finger is down on a
button (a tablemate's move redraws every tablet) waits for the release, so the button released
on is the one pressed, and its click goes through."""

import json

import pytest
from playwright.sync_api import expect

from classroom.models import Seat
from games.models import Move
from tests.browser.lesson import COUNT_FRAMES, create_session, student_page, teacher_page
from tests.conftest import in_thread

pytestmark = pytest.mark.browser

WAIT = "button.evac-act[data-key='" + json.dumps({"type": "wait"}, separators=(",", ":")) + "']"


def students_moves(session_id, nickname):
    seat = Seat.objects.get(table__session_id=session_id, participant__nickname=nickname)
    return Move.objects.filter(game=seat.table.game, seat=seat.number, actor=Move.Actor.STUDENT).count()


def test_a_tap_held_down_while_a_tablemates_move_arrives_still_counts(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server)
    code, session_id = create_session(teacher, bots=False, seats=2)
    ana, ben = (student_page(browser, asgi_server, code, name) for name in ("Ana", "Ben"))
    teacher.get_by_role("button", name="Start the game").click()
    for page in (ana, ben):
        page.add_init_script(COUNT_FRAMES)
        page.reload()
        expect(page.locator(WAIT)).to_be_enabled()

    # Ana's finger goes down on "wait"; the button is marked, as a redraw would build a new one.
    ana.locator(WAIT).evaluate("(button) => { button.dataset.pressedOn = 'yes'; }")
    ana.locator(WAIT).scroll_into_view_if_needed()
    box = ana.locator(WAIT).bounding_box()
    ana.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ana.mouse.down()
    frames, answers = ana.evaluate("[window.__swFrames, window.__swAnswers]")
    ben.locator(WAIT).click()  # Ben's move reaches Ana's tablet while her finger is down
    ana.wait_for_function(f"() => window.__swFrames > {frames}")
    ana.wait_for_timeout(300)  # time for a redraw, which must not come yet
    expect(ana.locator("button[data-pressed-on='yes']")).to_have_count(1)

    ana.mouse.up()
    ana.wait_for_function(f"() => window.__swAnswers > {answers}")  # her tap was sent and answered
    expect(ana.locator("button[data-pressed-on='yes']")).to_have_count(0)  # the held screen is drawn now
    assert in_thread(students_moves, session_id, "Ana") == 1
