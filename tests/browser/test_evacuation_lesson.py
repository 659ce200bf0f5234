"""A whole evacuation lesson in real browsers: a teacher and students on their own tablets."""

import pytest
from playwright.sync_api import expect

from classroom.models import Session
from games.models import Game, Move
from tests.browser.lesson import create_session, play_to_the_end, student_page, tap_once, tap_stored, teacher_page
from tests.conftest import in_thread

pytestmark = pytest.mark.browser
NAMES = ["Ana", "Ben", "Chloe", "Dev"]


def moves(session_id, **filters):
    return in_thread(
        lambda: list(
            Move.objects.filter(game__table__session_id=session_id, **filters).values_list(
                "game_id", "seq", "seat", "actor", "action_id"
            )
        )
    )


@pytest.mark.long
def test_four_students_play_a_whole_game_while_the_teacher_watches(browser, asgi_server):
    """Four tablets join by code, play to the end through the UI; the dashboard shows it live."""
    teacher = teacher_page(browser, asgi_server)
    code, session_id = create_session(teacher, bots=False)
    students = {name: student_page(browser, asgi_server, code, name) for name in NAMES}
    for name in NAMES:
        expect(teacher.locator(".roster")).to_contain_text(name)
    expect(students["Dev"].get_by_text("You are at table 1.")).to_be_visible()
    teacher.get_by_role("button", name="Start the game").click()
    for page in students.values():
        expect(page.locator(".evac-actions")).to_be_visible()

    # Ana waits: her tablemates' own views are as they were, so only their views' new ``others``
    # part reaches them, and their tablets show her later hour while keeping everything else.
    others_before = students["Ben"].locator(".evac-others").inner_text()
    choices_before = students["Ben"].locator("button.evac-act").count()
    students["Ana"].locator("""button.evac-act[data-key='{"type":"wait"}']""").click()
    expect(students["Ben"].locator(".evac-others")).not_to_have_text(others_before)
    expect(students["Ben"].locator("button.evac-act:not([disabled])")).to_have_count(choices_before)

    play_to_the_end(students, session_id)

    for page in students.values():
        expect(page.locator(".evac-results")).to_be_visible()
    expect(teacher.get_by_role("heading", name="Class ranking (bots not ranked)")).to_be_visible()
    for name in NAMES:
        expect(teacher.locator(".standings")).to_contain_text(name)
    actors = {actor for *_, actor, _ in moves(session_id)}
    assert actors == {Move.Actor.STUDENT}
    assert in_thread(lambda: Game.objects.get(table__session_id=session_id).status) == Game.Status.FINISHED


def test_one_student_with_three_bots(browser, asgi_server):
    """One student plays with three bots; the bots' moves are recorded as bot moves."""
    teacher = teacher_page(browser, asgi_server)
    code, session_id = create_session(teacher, bots=True)
    student = student_page(browser, asgi_server, code, "Solo")
    teacher.get_by_role("button", name="Start the game").click()
    expect(student.locator(".evac-actions")).to_be_visible()
    play_to_the_end({"Solo": student}, session_id)
    expect(teacher.get_by_role("heading", name="Class ranking (bots not ranked)")).to_be_visible()
    expect(teacher.locator(".standings tbody tr")).to_have_count(1)
    seats_by_actor = {(seat, actor) for _, _, seat, actor, _ in moves(session_id)}
    assert {actor for seat, actor in seats_by_actor if seat != 0} == {Move.Actor.BOT}
    assert {actor for seat, actor in seats_by_actor if seat == 0} == {Move.Actor.STUDENT}


def test_bell_rings_finish_with_bots(browser, asgi_server):
    """Mid-game the teacher finishes with bots: every seat is played out, the code stops working."""
    teacher = teacher_page(browser, asgi_server)
    code, session_id = create_session(teacher, bots=False)
    students = {name: student_page(browser, asgi_server, code, name) for name in NAMES[:2]}
    teacher.get_by_role("button", name="Start the game").click()
    for name, page in students.items():
        expect(page.locator(".evac-actions")).to_be_visible()
        tap_once(page, name, session_id)
    teacher.get_by_role("button", name="Finish with bots").click()
    expect(teacher.get_by_role("heading", name="Class ranking (bots not ranked)")).to_be_visible()
    for page in students.values():
        expect(page.locator(".evac-results")).to_be_visible()
    assert Move.Actor.BOT in {actor for *_, actor, _ in moves(session_id)}
    late = student_page.__wrapped__ if hasattr(student_page, "__wrapped__") else None
    del late
    context = browser.new_context(base_url=asgi_server)
    page = context.new_page()
    page.goto("/join")
    page.get_by_label("Lesson code").fill(code)
    page.get_by_label("Nickname").fill("Late")
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_role("alert")).to_contain_text("This lesson has ended")
    context.close()


def test_parked_lesson_resumes_on_a_reloaded_tablet(browser, asgi_server):
    """Parked at the bell: students see it and can't act; resumed later, a reloaded tablet plays on."""
    teacher = teacher_page(browser, asgi_server)
    code, session_id = create_session(teacher, bots=True)
    student = student_page(browser, asgi_server, code, "Ana")
    teacher.get_by_role("button", name="Start the game").click()
    expect(student.locator(".evac-actions")).to_be_visible()
    teacher.get_by_role("button", name="Park until next lesson").click()
    expect(student.get_by_text("parked until your teacher resumes it").first).to_be_visible()
    assert in_thread(lambda: Session.objects.get(pk=session_id).status) == Session.Status.PARKED
    before = len(moves(session_id, seat=0))
    teacher.reload()
    teacher.get_by_role("button", name="Resume").click()
    student.reload()
    expect(student.locator("button.evac-act:not([disabled])").first).to_be_visible()
    tap_stored(student, "Ana", session_id, lambda: len(moves(session_id, seat=0)))
    assert len(moves(session_id, seat=0)) == before + 1
