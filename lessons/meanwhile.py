"""While the others finish: what a student's tablet shows once their own game (or seat) is over
and the lesson still plays — their own what-if replay, the family plan to start, and their
table's debrief questions — never an idle screen.

The scenario's debrief part writes the what-if and the questions (``Debrief.early``) from the
table as it stands; the facts come from the session's student facts (``scoring``'s filter: only
verified ones with a source, no death tolls for a Gentle class, at the class's age band), each
shown with its source and grade.
"""

from __future__ import annotations

from django.urls import reverse

from classroom.models import Participant, Seat, Session
from games import services as games
from scenarios import registry
from scoring.reports import Lesson
from scoring.selectors import table_records

#: the lesson still plays: an early finisher's classmates are at their games
STILL_PLAYING = (Session.Status.PLAYING, Session.Status.PAUSED)


def finished_seat(participant: Participant) -> Seat | None:
    """The student's first seat whose game (or whose own part of it) is over while the lesson
    still plays; None while every seat of theirs has a game to play, or once the lesson ended."""
    if participant.session.status not in STILL_PLAYING:
        return None
    for seat in participant.seats.select_related("table__game").order_by("table__number", "number"):
        game = seat.table.game
        if game is None:
            continue
        engine = games.engine_for(game)
        state = engine.load(game.state)
        if engine.finished(state) or not games.seat_open(engine, state, seat.number):
            return seat
    return None


def early_finish(participant: Participant) -> dict | None:
    """The "while the others finish" panel of a student whose game is over (``finished_seat``),
    in the active language: ``whatif`` and ``questions`` (sentences), ``facts`` (each with its
    statement, number, source and grade) and ``plan_url``; None when their game goes on."""
    seat = finished_seat(participant)
    if seat is None:
        return None
    session = participant.session
    lesson = Lesson(session, tables=[t for t in table_records(session) if t["table"] == seat.table.number])
    part = registry.get(session.scenario).debrief.early(lesson, lesson.tables[0], seat.number)
    return {
        "whatif": part["whatif"],
        "questions": part["questions"],
        "facts": [
            {
                "statement": fact.statement,
                "number": fact.number,
                "source": fact.citation,
                "url": fact.url,
                "grade": fact.confidence,
            }
            for fact in part["facts"]
        ],
        "plan_url": reverse("lessons:student_plan", args=[session.pk]),
    }
