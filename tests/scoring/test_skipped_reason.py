"""A student who skips "why?" reads that they skipped the question, not a reason called
"skipped", in their own language."""

import pytest

from classroom import services
from classroom.models import Participant
from games import services as games
from games.models import Game, Move
from scenarios.evacuation import bots
from scoring import services as scoring
from scoring.models import Report
from tests.factories import started_session


def play_skipping_why(session):
    """The one student plays a cautious household and taps "skip" at every "why?"."""
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
            action = bots.BOTS["cautious"](state, seat)
            if action.get("type") == "reason" and seat == 0:
                action = {**action, "choice": "skip"}
            actor = Move.Actor.STUDENT if seat == 0 else Move.Actor.BOT
            games.submit(game_id=table.game_id, seat=seat, action=action, actor=actor)


@pytest.mark.django_db
def test_a_skipped_why_reads_as_a_skipped_question_in_dutch():
    session, _devices = started_session(students=1)
    Participant.objects.filter(session=session).update(language="nl")
    play_skipping_why(session)
    services.end(session=session)
    report = next(r for r in scoring.plan_reports(session) if r.kind == Report.Kind.STUDENT)
    html = scoring.build_report(report.pk).html
    assert "Je sloeg de vraag over waarom je deze bestemming koos." in html
    assert "overgeslagen" not in html
