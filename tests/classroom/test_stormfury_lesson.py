"""A Stormfury lesson: one storm for the whole class, moved when every table is ready or when
the teacher calls it."""

from datetime import timedelta

import pytest
from django.utils import timezone

from classroom import selectors, services
from games import services as games
from games.models import Game, Move
from scenarios.registry import ENGINES
from tests.factories import join_students, make_session

pytestmark = pytest.mark.django_db


def storm_session(students=4, **options):
    session = make_session(scenario="stormfury", seats_per_table=2, turn_timer=False, **options)
    join_students(session, students)
    services.start(session=session)
    session.refresh_from_db()
    return session


def play_humans_until_waiting(session, limit=400):
    """Every human seat plays its policy bot's choice until no seat at any table may act."""
    policy = games._bot("stormfury", games.policy_bot("stormfury"))
    for _ in range(limit):
        acted = False
        for table in session.tables.select_related("game"):
            game = Game.objects.get(pk=table.game_id)
            engine = ENGINES["stormfury"]
            state = engine.load(game.state)
            for seat in engine.to_act(state):
                mark = game.seat_marks[str(seat)][0]
                games.submit(
                    game_id=game.pk,
                    seat=seat,
                    action=policy(state, seat),
                    action_id=f"t{table.number}s{seat}v{game.version}",
                    version=mark,
                )
                acted = True
                break
        if not acted:
            return
    raise AssertionError("tables never all waited for the storm")


def storm_of(game_id):
    view = games.current_view(Game.objects.get(pk=game_id), None)["view"]
    return view["round"], view["storm"]["at"], view["storm"]["category"]


def test_the_storm_waits_for_every_table_then_moves_for_all():
    """No table's storm moves until every table has ended its turn; then all move alike."""
    session = storm_session(students=4)
    first, second = [t.game_id for t in session.tables.all()]
    assert storm_of(first) == storm_of(second)
    play_humans_until_waiting(session)
    assert all(games.waiting_for_system(Game.objects.get(pk=g), "storm_moves") for g in (first, second))
    before = storm_of(first)
    assert services.sweep_storms() == 2
    after_first, after_second = storm_of(first), storm_of(second)
    assert after_first == after_second != before
    assert Move.objects.filter(game_id=first, action__type="storm_moves", actor=Move.Actor.SYSTEM).count() == 1


def test_a_table_still_playing_holds_the_class_storm_until_the_teacher_calls_it():
    """One table finished its turn, the other hasn't: the storm waits; the teacher's countdown
    then moves it at every table, once."""
    session = storm_session(students=4)
    first, second = [t.game_id for t in session.tables.all()]
    play_humans_until_waiting(session)  # both waiting now; undo by a fresh round on one table
    services.sweep_storms()
    policy = games._bot("stormfury", games.policy_bot("stormfury"))
    game = Game.objects.get(pk=first)
    engine = ENGINES["stormfury"]
    while engine.to_act(state := engine.load(game.state)):
        seat = engine.to_act(state)[0]
        games.submit(game_id=first, seat=seat, action=policy(state, seat), action_id=f"one-{game.version}")
        game.refresh_from_db()
    assert services.sweep_storms() == 0  # table 2 has not ended its turn

    services.call_storm(session=session)
    session.refresh_from_db()
    assert session.storm_deadline > timezone.now()
    assert services.sweep_storms() == 0  # the countdown is still running
    moved = services.sweep_storms(now=timezone.now() + timedelta(seconds=services.STORM_COUNTDOWN_SECONDS + 1))
    assert moved == 2
    assert storm_of(first) == storm_of(second)
    session.refresh_from_db()
    assert session.storm_deadline is None


def test_final_standings_rank_teams_by_damage_beside_the_policy_bot():
    """At the end, teams are ranked by damage (lower first) with the bot's result on the same storm."""
    session = storm_session(students=4)
    services.finish_with_bots(session=session)
    standings = selectors.dashboard(session)["standings"]
    assert standings["final"] and standings["lower_is_better"]
    damages = [row["score"] for row in standings["class"]]
    assert damages == sorted(damages)
    for row in standings["class"]:
        game = Game.objects.get(table__session=session, table__number=row["table"])
        assert games.policy_results(game)[0]["score"] == row["bot_score"]
        assert game.options["storm_seed"] == session.seed  # the class's one storm


def test_storm_called_while_tables_choose_roles_changes_nothing_and_clears():
    """Pressing "storm moves" before any table has picked roles moves nothing, breaks nothing,
    and the countdown ends (the teacher can press again later)."""
    session = make_session(scenario="stormfury", seats_per_table=2, turn_timer=False)
    join_students(session, 2)
    services.start(session=session)
    session.refresh_from_db()
    game_id = session.tables.get().game_id
    before = Game.objects.get(pk=game_id).version
    services.call_storm(session=session)
    assert services.sweep_storms(now=timezone.now() + timedelta(seconds=30)) == 0
    session.refresh_from_db()
    assert session.storm_deadline is None
    assert Game.objects.get(pk=game_id).version == before


def test_a_table_stopped_before_its_storm_passed_is_shown_stopped_not_ranked_first():
    """Ending one table early does not rank it first: it is shown as stopped, with its damage so
    far beside the policy bot's damage after as many storm moves; the table that played the
    storm out is the one ranked. The debrief compares the same way."""
    from scoring import services as scoring

    session = storm_session(students=4)
    first, second = [t.game_id for t in session.tables.order_by("number")]
    play_humans_until_waiting(session)
    assert services.sweep_storms() == 2  # one storm move for the class
    games.end_now(game_id=second)
    services.finish_with_bots(session=session)
    standings = selectors.dashboard(session)["standings"]
    rows = {row["table"]: row for row in standings["class"]}
    played, stopped = rows[1], rows[2]
    assert not played["stopped"] and played["class_rank"] == 1
    assert stopped["stopped"] and stopped["class_rank"] is None and stopped["stopped_after"] == 1
    assert [row["table"] for row in standings["class"]] == [1, 2]  # stopped tables come after the ranked
    bot = games.policy_results(Game.objects.get(pk=second))[0]
    assert stopped["bot_score"] == bot["breakdown"]["team"]["score_track"][0]
    assert len(bot["breakdown"]["team"]["score_track"]) > 1  # the bot's whole storm went further
    own = games.results(Game.objects.get(pk=second))[0]
    assert stopped["score"] == own["score"] == own["breakdown"]["team"]["score_track"][-1]
    assert played["bot_score"] == games.policy_results(Game.objects.get(pk=first))[0]["score"]

    services.end(session=session)
    _template, context = scoring.debrief_page(session)
    row = next(r for r in context["summary"]["rows"] if r["table"] == 2)
    assert row["stopped_after"] == 1 and row["bot_total"] == stopped["bot_score"]
