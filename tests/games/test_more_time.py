"""More time (WCAG 2.2.1): a student warned that a bot is about to play can push their turn
timer back; nobody can use it to hold the table up or to touch a seat that is not theirs."""

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from classroom.timers import device_more_time
from games import services, timers
from games.models import Game, Move
from tests.factories import started_session

pytestmark = pytest.mark.django_db


def new_game(turn_seconds=30, bots=None):
    """A game whose students have each made their first move, so their turn clocks run."""
    game = services.create_game(scenario="evacuation", seed=99, seats=2, bots=bots or {}, turn_seconds=turn_seconds)
    for seat in range(game.seats):
        if str(seat) not in game.bots:
            game = services.submit(game_id=game.pk, seat=seat, action={"type": "wait"}).game
    return game


def deadline(game, seat):
    game.refresh_from_db()
    return datetime.fromisoformat(game.timers[str(seat)])


def near_the_end(game, seat, seconds_left=5):
    """Move the seat's deadline to `seconds_left` from now, as time passing would."""
    game.refresh_from_db()
    game.timers = {**game.timers, str(seat): (timezone.now() + timedelta(seconds=seconds_left)).isoformat()}
    game.next_deadline = min(datetime.fromisoformat(t) for t in game.timers.values())
    game.save()


def test_more_time_in_the_warning_gives_a_fresh_turn_and_the_bot_waits():
    game = new_game()
    near_the_end(game, 0)
    assert timers.more_time(game_id=game.pk, seat=0)
    fresh = deadline(game, 0)
    assert fresh - timezone.now() > timedelta(seconds=timers.MIN_EXTRA_SECONDS - 2)
    # When the old deadline passes, no bot plays for the seat.
    services.sweep_due(timezone.now() + timedelta(seconds=10))
    assert not game.moves.filter(seat=0).exclude(actor=Move.Actor.STUDENT).exists()
    # When the new one passes, it does.
    services.sweep_due(fresh + timedelta(seconds=1))
    assert set(game.moves.filter(seat=0).exclude(actor=Move.Actor.STUDENT).values_list("actor", flat=True)) == {
        Move.Actor.TIMER
    }


def test_more_time_is_refused_before_the_warning_for_bots_and_when_paused():
    game = new_game(bots={1: "cautious"})
    before = deadline(game, 0)
    assert not timers.more_time(game_id=game.pk, seat=0)  # 30 s left: not yet warned
    assert deadline(game, 0) == before
    near_the_end(game, 1)
    assert not timers.more_time(game_id=game.pk, seat=1)  # a bot's step is not a person's turn
    near_the_end(game, 0)
    services.set_paused(game_id=game.pk, paused=True)
    assert not timers.more_time(game_id=game.pk, seat=0)
    assert not timers.more_time(game_id=game.pk + 1000, seat=0)


def test_asking_again_at_once_changes_nothing():
    """The fresh turn is longer than the warning, so a device cannot keep the table waiting by
    asking over and over: the second ask is refused until the new warning."""
    game = new_game(turn_seconds=15)
    near_the_end(game, 0)
    assert timers.more_time(game_id=game.pk, seat=0)
    fresh = deadline(game, 0)
    assert not timers.more_time(game_id=game.pk, seat=0)
    assert deadline(game, 0) == fresh


def test_a_device_asks_only_for_its_own_seat():
    session, devices = started_session(students=2, seats_per_table=2, fill_with_bots=False, turn_seconds=30)
    (ana, _), (ben, _) = devices
    ana_seat = ana.seats.select_related("table").get()
    game = Game.objects.get(pk=ana_seat.table.game_id)
    near_the_end(game, ana_seat.number)
    other = 1 - ana_seat.number
    near_the_end(game, other)
    before = deadline(game, other)
    assert device_more_time(ana.pk, other)["code"] == "not_your_seat"
    assert device_more_time(ana.pk, "0")["code"] == "bad_frame"
    assert deadline(game, other) == before
    assert device_more_time(ana.pk, ana_seat.number) == {"type": "ok"}
    assert device_more_time(ana.pk, ana_seat.number)["code"] == "no_more_time"


def test_more_time_takes_the_seat_check_of_a_tap():
    """The device's seat is checked as for a tap: a parked lesson says so, and a seat number
    beyond any table is a frame that cannot be read."""
    from classroom import services as classroom

    session, [(ana, _), _ben] = started_session(students=2, seats_per_table=2, fill_with_bots=False, turn_seconds=30)
    ana_seat = ana.seats.select_related("table").get()
    near_the_end(Game.objects.get(pk=ana_seat.table.game_id), ana_seat.number)
    assert device_more_time(ana.pk, 2**40)["code"] == "bad_frame"
    classroom.set_paused(session=session, paused=True, parked=True)
    assert device_more_time(ana.pk, ana_seat.number)["code"] == "session_parked"


def test_a_move_saved_while_more_time_is_worked_out_is_kept_and_the_ask_worked_out_again():
    """Nothing locks the game row: a timer change that raced a move is read again and applied
    on top of it, so neither the move nor the fresh turn is lost."""
    game = new_game()
    near_the_end(game, 0)
    tries = []

    def fresh_turn_while_seat_1_moves(row):
        tries.append(row.version)
        if len(tries) == 1:  # another device's move lands between this read and this save
            services.submit(game_id=game.pk, seat=1, action={"type": "wait"})
        row.timers = {**row.timers, "0": (timezone.now() + timedelta(minutes=5)).isoformat()}
        row.next_deadline = min(datetime.fromisoformat(t) for t in row.timers.values())

    saved = services.change_running(game.pk, fresh_turn_while_seat_1_moves, rescheduled=False)
    assert tries == [tries[0], tries[0] + 1]
    game.refresh_from_db()
    assert saved.version == game.version == tries[0] + 1
    assert game.moves.filter(seat=1).count() == 2
    assert deadline(game, 0) - timezone.now() > timedelta(minutes=4)
