"""The teacher's flow around the game: approving a class at once, names shown at once."""

import pytest
from django.urls import reverse

from classroom import services
from classroom.models import Session
from tests.factories import PASSWORD, join_students, make_session

pytestmark = pytest.mark.django_db


def test_approve_all_approves_every_waiting_nickname_in_one_tap(client):
    """Thirty students waiting: one command approves them all, and says how many on a repeat (none)."""
    session = make_session()
    join_students(session, 30)
    assert session.participants.filter(approved=False).count() == 30
    client.login(email=session.teacher.email, password=PASSWORD)
    answer = client.post(
        reverse("classroom:session_command", args=[session.pk, "approve-all"]), HTTP_ACCEPT="application/json"
    )
    assert answer.json()["ok"]
    assert not session.participants.filter(approved=False).exists()
    assert services.approve_all(session=session) == 0


def test_another_teacher_cannot_approve_a_class():
    """The command is the session's teacher's only: anyone else gets 404 and nothing changes."""
    from django.test import Client

    from tests.factories import make_teacher

    session = make_session()
    join_students(session, 3)
    other = make_teacher()
    client = Client()
    client.login(email=other.email, password=PASSWORD)
    assert client.post(reverse("classroom:session_command", args=[session.pk, "approve-all"])).status_code == 404
    assert session.participants.filter(approved=False).count() == 3


def test_names_shown_at_once_are_approved_on_joining_but_blocked_words_are_still_refused():
    """With "shown at once" a typed nickname is approved as it joins; a blocked one never joins."""
    session = make_session(names=Session.Names.AUTO)
    participant, _token = services.join(session=session, nickname="Rosa")
    assert participant.approved
    with pytest.raises(services.JoinError, match="different nickname"):
        services.join(session=session, nickname="xXshitXx")
    assert session.participants.count() == 1


def test_the_new_session_form_offers_names_shown_at_once(client):
    """The form lists the option, and a session made with it keeps it."""
    from tests.factories import make_teacher

    teacher = make_teacher()
    client.login(email=teacher.email, password=PASSWORD)
    page = client.get(reverse("classroom:session_new")).content.decode()
    assert "shown at once" in page


def _arrive_every_bot_household(table):
    """Play every bot seat of the table's evacuation game until its household is no longer on
    the road (arrived, stayed or out of time), leaving the students' households playing."""
    from games import services as games
    from games.models import Game
    from scenarios.evacuation import bots

    bot_seats = {seat.number for seat in table.seats.all() if seat.participant_id is None}
    for _ in range(3000):
        game = Game.objects.get(pk=table.game_id)
        engine = games.engine_for(game)
        state = engine.load(game.state)
        acting = [seat for seat in engine.to_act(state) if seat in bot_seats]
        if not acting:
            return
        games.submit(game_id=game.pk, seat=acting[0], action=bots.BOTS["cautious"](state, acting[0]), actor="bot")


def test_a_late_student_takes_a_bot_seat_still_in_play_never_a_finished_household():
    """Bot households that have arrived are not handed to a late arrival: approved, they wait
    for a seat, the dashboard says so, and the teacher's new table gives them a game of their own."""
    from classroom import selectors
    from tests.factories import started_session

    session, _devices = started_session(students=2)  # one table: two students, two bots
    table = session.tables.get()
    _arrive_every_bot_household(table)
    late, _token = services.join(session=session, nickname="Late")
    services.approve(participant=late)
    assert not late.seats.exists()
    alerts = selectors.dashboard(session)["alerts"]
    assert {"kind": "seatless", "who": "Late", "participant": late.pk} in alerts

    tables = services.open_late_tables(session=session)
    assert [t.number for t in tables] == [2]
    seat = late.seats.select_related("table__game").get()
    assert seat.table.number == 2 and seat.table.game.status == "playing"
    assert str(seat.number) not in seat.table.game.bots
    assert seat.table.seats.count() == session.seats_per_table  # bots fill the rest
    assert not any(a["kind"] == "seatless" for a in selectors.dashboard(session)["alerts"])
    assert services.open_late_tables(session=session) == []


def test_a_late_student_takes_over_a_bot_still_on_the_road():
    """While a bot's household is still playing, a late arrival takes it over at once."""
    from games.models import Game
    from tests.factories import started_session

    session, _devices = started_session(students=2, names=Session.Names.AUTO)
    late, _token = services.join(session=session, nickname="Late")
    seat = late.seats.select_related("table").get()
    game = Game.objects.get(pk=seat.table.game_id)
    assert str(seat.number) not in game.bots
    assert seat.number in services.games.engine_for(game).to_act(services.games.engine_for(game).load(game.state))


@pytest.mark.parametrize(
    "base, loopback",
    [
        ("http://localhost:8000", True),
        ("http://127.0.0.1:8000", True),
        ("http://[::1]:8000", True),
        ("http://192.168.1.20:8000", False),
        ("https://stormwise.school.example", False),
    ],
)
def test_the_lobby_says_when_tablets_cannot_follow_the_join_link(settings, base, loopback):
    """Join links on loopback are flagged with the one command that serves the class, and the
    tablet test page is linked at the same address as the join link."""
    from classroom import selectors

    settings.PUBLIC_BASE_URL = base
    data = selectors.dashboard(make_session())
    assert data["loopback"] is loopback
    assert data["serve_command"] == "HOST=0.0.0.0 make run"
    assert data["check_url"] == f"{base}/check" and data["join_url"].startswith(base)
