"""A finished evacuation lesson, played through the real services by students' taps."""

import pytest

from games import services as games
from games.models import Game, Move
from scenarios.evacuation import bots

# Students play like a few kinds of real household; seat n at a table uses POLICIES[n % 4].
POLICIES = ["cautious", "last_minute", "bank_farming", "random"]


def play_as_students(session, max_rounds=5000):
    """Every human seat plays its game to the end through ``submit`` (actor: student)."""
    for table in session.tables.select_related("game").prefetch_related("seats"):
        humans = {seat.number for seat in table.seats.all() if seat.participant_id}
        for _ in range(max_rounds):
            game = Game.objects.get(pk=table.game_id)
            engine = games.engine_for(game)
            state = engine.load(game.state)
            if engine.finished(state):
                break
            acting = [seat for seat in engine.to_act(state)]
            for seat in acting:
                state = engine.load(Game.objects.get(pk=table.game_id).state)
                if engine.finished(state) or seat not in engine.to_act(state):
                    continue
                policy = (
                    bots.BOTS[POLICIES[seat % 4]] if seat in humans else bots.BOTS[game.bots.get(str(seat), "cautious")]
                )
                games.submit(
                    game_id=table.game_id,
                    seat=seat,
                    action=policy(state, seat),
                    actor=Move.Actor.STUDENT if seat in humans else Move.Actor.BOT,
                )


def finish_a_session():
    """Six students at two tables (bots fill the empty seats), played to the end and ended."""
    from classroom import services
    from tests.factories import started_session

    session, devices = started_session(students=6)
    play_as_students(session)
    services.end(session=session)
    session.refresh_from_db()
    return session, devices


@pytest.fixture
def finished_session(db):
    """``finish_a_session`` in the test's own transaction."""
    return finish_a_session()
