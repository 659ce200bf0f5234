"""A student who comes late joins the running game: approved (or joining where names need no
approval), they take over a seat a bot keeps, at its next turn; the teacher sees the waiting
name at once and may pick the seat."""

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom import selectors, services
from classroom.models import Seat, Session
from games import services as games
from games.models import Game, Move
from tests.factories import PASSWORD, started_session

pytestmark = pytest.mark.django_db

LATER = timezone.now() + timezone.timedelta(days=1)  # every deadline of these games has passed by then


def _tap(seat, version, action_id, action):
    return {"type": "act", "id": action_id, "seat": seat, "version": version, "action": action}


def _bots_play_for(session, seconds):
    """What the deadline loop plays in ``seconds`` of a lesson: each bot seat as many steps as
    its game's pace allows (one step per pass; the students have not moved, so no turn timer
    runs)."""
    for table in session.tables.all():
        game = Game.objects.get(pk=table.game_id)
        for _ in range(int(seconds / game.bot_step_seconds)):
            if not games.play_due(Game.objects.get(pk=game.pk), LATER):
                break


def _policy_action(game, seat):
    state = games.engine_for(game).load(game.state)
    return games._bot(game.scenario, games.policy_bot(game.scenario))(state, seat)


def test_a_student_approved_forty_seconds_after_the_start_plays_a_seat_a_bot_kept(settings):
    """At the pace bots play in class, a late student still finds a bot's household on the road:
    approved, they hold its seat in the running game and their tap is played for it."""
    settings.BOT_STEP_SECONDS, settings.KEEPER_STEP_SECONDS = 1.0, 12.0  # the class's paces
    session, _devices = started_session(students=2)  # one table: two students, two bots
    _bots_play_for(session, 40)
    assert Move.objects.filter(actor=Move.Actor.BOT).exists()  # the bots have moved

    late, _token = services.join(session=session, nickname="Late")
    assert not late.seats.exists()  # a name waits for the teacher first
    services.approve(participant=late)

    seat = late.seats.select_related("table").get()
    assert seat.table.game_id == session.tables.get().game_id  # the running game, not a new table
    game = Game.objects.get(pk=seat.table.game_id)
    assert str(seat.number) not in game.bots and game.status == Game.Status.PLAYING
    answer, _batch = services.act(
        late.pk, _tap(seat.number, game.version, "late-first-tap", _policy_action(game, seat.number))
    )
    assert answer["type"] == "ok", answer
    assert Move.objects.get(game=game, action_id__endswith="late-first-tap").actor == Move.Actor.STUDENT


def _to_a_bots_turn_half_played(game_id, bot_seat):
    """Play the resort game (students' seats by the policy, as students) until ``bot_seat``'s
    bot has made one move of a turn of several and the turn is still its own."""
    for _ in range(2000):
        game = Game.objects.get(pk=game_id)
        engine = games.engine_for(game)
        state = engine.load(game.state)
        seat = engine.to_act(state)[0]
        turn = engine.turn(state, seat)
        actor = Move.Actor.BOT if str(seat) in game.bots else Move.Actor.STUDENT
        game = games.submit(
            game_id=game_id, seat=seat, action=_policy_action(game, seat), version=game.version, actor=actor
        ).game
        after = engine.load(game.state)
        if seat == bot_seat and seat in engine.to_act(after) and engine.turn(after, seat) == turn:
            return turn
    raise AssertionError("the bot never stopped half-way through a turn")


def test_a_late_student_takes_over_at_the_seats_next_turn_and_the_bot_acts_for_it_no_more():
    """In a game of turns, a bot half-way through its turn ends it before the student takes the
    seat; from then on the deadline loop never plays that seat as a bot again."""
    session, _devices = started_session(students=2, scenario="resort", names=Session.Names.AUTO)
    table = session.tables.get()
    kept = min(int(seat) for seat in Game.objects.get(pk=table.game_id).bots)  # all kept since the start
    half_played = _to_a_bots_turn_half_played(table.game_id, kept)

    late, _token = services.join(session=session, nickname="Late")  # names need no approval here
    seat = late.seats.get()
    assert seat.number == kept
    game = Game.objects.get(pk=table.game_id)
    engine = games.engine_for(game)
    state = engine.load(game.state)
    assert str(seat.number) not in game.bots
    assert not (seat.number in engine.to_act(state) and engine.turn(state, seat.number) == half_played)

    taken_at = game.version
    for _ in range(30):
        games.play_due(Game.objects.get(pk=table.game_id), timezone.now())
    assert not Move.objects.filter(game_id=table.game_id, seq__gt=taken_at, seat=seat.number, actor=Move.Actor.BOT)


def test_the_dashboard_shows_a_late_name_waiting_and_the_seat_a_bot_kept_longest_first():
    """A name waiting during play is in the dashboard's data for the panel at its top (not only
    in the folded class list), with the seats bots keep, the one kept longest first: a seat a
    bot took over from a student who left later comes after those kept since the start."""
    session, devices = started_session(students=2)
    leaver = devices[0][0]
    left_seat = leaver.seats.get()
    services.remove(participant=leaver)
    late, _token = services.join(session=session, nickname="Late")

    data = selectors.dashboard(session)
    entry = next(p for p in data["participants"] if p["name"] == "Late")
    assert (entry["approved"], entry["late"], entry["seated"]) == (False, True, False)
    kept = [s["id"] for s in data["kept_seats"]]
    assert kept[-1] == left_seat.pk and len(kept) == 3
    assert not [a for a in data["alerts"] if a["kind"] == "seatless"]  # waiting for approval, not for a seat

    services.approve(participant=late)
    assert late.seats.get().pk == kept[0]


def test_the_teacher_picks_another_seat_a_bot_keeps(client):
    """From the dashboard the teacher approves a late student into the seat they pick, and can
    move them to another kept seat: the seat they leave goes back to its bot. A seat no bot
    keeps is refused with a sentence, and nothing changes."""
    session, devices = started_session(students=2)
    late, _token = services.join(session=session, nickname="Late")
    first, second = services.kept_seats(session)
    client.login(email=session.teacher.email, password=PASSWORD)

    def command(name, **params):
        url = reverse("classroom:session_command", args=[session.pk, name])
        return client.post(url, params, HTTP_ACCEPT="application/json")

    assert command("approve", participant=late.pk, seat=second.pk).json()["ok"]
    assert late.seats.get().pk == second.pk

    students_seat = devices[1][0].seats.get()
    refused = command("late-seat", participant=late.pk, seat=students_seat.pk)
    assert refused.status_code == 400 and "No bot keeps that seat" in refused.json()["message"]
    assert late.seats.get().pk == second.pk and devices[1][0].seats.get().pk == students_seat.pk

    assert command("late-seat", participant=late.pk, seat=first.pk).json()["ok"]
    assert late.seats.get().pk == first.pk
    game = Game.objects.get(pk=first.table.game_id)
    assert str(first.number) not in game.bots and str(second.number) in game.bots
    assert Seat.objects.get(pk=second.pk).participant_id is None
    assert [s.pk for s in services.kept_seats(session)] == [second.pk]
