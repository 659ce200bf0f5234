"""Idle timers a 10-year-old can live with: about two minutes from the moment a seat may act (its
first turn included, so no seat waits for ever), and one timeout plays the student's whole turn
rather than one action of it."""

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Game, Move
from scenarios import registry
from scenarios.registry import ENGINES
from tests.factories import make_session, started_session

pytestmark = pytest.mark.django_db


def test_a_new_session_gives_an_idle_student_about_two_minutes():
    assert make_session().turn_seconds == 120


def test_a_students_clock_runs_from_the_first_turn_and_a_bots_at_once():
    game = services.create_game(scenario="evacuation", seed=5, seats=3, bots={2: "cautious"}, turn_seconds=120)
    assert set(game.timers) == {"0", "1", "2"}
    left = (datetime.fromisoformat(game.timers["0"]) - timezone.now()).total_seconds()
    assert 110 < left <= 120
    game = services.submit(game_id=game.pk, seat=0, action={"type": "wait"}).game
    assert {"1", "2"} <= set(game.timers)


def play_with_seat_1_idle(session, max_steps=500) -> Game:
    """Seat 0 of the session's one table plays (the policy bot's choices, as a student's taps);
    seat 1's student never taps: whenever only seat 1 may act, the deadline sweep runs at the
    game's next deadline, as the deadline loop would once that time came. Returns the game as
    it stands when it finished or when no deadline was left."""
    table = session.tables.get()
    engine = ENGINES[session.scenario]
    policy = registry.get(session.scenario).bots[registry.get(session.scenario).policy_bot]
    game = Game.objects.get(pk=table.game_id)
    for _ in range(max_steps):
        if game.status == Game.Status.FINISHED:
            break
        state = engine.load(game.state)
        if 0 in engine.to_act(state):
            services.submit(game_id=game.pk, seat=0, action=policy(state, 0), version=game.version)
        else:
            assert game.next_deadline is not None, "the table waits for a seat with no clock"
            services.sweep_due(game.next_deadline + timedelta(seconds=1))
        game.refresh_from_db()
    return game


def test_a_seat_whose_student_never_taps_is_played_by_its_stand_in_and_the_lesson_ends():
    """Two students at a table; one plays, the other never taps. Each time the idle seat's timer
    runs out (the sweep is run at that deadline, as the deadline loop would) its stand-in plays
    its turn, so the game finishes and the session ends by itself; the teacher's dashboard shows
    that seat as played by the stand-in, and the final standings do not rank it."""
    from classroom import selectors
    from classroom import services as classroom
    from classroom.models import Session

    session, _devices = started_session(students=2, seats_per_table=2, fill_with_bots=False, turn_seconds=30)
    game = play_with_seat_1_idle(session)
    assert game.status == Game.Status.FINISHED
    assert set(game.moves.filter(seat=1).values_list("actor", flat=True)) == {Move.Actor.TIMER}
    assert set(game.moves.filter(seat=0).values_list("actor", flat=True)) == {Move.Actor.STUDENT}

    dashboard = selectors.dashboard(Session.objects.get(pk=session.pk))
    seats = {s["seat"]: s for s in dashboard["tables"][0]["seats"]}
    assert seats[1]["stand_in"] and not seats[0]["stand_in"]
    ranked = {row["seat"]: row for row in dashboard["standings"]["class"]}
    assert ranked[0]["class_rank"] == 1 and ranked[0]["score"] is not None
    assert ranked[1]["stand_in"] and ranked[1]["class_rank"] is None

    assert classroom.end_finished_sessions() == 1
    assert Session.objects.get(pk=session.pk).status == Session.Status.ENDED


def _play_roles(game):
    """Every seat chooses a role (the students' first moves), so their clocks run."""
    engine = ENGINES["stormfury"]
    while True:
        state = engine.load(game.state)
        if state["phase"] != "roles":
            return game
        seat = engine.to_act(state)[0]
        action = next(a for a in engine.actions(state, seat) if a["type"] == "pick_role")
        game = services.submit(game_id=game.pk, seat=seat, action=action).game


def test_one_timeout_plays_the_idle_students_whole_stormfury_turn():
    """The stand-in plays until the seat's turn has ended (hand within the limit, turn over):
    the student never comes back to a restarted clock in the middle of a turn."""
    engine = ENGINES["stormfury"]
    game = services.create_game(scenario="stormfury", seed=11, seats=2, turn_seconds=120)
    game = _play_roles(game)
    state = engine.load(game.state)
    assert state["phase"] == "player" and 0 in engine.to_act(state)
    before = game.moves.count()
    deadline = datetime.fromisoformat(game.timers["0"])
    services.play_due(game, deadline + timedelta(seconds=1))
    game.refresh_from_db()
    state = engine.load(game.state)
    stand_in = list(game.moves.filter(seq__gt=before, seat=0).values_list("actor", "action"))
    assert len(stand_in) > 1 and all(actor == Move.Actor.TIMER for actor, _ in stand_in)
    assert stand_in[-1][1]["type"] == "end_turn"
    assert 0 not in engine.to_act(state) or state["round"] > 1  # the turn is over
    player = next(p for p in state["players"] if p["seat"] == 0)
    assert sum(player["hand"].values()) <= 8
    assert "0" not in game.timers or state["round"] > 1


def test_evacuation_timeouts_still_play_one_move_each():
    """Where each move is a turn (no ``turn`` hook), a timeout plays one move and the clock
    starts again."""
    game = services.create_game(scenario="evacuation", seed=5, seats=2, turn_seconds=60)
    game = services.submit(game_id=game.pk, seat=0, action={"type": "wait"}).game
    services.play_due(game, datetime.fromisoformat(game.timers["0"]) + timedelta(seconds=1))
    game = Game.objects.get(pk=game.pk)
    assert list(game.moves.filter(seat=0).values_list("actor", flat=True)) == [Move.Actor.STUDENT, Move.Actor.TIMER]
    assert "0" in game.timers


