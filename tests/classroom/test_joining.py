import pytest

from classroom import services
from classroom.models import Session
from tests.factories import join_students, make_session

pytestmark = pytest.mark.django_db


def test_codes_fold_case_spaces_dashes_and_lookalikes():
    """Students may type a code in any case, with spaces or a dash, O for 0 and I or L for 1."""
    assert services.normalize_code(" k7m-q2p ") == "K7MQ2P"
    assert services.normalize_code("o1i-L00") == "011100"
    assert all(ch in services.CODE_ALPHABET for ch in services.new_join_code())
    assert len(services.CODE_ALPHABET) ** services.CODE_LENGTH >= 2**30


def test_a_typed_code_opens_its_session():
    """The code as printed (with its dash, in lower case) opens the session."""
    session = make_session()
    typed = services.format_code(session.join_code).lower().replace("0", "o").replace("1", "l")
    assert services.open_session_for_code(typed) == session


@pytest.mark.parametrize("typed, code", [("", "bad_code"), ("ABC", "bad_code"), ("ZZZZZZ", "wrong_code")])
def test_wrong_codes_get_clear_messages(typed, code):
    """A short or unknown code says what is wrong."""
    make_session()
    with pytest.raises(services.JoinError) as error:
        services.open_session_for_code(typed)
    assert error.value.code == code and error.value.message


def test_an_ended_sessions_code_stops_working():
    """After the lesson ends its code is refused with a message saying so, and nobody joins."""
    session = make_session()
    services.end(session=session)
    with pytest.raises(services.JoinError, match="ended"):
        services.open_session_for_code(session.join_code)
    with pytest.raises(services.JoinError):
        services.join(session=session, nickname="Late")
    assert not session.participants.exists()


@pytest.mark.parametrize(
    "nickname, fragment",
    [
        ("", "Type a nickname"),
        ("A" * 17, "too long"),
        ("xXshitXx", "different nickname"),
        ("MiErDa", "different nickname"),
        ("!!!", "letters or numbers"),
    ],
)
def test_bad_nicknames_refused(nickname, fragment):
    """Empty, overlong, blocked (in several languages) or symbol-only nicknames are refused."""
    session = make_session()
    with pytest.raises(services.JoinError, match=fragment):
        services.join(session=session, nickname=nickname)
    assert not session.participants.exists()


def test_duplicate_nickname_refused_ignoring_case_and_accents():
    """Names are unique per session: “José” blocks “jose”."""
    session = make_session()
    services.join(session=session, nickname="José")
    with pytest.raises(services.JoinError, match="already uses"):
        services.join(session=session, nickname="jose")
    assert session.participants.count() == 1


def test_generated_names_are_unique_and_approved():
    """With generated names, students get adjective + animal names shown at once."""
    session = make_session(names=Session.Names.GENERATED)
    names = [p.nickname for p, _ in join_students(session, 30)]
    assert len(set(names)) == 30
    assert all(len(name.split()) == 2 for name in names[:20])
    assert session.participants.filter(approved=True).count() == 30


def test_generated_names_are_in_the_tablets_language():
    """A Spanish tablet is given a Spanish name whose adjective agrees with its animal, a Dutch
    one a Dutch name; a class of mixed languages still never shares a name."""
    from django.utils import translation

    from classroom import nicknames

    session = make_session(names=Session.Names.GENERATED)
    names = {}
    for _i, language in enumerate(["es", "nl", "en"] * 10):
        with translation.override(language):
            participant, _token = services.join(session=session)
        names.setdefault(language, []).append(participant.nickname)
    spanish_animals = {animal for animal, _feminine in nicknames.ANIMALS_ES}
    assert all(name.split()[0] in spanish_animals for name in names["es"])
    assert all(name.split()[-1] in set(nicknames.ANIMALS_NL) for name in names["nl"][:6])
    assert all(name.split()[-1] in set(nicknames.ANIMALS) for name in names["en"][:6])
    feminine = {animal for animal, is_feminine in nicknames.ANIMALS_ES if is_feminine}
    for name in names["es"]:
        animal, adjective = name.split()[:2]
        forms = next(pair for pair in nicknames.ADJECTIVES_ES if adjective in pair)
        assert adjective == forms[animal in feminine], name
    everyone = [n for group in names.values() for n in group]
    assert len(set(everyone)) == 30


@pytest.mark.parametrize(
    "students, seats, sizes",
    [
        (29, 4, [4, 4, 4, 4, 4, 3, 3, 3]),
        (5, 4, [3, 2]),
        (1, 4, [1]),
        (3, 2, [3]),
        (8, 4, [4, 4]),
        (30, 6, [6, 6, 6, 6, 6]),
        (7, 3, [3, 2, 2]),
    ],
)
def test_tables_are_balanced(students, seats, sizes):
    """Tables differ by at most one and never seat a lone human when two could sit together."""
    assert services.table_sizes(students, seats) == sizes


