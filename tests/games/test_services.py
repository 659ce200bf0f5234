import json
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Game, Move
from games.refusals import Refused
from games.step import advance
from scenarios.registry import ENGINES

pytestmark = pytest.mark.django_db


def new_game(seats=2, bots=None, turn_seconds=None):
    return services.create_game(scenario="evacuation", seed=99, seats=seats, bots=bots or {}, turn_seconds=turn_seconds)


def first_action(game, seat):
    return services.current_view(game, seat)["view"]["actions"][0]


def test_submit_applies_records_and_versions():
    """A legal action changes the state, bumps the version and appends one move."""
    game = new_game()
    action = {"type": "wait"}
    outcome = services.submit(game_id=game.pk, seat=0, action=action, action_id="a1" * 5, version=0)
    game.refresh_from_db()
    assert outcome.version == game.version == 1
    move = game.moves.get()
    assert (move.seq, move.seat, move.actor, move.action) == (1, 0, Move.Actor.STUDENT, action)
    assert any(event["type"] == "waited" for event in move.events)


def test_retried_action_id_is_applied_once():
    """The same action id sent twice (a resend after a dropped socket) plays one move."""
    game = new_game()
    for _ in range(3):
        outcome = services.submit(game_id=game.pk, seat=0, action={"type": "wait"}, action_id="same-id-1", version=0)
    assert outcome.replayed
    assert game.moves.count() == 1


def test_stale_view_is_refused_and_changes_nothing():
    """A double tap chosen on the old view is refused; state and log stay as they were."""
    game = new_game()
    services.submit(game_id=game.pk, seat=0, action={"type": "wait"}, action_id="tap-one-1", version=0)
    game.refresh_from_db()
    before = (game.state, game.version)
    with pytest.raises(Refused) as error:
        services.submit(game_id=game.pk, seat=0, action={"type": "wait"}, action_id="tap-two-2", version=0)
    assert error.value.code == "stale_view"
    game.refresh_from_db()
    assert (game.state, game.version) == before and game.moves.count() == 1


def test_other_seats_moves_do_not_make_my_view_stale():
    """Students at one table play at once: seat 1's move doesn't refuse seat 0's tap."""
    game = new_game()
    services.submit(game_id=game.pk, seat=1, action={"type": "wait"}, action_id="seat-one-1", version=0)
    services.submit(game_id=game.pk, seat=0, action={"type": "wait"}, action_id="seat-zero-1", version=0)
    assert game.moves.count() == 2


def test_illegal_action_refused_with_code_and_state_untouched():
    """An illegal move carries the engine's code and message and changes nothing."""
    game = new_game()
    with pytest.raises(Refused) as error:
        services.submit(
            game_id=game.pk, seat=0, action={"type": "withdraw", "amount": 2000}, action_id="illegal-1", version=0
        )
    assert error.value.code and error.value.message
    game.refresh_from_db()
    assert game.version == 0 and not game.moves.exists()


def test_malformed_action_refused():
    with pytest.raises(Refused) as error:
        services.submit(game_id=new_game().pk, seat=0, action=["drive"], action_id="bad-frame-1")
    assert error.value.code == "bad_frame"