@pytest.mark.parametrize("scenario", ["resort", "bermuda", "stormfury"])
def test_a_timeout_never_leaves_a_student_in_the_middle_of_a_turn(scenario):
    """Every scenario whose turns take several moves: once the stand-in has played for an idle
    student, the seat is no longer in the turn it timed out in."""
    engine = ENGINES[scenario]
    policy = registry.get(scenario).bots[registry.get(scenario).policy_bot]
    game = services.create_game(scenario=scenario, seed=21, seats=2, turn_seconds=120)
    for _ in range(200):  # students play until one of them has a running clock
        state = engine.load(game.state)
        timed = [s for s in engine.to_act(state) if str(s) in game.timers]
        if timed:
            break
        seat = engine.to_act(state)[0]
        game = services.submit(game_id=game.pk, seat=seat, action=policy(state, seat)).game
    seat = timed[0]
    turn = engine.turn(state, seat)
    services.play_due(game, datetime.fromisoformat(game.timers[str(seat)]) + timedelta(seconds=1))
    game.refresh_from_db()
    after = engine.load(game.state)
    assert seat not in engine.to_act(after) or engine.turn(after, seat) != turn
    assert game.moves.filter(seat=seat, actor=Move.Actor.TIMER).exists()


def _seconds_left(game, seat):
    return (datetime.fromisoformat(game.timers[str(seat)]) - timezone.now()).total_seconds()


def _stand_in_plays(game, seat):
    """Run the deadline sweep at the seat's deadline, as the deadline loop would once it came."""
    services.sweep_due(datetime.fromisoformat(game.timers[str(seat)]) + timedelta(seconds=1))
    game.refresh_from_db()
    return game


def test_an_empty_chair_holds_the_table_a_moment_a_turn_after_its_first_full_turn():
    """A seat whose student never tapped waits the whole turn timer once; after the stand-in has
    played it, each of its later turns waits only a quick child's tap. The student's first tap
    gives the seat its full turns back."""
    from games.step import ABSENT_SECONDS

    game = services.create_game(scenario="evacuation", seed=5, seats=2, bots={}, turn_seconds=120)
    assert 110 < _seconds_left(game, 1) <= 120  # the first turn: the whole timer
    services.submit(game_id=game.pk, seat=0, action={"type": "wait"}, version=game.version)
    game = _stand_in_plays(Game.objects.get(pk=game.pk), 1)
    assert game.moves.filter(seat=1).get().actor == Move.Actor.TIMER
    assert ABSENT_SECONDS - 2 < _seconds_left(game, 1) <= ABSENT_SECONDS
    assert 110 < _seconds_left(game, 0) <= 120  # the student who plays keeps the whole timer

    # She sits down and taps: her seat's turns are whole again.
    game = services.submit(game_id=game.pk, seat=1, action={"type": "wait"}, version=game.version).game
    assert 110 < _seconds_left(game, 1) <= 120


def test_the_lesson_clock_speed_runs_every_timer_faster_together(settings):
    """A test of a whole lesson at a child's pace runs the lesson's clocks ten times faster:
    a two-minute turn timer and a bot's one-second step become 12 s and 0.1 s."""
    settings.LESSON_CLOCK_SPEED = 10
    game = services.create_game(
        scenario="evacuation", seed=5, seats=2, bots={1: "cautious"}, turn_seconds=120, bot_step_seconds=1.0
    )
    assert 11 < _seconds_left(game, 0) <= 12
    assert _seconds_left(game, 1) <= 0.1


def test_an_empty_chairs_stand_in_lets_a_tornado_pile_go_as_a_bot_would():
    """At Tornado Alert! a seat that may slap a pile has no turn timer (a child may let a pile
    go), so the pile waits its reaction allowance for that seat. Once the stand-in has played a
    seat whose student never tapped, it reacts to each pile within a bot's reaction time, so no
    pile waits the allowance out for an empty chair."""
    from games.step import absent
    from scenarios.tornado_alert import rules

    engine, scenario = ENGINES["tornado_alert"], registry.get("tornado_alert")
    policy = scenario.bots[scenario.policy_bot]
    game = services.create_game(scenario="tornado_alert", seed=3, seats=2, bots={}, turn_seconds=120)
    player = engine.load(game.state)["turn"]  # the student who plays; the other chair stays empty
    chair = 1 - player
    seen = set()
    for _ in range(400):
        state = engine.load(game.state)
        if game.status == Game.Status.FINISHED or seen == {"present", "empty"}:
            break
        if rules.may_slap(state, chair) and not rules.may_play(state, chair):
            if absent(game.seat_marks.get(str(chair))):
                assert str(chair) in game.timers and _seconds_left(game, chair) <= 1.5  # a bot's reaction
                seen.add("empty")
            else:
                assert str(chair) not in game.timers  # a child may let the pile go: no clock
                seen.add("present")
        if player in engine.to_act(state):
            action = policy(state, player)
            if action["type"] == "play" and "present" not in seen:  # a card worth slapping
                action["card"] = max(state["hands"][player], key=rules.value)
            services.submit(game_id=game.pk, seat=player, action=action, version=game.version)
        else:
            services.sweep_due(game.next_deadline + timedelta(seconds=1))
        game.refresh_from_db()
    assert seen == {"present", "empty"}
    assert set(game.moves.filter(seat=chair).values_list("actor", flat=True)) == {Move.Actor.TIMER}