def test_lobby_tables_rebalance_as_students_join():
    """29 students at 4 a table sit as 5 tables of 4 and 3 of 3, everyone seated once."""
    session = make_session()
    join_students(session, 29)
    sizes = sorted((t.seats.count() for t in session.tables.all()), reverse=True)
    assert sizes == [4, 4, 4, 4, 4, 3, 3, 3]
    assert session.participants.filter(seats__isnull=True).count() == 0


def test_teacher_moves_a_student_and_later_arrivals_keep_it():
    """After the teacher moves a student, a new arrival doesn't reshuffle the tables."""
    session = make_session()
    devices = join_students(session, 6)
    mover = devices[0][0]
    services.move_participant(participant=mover, table_number=2)
    services.join(session=session, nickname="Late")
    assert mover.seats.get().table.number == 2


def test_late_student_takes_a_bot_seat():
    """A student arriving after the start takes a bot's seat once the teacher approves the name."""
    session = make_session()
    join_students(session, 2)
    services.start(session=session)
    late, _token = services.join(session=session, nickname="Late")
    assert not late.seats.exists()
    services.approve(participant=late)
    seat = late.seats.get()
    game = seat.table.game
    game.refresh_from_db()
    assert str(seat.number) not in game.bots
    assert len(game.bots) == 1


def test_a_class_on_one_address_gets_in_while_a_guesser_is_stopped(client, settings):
    """35 tablets share the school's address, some mistype once; all join. A device that keeps
    guessing is stopped with a clear message, even with the right code."""
    from django.core.cache import cache
    from django.test import Client

    cache.clear()
    # here the 35 arrive at once; the pace a class joins at is test_join_pace.py's subject
    settings.JOIN_PACE = {**settings.JOIN_PACE, "address": (200, 1.0)}
    session = make_session()
    code = services.format_code(session.join_code)
    for number in range(35):
        tablet = Client(REMOTE_ADDR="10.1.2.3")
        if number % 4 == 0:
            typo = tablet.post("/join", {"code": "ZZZ-ZZZ", "nickname": f"Kid{number}", "players": 1})
            assert "No lesson has that code" in typo.content.decode()
        joined = tablet.post("/join", {"code": code.lower(), "nickname": f"Kid{number}", "players": 1})
        assert joined.status_code == 302, joined.content.decode()[:500]
    assert session.participants.count() == 35

    guesser = Client(REMOTE_ADDR="10.1.2.3")
    for attempt in range(settings.JOIN_GUESSES["device"]):
        guesser.post("/join", {"code": f"ZZZ-ZZ{attempt % 9 + 2}", "nickname": "Guess", "players": 1})
    stopped = guesser.post("/join", {"code": code, "nickname": "Guess", "players": 1})
    assert stopped.status_code == 200
    assert "Too many wrong codes from this tablet" in stopped.content.decode()
    assert not session.participants.filter(nickname="Guess").exists()


def test_a_seat_moves_to_a_new_tablet_only_with_the_teachers_approval():
    """A student on a new tablet asks for their seat; it moves when the teacher approves, and the
    old tablet's token stops working. Typing someone's name alone gives no seat."""
    from django.test import Client

    session = make_session()
    (ana, old_token), _ = join_students(session, 2, prefix="Ana")
    services.start(session=session)
    new_tablet = Client()
    answer = new_tablet.post("/join", {"code": session.join_code, "nickname": "ana0", "players": 1})
    assert "move my seat to this tablet" in answer.content.decode()
    moved = new_tablet.post("/join", {"code": session.join_code, "nickname": "Ana0", "players": 1, "move": "1"})
    assert moved.status_code == 302
    waiting = new_tablet.get(moved["Location"])
    assert "Your teacher will approve moving your seat" in waiting.content.decode()
    assert services.participant_for_token(session, old_token) == ana

    from datetime import timedelta

    from django.utils import timezone

    from classroom.models import Participant

    # her old tablet broke: not heard from since it joined, a minute ago
    Participant.objects.filter(pk=ana.pk).update(last_seen_at=timezone.now() - timedelta(minutes=1))
    ana.refresh_from_db()
    services.approve_device_move(participant=ana)
    assert services.participant_for_token(session, old_token) is None
    assert new_tablet.get(moved["Location"]).status_code == 200
    assert "Loading your game" in new_tablet.get(moved["Location"]).content.decode()


def test_sessions_past_retention_are_deleted_with_nicknames_and_moves(settings):
    """After RETENTION_DAYS a session's nicknames, games and move log are gone; newer ones stay."""
    from datetime import timedelta

    from django.utils import timezone

    from classroom.models import Participant
    from games import services as games
    from games.models import Game, Move

    old = make_session()
    join_students(old, 2)
    services.start(session=old)
    games.finish_with_bots(game_id=old.tables.first().game_id)
    Session.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=settings.RETENTION_DAYS + 1))
    recent = make_session()
    join_students(recent, 1, prefix="Recent")
    assert Move.objects.exists()

    assert services.purge_expired() == 1
    assert not Session.objects.filter(pk=old.pk).exists()
    assert not Game.objects.exists() and not Move.objects.exists()
    assert list(Participant.objects.values_list("nickname", flat=True)) == ["Recent0"]
