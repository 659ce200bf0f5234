"""A tablet that joins after the game has started and the bots have moved: the teacher sees the
name waiting at the top of the dashboard, approves it, and the tablet plays a seat of the
running game that a bot kept for it."""

import time

import pytest
from playwright.sync_api import expect

from tests.browser.lesson import create_session, student_page, tap_stored, teacher_page
from tests.conftest import in_thread

pytestmark = pytest.mark.browser


def _bot_moves(session_id):
    from games.models import Move

    return Move.objects.filter(game__table__session_id=session_id, actor=Move.Actor.BOT).count()


def _seat_of(session_id, nickname):
    """(game id, seat number) the student holds, or None."""
    from classroom.models import Seat

    seat = Seat.objects.filter(table__session_id=session_id, participant__nickname=nickname).select_related("table")
    return next(((s.table.game_id, s.number) for s in seat), None)


def _student_moves(session_id, nickname):
    from games.models import Move

    where = _seat_of(session_id, nickname)
    if where is None:
        return 0
    return Move.objects.filter(game_id=where[0], seat=where[1], actor=Move.Actor.STUDENT).count()


def _games(session_id):
    from classroom.models import Table

    return sorted(Table.objects.filter(session_id=session_id).values_list("game_id", flat=True))


def test_a_tablet_joining_late_plays_a_seat_of_the_running_game(browser, asgi_server, settings):
    # The bots keep their households on the road a little longer than the tests' usual pace.
    settings.KEEPER_STEP_SECONDS = 2.0
    teacher = teacher_page(browser, asgi_server)
    code, session_id = create_session(teacher, bots=True)
    for name in ("Ana", "Bea"):
        student_page(browser, asgi_server, code, name)
    teacher.get_by_role("button", name="Approve all 2 waiting names").click()
    teacher.get_by_role("button", name="Start the game").click()
    expect(teacher.locator(".status-line .badge")).to_have_text("Playing")
    games_at_start = in_thread(_games, session_id)
    deadline = time.monotonic() + 30
    while in_thread(_bot_moves, session_id) == 0:
        assert time.monotonic() < deadline, "no bot moved"
        time.sleep(0.1)

    dee = student_page(browser, asgi_server, code, "Dee")
    # The name waits at the top of the dashboard, not inside the folded class list.
    waiting = teacher.get_by_role("region", name="1 waiting for you")
    expect(waiting).to_contain_text("Dee")
    expect(waiting.get_by_role("button", name="Approve: Dee")).to_be_visible()
    waiting.get_by_role("button", name="Approve: Dee").click()
    expect(waiting).to_have_count(0)

    expect(dee.locator("button.evac-act:not([disabled])").first).to_be_visible()
    tap_stored(dee, "Dee", session_id, lambda: in_thread(_student_moves, session_id, "Dee"))
    game_id, _seat = in_thread(_seat_of, session_id, "Dee")
    assert in_thread(_games, session_id) == games_at_start and game_id in games_at_start  # no new table
