"""A student whose own game (or seat) is over while the lesson still plays gets something that
teaches: their own what-if, their table's questions and the family plan, with sourced facts only
(none a Gentle class may not see)."""

import pytest
from django.utils import translation

from classroom import services as classroom
from classroom.models import Seat
from games import services as games
from lessons import meanwhile
from scenarios import registry
from tests.factories import join_students, make_session

pytestmark = pytest.mark.django_db


def _two_tables(key, **options):
    scenario = registry.get(key)
    seats = scenario.seats[0]
    session = make_session(scenario=key, seats_per_table=seats, seed=42, **options)
    join_students(session, 2 * seats)
    classroom.start(session=session)
    tables = list(session.tables.order_by("number"))
    assert len(tables) == 2
    return session, tables


def _student_at(table):
    return Seat.objects.filter(table=table, participant__isnull=False).order_by("number").first()


@pytest.mark.parametrize("key", registry.keys())
def test_a_table_that_finished_first_gets_its_what_if_questions_and_plan(key):
    session, (first, second) = _two_tables(key)
    seat = _student_at(first)
    assert meanwhile.early_finish(seat.participant) is None  # still playing: the game is the screen

    games.finish_with_bots(game_id=first.game_id)
    session.refresh_from_db()
    assert session.status == "playing"  # the other table still plays
    with translation.override("en"):
        panel = meanwhile.early_finish(seat.participant)

    assert panel["whatif"] and all(isinstance(s, str) and len(s) > 20 for s in panel["whatif"])
    assert len(panel["questions"]) >= 2 and all(q.strip().endswith("?") for q in panel["questions"])
    assert panel["facts"] and all(f["source"] and f["url"] and f["grade"] == "O" for f in panel["facts"])
    assert panel["plan_url"] == f"/play/{session.pk}/plan"
    # the other table's students still play
    assert meanwhile.early_finish(_student_at(second).participant) is None


def _stay_home(session, table):
    seat = _student_at(table)
    games.submit(game_id=table.game_id, seat=seat.number, action={"type": "stay_home"})
    return seat


def test_a_household_home_for_the_storm_reads_what_leaving_would_have_done_while_others_drive():
    session, (table, _other) = _two_tables("evacuation", intensity="frank", age_band="13+")
    seat = _stay_home(session, table)
    game = games.Game.objects.get(pk=table.game_id)
    assert game.status == "playing"  # the tablemates still drive

    with translation.override("en"):
        panel = meanwhile.early_finish(seat.participant)
    assert "instead of staying home" in panel["whatif"][0]
    assert any(f["source"].startswith("National Hurricane Center") or f["statement"] for f in panel["facts"])
    with translation.override("es"):
        spanish = meanwhile.early_finish(seat.participant)
    assert spanish["whatif"][0] != panel["whatif"][0] and spanish["questions"] != panel["questions"]


def test_a_gentle_class_reads_no_death_toll_where_a_frank_one_does():
    shown = {}
    for intensity in ("frank", "gentle"):
        session, (table, _other) = _two_tables("evacuation", intensity=intensity, age_band="13+")
        seat = _stay_home(session, table)
        with translation.override("en"):
            shown[intensity] = {f["statement"] for f in meanwhile.early_finish(seat.participant)["facts"]}
    from scoring.models import Fact

    deaths = {f.statement for f in Fact.objects.filter(deaths=True)}
    assert shown["frank"] & deaths  # what kills in hurricanes speaks to staying home
    assert shown["gentle"] and not shown["gentle"] & deaths