def test_move_log_replays_to_the_stored_state():
    """Replaying the move log from setup reproduces the saved state exactly."""
    game = new_game(seats=3, bots={1: "cautious", 2: "random"})
    services.finish_with_bots(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    engine = ENGINES["evacuation"]
    state = engine.setup(game.seed, game.seats, game.options)
    for move in game.moves.order_by("seq"):
        engine.apply(state, move.seat, move.action)
    assert engine.dump(state) == game.state
    assert set(game.moves.values_list("actor", flat=True)) == {Move.Actor.BOT}


def test_bots_and_idle_timers_play_through_the_deadline_sweep():
    """A bot seat moves when its step is due; an idle human's turn is played by a stand-in."""
    game = new_game(bots={1: "cautious"}, turn_seconds=30)
    assert services.sweep_due(timezone.now()) == 0
    assert services.sweep_due(timezone.now() + timedelta(seconds=2)) == 1
    assert game.moves.get().actor == Move.Actor.BOT
    # The student's clock runs from their first turn: before it runs out, no bot plays.
    services.sweep_due(timezone.now() + timedelta(seconds=20))
    assert not game.moves.filter(seat=0).exists()
    services.submit(game_id=game.pk, seat=0, action={"type": "wait"})
    services.sweep_due(timezone.now() + timedelta(seconds=31))
    actors = list(game.moves.filter(seat=0).values_list("actor", flat=True))
    assert actors == [Move.Actor.STUDENT, Move.Actor.TIMER]


@pytest.mark.django_db(transaction=True)
def test_the_deadline_loop_sweeps_only_when_a_deadline_has_passed():
    """Each server process asks four times a second whether a bot or a timer is due, with one
    read on its event loop; it must say yes exactly when the sweep would play a move."""
    from asgiref.sync import async_to_sync

    from games import pgpool

    assert pgpool.available()  # on PostgreSQL the question is asked without the ORM
    game = new_game(bots={1: "cautious"}, turn_seconds=30)
    now = timezone.now()
    assert not async_to_sync(services.anything_due)(now)
    assert async_to_sync(services.anything_due)(now + timedelta(seconds=2))
    services.set_paused(game_id=game.pk, paused=True)
    assert not async_to_sync(services.anything_due)(now + timedelta(hours=1))
    assert services.sweep_due(now + timedelta(hours=1)) == 0
    services.set_paused(game_id=game.pk, paused=False)
    assert async_to_sync(services.anything_due)(timezone.now() + timedelta(seconds=2))
    assert services.sweep_due(timezone.now() + timedelta(seconds=2)) == 1


def test_paused_game_refuses_students_and_freezes_timers():
    """While paused nothing a student sends is applied and no deadline fires."""
    game = new_game(bots={1: "cautious"}, turn_seconds=30)
    services.set_paused(game_id=game.pk, paused=True)
    with pytest.raises(Refused, match="game_paused"):
        services.submit(game_id=game.pk, seat=0, action={"type": "wait"}, action_id="paused-1", version=0)
    assert services.sweep_due(timezone.now() + timedelta(hours=1)) == 0
    services.set_paused(game_id=game.pk, paused=False)
    services.submit(game_id=game.pk, seat=0, action={"type": "wait"}, action_id="resumed-1", version=0)


def test_end_now_scores_partially_and_finishes():
    game = new_game()
    services.end_now(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert len(services.results(game)) == 2
    with pytest.raises(Refused, match="game_finished"):
        services.submit(game_id=game.pk, seat=0, action={"type": "wait"}, action_id="after-end", version=1)


def test_a_move_sends_tablemates_only_the_others_part_unless_it_changed_their_own_view():
    """The mover gets its full view; a tablemate whose own view the move left alone gets only
    its view's new ``others`` part, with the version its view was built at; a seat the move did
    change (the teacher skipping it) gets a full view again."""
    from games import broadcast

    game = new_game(seats=3)
    step = advance(game, 0, {"type": "wait"}, "progress-1", Move.Actor.STUDENT)
    assert set(step.views) == {0} and set(step.others) == {1, 2}
    assert [built for _, built in step.others.values()] == [0, 0]
    group, message = broadcast.messages(broadcast.Snapshot.of(game), step.engine, step.state, step.views, step.others)[
        0
    ]
    assert message["views"]["1"].startswith('{"type":"others","game":%d,"seat":1,"version":1,"built":0' % game.pk)
    others = json.loads(message["views"]["1"])["others"]
    assert others == step.engine.view(step.state, 1)["others"]
    assert game.seat_marks["1"][2] == 0 and game.seat_marks["0"][2] == 1

    step = advance(game, None, {"type": "skip", "seat": 2}, "progress-2", Move.Actor.TEACHER)
    assert set(step.views) == {2} and set(step.others) == {0, 1}
    assert game.seat_marks["2"][2] == 2 and step.others[0][1] == 1
