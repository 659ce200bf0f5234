"""A lesson ends by itself once every table has finished, and its reports start at once."""

import pytest

from classroom import services
from classroom.models import Session
from games import services as games
from scoring.models import Report
from tests.factories import join_students, make_session, started_session
from tests.scoring.test_reports import wait_for_reports


def test_the_session_ends_when_its_last_table_finishes_and_reports_are_written(celery_worker):
    """With one table still playing the session plays on; once the last one finishes, one sweep
    ends it (once, however many sweeps run) and every report is written without the teacher."""
    session, _devices = started_session(students=6)
    first, second = session.tables.order_by("number")
    games.finish_with_bots(game_id=first.game_id)
    assert services.end_finished_sessions() == 0
    session.refresh_from_db()
    assert session.status == Session.Status.PLAYING

    games.finish_with_bots(game_id=second.game_id)
    assert services.end_finished_sessions() == 1
    assert services.end_finished_sessions() == 0
    session.refresh_from_db()
    assert session.status == Session.Status.ENDED and session.ended_at is not None
    with pytest.raises(services.JoinError, match="ended"):
        services.open_session_for_code(session.join_code)
    status = wait_for_reports(session)
    assert status["failed"] == 0
    assert Report.objects.filter(session=session, kind=Report.Kind.STUDENT).count() == 6
    assert Report.objects.filter(session=session, kind=Report.Kind.CLASS).count() == 1


@pytest.mark.django_db
def test_lobbies_paused_lessons_and_running_tables_are_left_alone():
    """A lobby (no games yet), a paused lesson and a lesson still playing are not ended; the
    teacher's "End now" still ends a lesson at once."""
    lobby = make_session()
    join_students(lobby, 3)
    paused, _ = started_session(students=3)
    games.finish_with_bots(game_id=paused.tables.get().game_id)
    services.set_paused(session=paused, paused=True)
    playing, _ = started_session(students=3)
    assert services.end_finished_sessions() == 0
    for session, status in ((lobby, "lobby"), (paused, "paused"), (playing, "playing")):
        session.refresh_from_db()
        assert session.status == status
    services.end_now(session=playing)
    playing.refresh_from_db()
    assert playing.status == Session.Status.ENDED
