"""Idle timers a 10-year-old can live with: about two minutes, from the student's first move,
and one timeout plays the student's whole turn rather than one action of it."""

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Game, Move
from scenarios.registry import ENGINES
from tests.factories import make_session

pytestmark = pytest.mark.django_db


def test_a_new_session_gives_an_idle_student_about_two_minutes():
    assert make_session().turn_seconds == 120


def test_a_students_clock_starts_with_their_first_move_and_a_bots_at_once():
    game = services.create_game(scenario="evacuation", seed=5, seats=3, bots={2: "cautious"}, turn_seconds=120)
    assert set(game.timers) == {"2"}
    game = services.submit(game_id=game.pk, seat=0, action={"type": "wait"}).game
    assert set(game.timers) == {"0", "2"}
    left = (datetime.fromisoformat(game.timers["0"]) - timezone.now()).total_seconds()
    assert 110 < left <= 120


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
    from scenarios import registry

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
