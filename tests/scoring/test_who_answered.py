"""A bot's or a timer's answer to "why?" is never credited to a student."""

import pytest
from django.urls import reverse

from classroom import services
from games import services as games
from games.models import Game, Move
from scenarios.evacuation import bots
from scoring import services as scoring
from scoring.models import Report
from tests.factories import PASSWORD, started_session


def play(session, actor_of):
    """Every seat plays a cautious household to the end; seat n's moves carry ``actor_of(n)``."""
    table = session.tables.get()
    for _ in range(5000):
        game = Game.objects.get(pk=table.game_id)
        engine = games.engine_for(game)
        state = engine.load(game.state)
        if engine.finished(state):
            return
        for seat in engine.to_act(state):
            state = engine.load(Game.objects.get(pk=table.game_id).state)
            if engine.finished(state) or seat not in engine.to_act(state):
                continue
            games.submit(
                game_id=table.game_id, seat=seat, action=bots.BOTS["cautious"](state, seat), actor=actor_of(seat)
            )


@pytest.fixture
def lesson(db):
    """Two students at one table: Kid0 answers for herself, Kid1 was idle and a timer answered."""
    session, _devices = started_session(students=2)
    actors = {0: Move.Actor.STUDENT, 1: Move.Actor.TIMER}
    play(session, lambda seat: actors.get(seat, Move.Actor.BOT))
    services.end(session=session)
    return session


def test_the_debrief_counts_only_students_own_answers_and_says_how_many_were_a_bots(client, lesson):
    """The class page tallies Kid0's two answers, not Kid1's, and says the bot's were left out."""
    client.login(email=lesson.teacher.email, password=PASSWORD)
    answer = client.get(reverse("scoring:session_debrief", args=[lesson.pk]))
    reasons = answer.context["summary"]["reasons"]
    assert reasons["leave"]["answered"] == 1 and reasons["leave"]["by_bot"] == 1
    assert reasons["destination"]["answered"] == 1 and reasons["destination"]["by_bot"] == 1
    assert sum(a["count"] for a in reasons["leave"]["answers"]) == 1
    assert "Not counted: 1 answer given by a bot playing for a student." in answer.content.decode()


def test_a_students_report_says_you_said_only_for_their_own_answers(lesson):
    """Kid0's report says "You said you left because"; Kid1's says a bot answered for them."""
    for report in scoring.plan_reports(lesson):
        if report.kind == Report.Kind.STUDENT:
            html = scoring.build_report(report.pk).html
            if report.seat.participant.nickname == "Kid0":
                assert "You said you left because:" in html and "answered “why?” for you" not in html
            else:
                assert "You said you left because:" not in html
                assert "A bot played for you when you were away and answered “why?” for you" in html


def test_the_export_keeps_who_answered(lesson):
    """Decision rows say who gave each reason, and every move keeps its actor."""
    data = scoring.export_data(lesson)
    by_seat = {row["seat"]: row for row in data["decisions"]}
    assert by_seat[0]["reason_leave_by"] == "student" and by_seat[0]["reason_destination_by"] == "student"
    assert by_seat[1]["reason_leave_by"] == "timer" and by_seat[1]["reason_destination_by"] == "timer"
    assert by_seat[1]["reason_leave"]  # the answer is kept, attributed to the timer
    reason_moves = [m for m in data["moves"] if m["action_type"] == "reason" and m["seat"] == 1]
    assert reason_moves and all(m["actor"] == "timer" for m in reason_moves)
    assert "decisions.reason_leave_by / reason_destination_by" in data["data_dictionary"]
