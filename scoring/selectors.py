"""What the debrief reads of a finished lesson: each table's log and seat holders, and the facts
its pages may show. Reports (``scoring.reports``) and services read through these."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation

from classroom.models import Session
from games.models import Move
from scenarios import registry, words
from scenarios.audience import Audience
from scenarios.debrief import stand_in_seats
from scoring import outcomes
from scoring.models import Fact


def table_records(session: Session) -> list[dict]:
    """Each table's final state, move log and seat holders, as scenarios' debrief parts read them.
    A holder's ``stand_in`` says the stand-in played the seat (``scenarios.debrief.played_by_stand_in``)."""
    tables = list(
        session.tables.select_related("game")
        .prefetch_related("seats__participant")
        .filter(game__isnull=False)
        .order_by("number")
    )
    moves_by_game: dict[int, list] = {t.game_id: [] for t in tables}
    for move in (
        Move.objects.filter(game_id__in=moves_by_game)
        .order_by("game_id", "seq")
        .values("game_id", "seq", "seat", "actor", "action_id", "action", "events")
    ):
        moves_by_game[move.pop("game_id")].append(move)
    records = []
    for table in tables:
        # a student's seat the stand-in played: its points are the stand-in's, not the student's
        stood_in = stand_in_seats(moves_by_game[table.game_id])
        holders = {
            seat.number: (
                {
                    "participant": seat.participant_id,
                    "name": words.Typed(seat.participant.nickname),
                    "seat_id": seat.pk,
                    "stand_in": seat.number in stood_in,
                }
                if seat.participant_id
                else None
            )
            for seat in table.seats.all()
        }
        for number in range(table.game.seats):
            holders.setdefault(number, None)
        records.append(
            {
                "table": table.number,
                "game": table.game_id,
                "state": table.game.state,
                "seed": table.game.seed,
                "options": table.game.options,
                "status": table.game.status,
                "moves": moves_by_game[table.game_id],
                "holders": holders,
            }
        )
    return records


def shown_facts(session: Session, audience: str) -> list[Fact]:
    """The facts this session's pages may show to ``audience`` ("student" or "teacher")."""
    reader = Audience.of(session.intensity, session.age_band, teacher=audience == "teacher")
    facts = Fact.objects.shown(scenario=session.scenario, reader=reader, also=registry.get(session.scenario).facts)
    return outcomes.in_language(facts, translation.get_language() or settings.LANGUAGE_CODE)  # the reader's
