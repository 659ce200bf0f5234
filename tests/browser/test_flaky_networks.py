"""School Wi-Fi: a tablet that drops off mid-turn, and a network that blocks WebSockets."""

import json
import re

import pytest
from playwright.sync_api import expect

from games.models import Move
from tests.browser.lesson import accept_questions, create_session, student_page, tap_once, tap_stored, teacher_page
from tests.conftest import in_thread

pytestmark = pytest.mark.browser


def student_moves(session_id):
    return in_thread(
        lambda: list(
            Move.objects.filter(game__table__session_id=session_id, seat=0)
            .order_by("seq")
            .values_list("action_id", flat=True)
        )
    )


def test_tablet_offline_mid_turn_loses_and_doubles_nothing(browser, asgi_server):
    """The socket drops and the tablet goes offline; the tap made meanwhile is applied once."""
    teacher = teacher_page(browser, asgi_server)
    code, session_id = create_session(teacher, bots=True)
    sockets = []
    student = student_page(browser, asgi_server, code, "Ana")
    student.route_web_socket(re.compile(r".*/ws/play/.*"), lambda ws: sockets.append((ws, ws.connect_to_server())))
    student.reload()
    teacher.get_by_role("button", name="Start the game").click()
    expect(student.locator("button.evac-act:not([disabled])").first).to_be_visible()
    tap_once(student, "Ana", session_id)
    before = student_moves(session_id)

    student.context.set_offline(True)
    for ws, _server in sockets:
        ws.close()
    expect(student.locator("#connection")).to_contain_text("Reconnecting")
    button = student.locator('button.evac-act[data-key*=\'"type":"wait"\']').first
    button.click()
    student.wait_for_timeout(1500)
    assert student_moves(session_id) == before  # nothing can arrive while offline

    student.context.set_offline(False)
    expect(student.locator("#connection")).to_be_hidden(timeout=20_000)
    expect(student.locator("button.evac-act:not([disabled])").first).to_be_visible(timeout=20_000)
    after = student_moves(session_id)
    assert len(after) == len(before) + 1 and len(set(after)) == len(after)
    tap_stored(student, "Ana", session_id, lambda: len(student_moves(session_id)))
    assert len(student_moves(session_id)) == len(before) + 2


def test_blocked_websockets_fall_back_to_http(browser, asgi_server):
    """Where the network refuses WebSockets the page switches to HTTP by itself and plays on."""
    teacher = teacher_page(browser, asgi_server)
    code, session_id = create_session(teacher, bots=True)
    context = browser.new_context(base_url=asgi_server, viewport={"width": 768, "height": 1024})
    context.route_web_socket(re.compile(r".*/ws/.*"), lambda ws: ws.close(code=1006 if False else 1000))
    student = context.new_page()
    accept_questions(student)
    student.goto("/join")
    student.get_by_label("Lesson code").fill(code)
    student.get_by_label("Nickname").fill("Ana")
    student.get_by_role("button", name="Join").click()
    expect(student.locator("#connection")).to_contain_text("Slow mode", timeout=20_000)
    teacher.get_by_role("button", name="Start the game").click()
    expect(student.locator("button.evac-act:not([disabled])").first).to_be_visible(timeout=20_000)
    for _ in range(3):
        # each view comes back by long-poll: wait for it however busy the machine is
        expect(student.locator("button.evac-act:not([disabled])").first).to_be_visible(timeout=20_000)
        tap_stored(student, "Ana", session_id, lambda: len(student_moves(session_id)))
    moves = student_moves(session_id)
    assert len(moves) == 3 and len(set(moves)) == 3
    context.close()


def test_a_tablet_missing_its_own_view_catches_up_once_while_bots_keep_moving(browser, asgi_server):
    """Ben's own view and answer are lost on the way; the bots' progress (``others`` messages),
    arriving every second, tells his tablet it is behind: it asks for one sync, not one per such
    message and not never, and then plays on with his move applied once."""
    teacher = teacher_page(browser, asgi_server)
    code, session_id = create_session(teacher, bots=True)
    student = student_page(browser, asgi_server, code, "Ben")
    lost = {"dropping": False, "dropped": 0, "syncs": 0, "behind": 0}

    def route(ws):
        server = ws.connect_to_server()

        def from_server(text):
            message = json.loads(text)
            if lost["dropping"] and message.get("type") in ("view", "ok"):
                lost["dropped"] += 1
                return
            if message.get("type") == "others" and lost["dropped"]:
                lost["behind"] += 1  # each tells the tablet again that it is behind
            ws.send(text)

        def from_page(text):
            if json.loads(text).get("type") == "sync":
                lost["syncs"] += 1
                lost["dropping"] = False
            server.send(text)

        server.on_message(from_server)
        ws.on_message(from_page)

    student.route_web_socket(re.compile(r".*/ws/play/.*"), route)
    student.reload()
    teacher.get_by_role("button", name="Start the game").click()
    expect(student.locator("button.evac-act:not([disabled])").first).to_be_visible()
    before = student_moves(session_id)

    lost["dropping"] = True
    student.locator('button.evac-act[data-key*=\'"type":"wait"\']').first.click()
    waited = 0
    while not lost["syncs"] or lost["behind"] < 6:  # a sync, and several messages after it
        assert waited < 60_000, f"no sync after {lost['behind']} messages saying the tablet is behind"
        student.wait_for_timeout(250)
        waited += 250
    assert lost["dropped"] >= 1
    assert lost["syncs"] == 1, "one sync for a view that went missing"

    expect(student.locator("button.evac-act:not([disabled])").first).to_be_visible(timeout=15_000)
    assert len(student_moves(session_id)) == len(before) + 1
    assert lost["syncs"] == 1
