"""Stormfury's class timer: the storm moves by itself when a round's time is up, swept by the
server's own deadline loop, and a table whose players have all ended waits for it with the class."""

import time

import pytest
from django.utils import timezone

from classroom import services
from games import services as games
from games.models import Game, Move
from scenarios.registry import ENGINES
from tests.factories import join_students, make_session

ENGINE = ENGINES["stormfury"]


def storm_session(students, seconds):
    session = make_session(scenario="stormfury", seats_per_table=2, turn_timer=False, options={"storm_timer": seconds})
    join_students(session, students)
    services.start(session=session)
    session.refresh_from_db()
    return session


def play(game_id, *, until):
    """The seats of one table play their policy bot's choices while ``until(state)`` is false."""
    policy = games._bot("stormfury", games.policy_bot("stormfury"))
    for _ in range(200):
        game = Game.objects.get(pk=game_id)
        state = ENGINE.load(game.state)
        if until(state):
            return game
        seat = ENGINE.to_act(state)[0]
        mark = game.seat_marks[str(seat)][0]
        games.submit(game_id=game_id, seat=seat, action=policy(state, seat), version=mark)
    raise AssertionError("the table never got there")


def wait_for(condition, seconds=60):
    """Await ``condition()`` (the server's loops run on their own thread)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if result := condition():
            return result
        time.sleep(0.1)
    raise AssertionError("the condition never came true")


@pytest.mark.django_db
def test_new_sessions_move_the_storm_on_a_class_timer_by_default():
    session = make_session(scenario="stormfury", seats_per_table=2, turn_timer=False)
    join_students(session, 2)
    services.start(session=session)
    game = Game.objects.get(pk=session.tables.get().game_id)
    assert ENGINE.load(game.state)["options"]["storm_timer"] == 120


@pytest.mark.django_db(transaction=True)
def test_the_storm_moves_on_its_own_timer_while_students_still_play(asgi_server):
    """Roles chosen, nobody plays the Player Phase: the deadline loop moves the storm at both
    tables when the timer is up, the idle players' turns ending as if skipped, and the next
    round's timer starts."""
    session = storm_session(students=4, seconds=2)
    tables = [t.game_id for t in session.tables.order_by("number")]
    for game_id in tables:
        play(game_id, until=lambda state: state["phase"] == "player")
    moved = wait_for(lambda: all(Move.objects.filter(game_id=g, action__type="storm_moves").exists() for g in tables))
    assert moved
    for game_id in tables:
        storm = Move.objects.get(game_id=game_id, action__type="storm_moves")
        assert storm.actor == Move.Actor.SYSTEM and storm.seat is None
        assert {e["seat"] for e in storm.events if e["type"] == "skipped"} == {0, 1}
        game = Game.objects.get(pk=game_id)
        state = ENGINE.load(game.state)
        assert state["round"] == 2 and state["phase"] == "player"
        assert "system:storm-2" in game.timers  # the next round's time runs
    first, second = (ENGINE.load(Game.objects.get(pk=g).state)["storm"] for g in tables)
    assert first == second  # the class's one storm, moved alike


@pytest.mark.django_db
def test_a_table_whose_players_all_ended_waits_for_the_timer_not_moving_at_once():
    """The teacher can still move it early ("Storm moves" after its countdown); until then a
    table that is done waits with the class for the round's time."""
    session = storm_session(students=4, seconds=120)
    first, second = [t.game_id for t in session.tables.order_by("number")]
    play(first, until=lambda state: state["phase"] == "player")
    play(second, until=lambda state: state["phase"] == "player")
    started = Game.objects.get(pk=first).timers["system:storm-1"]
    game = play(first, until=lambda state: state["phase"] == "storm")
    assert game.timers == {"system:storm-1": started}  # kept from the round's start
    assert game.next_deadline > timezone.now()
    assert services.sweep_storms() == 0  # the other table still plays
    assert games.sweep_due() == 0
    assert ENGINE.load(Game.objects.get(pk=first).state)["round"] == 1
