"""A nickname is shown as the student typed it, whatever the reader's language: students named
after content words of their game ("Rover", "Genie", "Bank", "Dam") keep their names on English,
Spanish and Dutch tablets (socket and long-poll), on the teacher's dashboard (socket and HTTP)
and in their reports, while the game's own words are the board's."""

import json
import re

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.test import Client
from django.utils import translation

from classroom import services
from classroom.consumers import token_cookie
from classroom.models import Participant
from config.asgi import application
from scenarios import registry
from tests.factories import PASSWORD, make_session, make_teacher
from tests.sockets import WebsocketCommunicator

SCENARIOS = [s for s in registry.all() if "tests" not in s.package]
LANGUAGES = ("en", "es", "nl")


def namesake_words(scenario, count=4):
    """Content words of ``scenario`` that a student could type as a nickname and that Spanish or
    Dutch translates to something else (plain names fill the table when there are fewer)."""
    found = []
    for language in ("es", "nl"):
        path = scenario.folder / "content" / "translations" / f"{language}.json"
        for english, translated in json.loads(path.read_text(encoding="utf-8")).items():
            if (
                english != translated
                and re.fullmatch(r"[A-Za-z][A-Za-z .']{0,15}", english)
                and english.lower() not in {w.lower() for w in found}
            ):
                found.append(english)
    return (found + ["Ana", "Ben", "Cas", "Dee"])[:count]


def translations_of(scenario, names):
    """What Spanish and Dutch call each of ``names`` as a content word: none may appear."""
    out = set()
    for language in ("es", "nl"):
        table = registry.content_translations(scenario.key, language)
        out |= {table[name] for name in names if table.get(name, name) != name}
    return out


def test_most_games_have_words_a_student_could_be_named():
    assert sum(namesake_words(s)[0] != "Ana" for s in SCENARIOS) >= 4


async def socket_frames(path, cookies, count):
    """The first ``count`` frames a socket at ``path`` is sent, as the text it was sent."""
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookies.encode())]
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect(timeout=10)
    assert connected
    try:
        return [await socket.receive_from(timeout=10) for _ in range(count)]
    finally:
        await socket.disconnect()


def assert_named_as_typed(text, names, wrong, where):
    """Each of ``names`` is in ``text`` (a frame or an answer, as sent) as it was typed, and
    none of them as the content word's translation."""
    for name in names:
        assert f'"{name}"' in text, (where, name)
    for word in wrong:
        assert f'"{word}"' not in text, (where, word)


def tablemates(lobby):
    return [lobby["nickname"]] + [m["name"] for m in lobby["mates"] if m["name"]]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("key", [s.key for s in SCENARIOS])
def test_students_named_after_content_words_keep_their_names_everywhere(key):
    scenario = registry.get(key)
    names = namesake_words(scenario)
    wrong = translations_of(scenario, names)
    teacher = make_teacher()
    session = make_session(scenario=key, teacher=teacher)
    tokens = {}
    for name, language in zip(names, LANGUAGES * 2):
        participant, tokens[name] = services.join(session=session, nickname=name, language=language)
    services.approve_all(session=session)
    services.start(session=session)
    session.refresh_from_db()

    for name, participant in ((p.nickname, p) for p in Participant.objects.filter(session=session)):
        cookies = f"{token_cookie(session.pk)}={tokens[name]}"
        # the socket: a lobby frame and one view per seat, in the tablet's language
        lobby_cookie = f"{cookies}; {settings.LANGUAGE_COOKIE_NAME}={participant.language}"
        frames = async_to_sync(socket_frames)(f"/ws/play/{session.pk}/", lobby_cookie, 2)
        lobby = json.loads(frames[0])
        assert lobby["nickname"] == name and len(tablemates(lobby)) > 1
        assert_named_as_typed(frames[0], tablemates(lobby), wrong, ("socket", participant.language))
        assert_named_as_typed(frames[1], [], wrong, ("socket view", participant.language))
        # the long-poll a tablet falls back on when WebSockets are blocked
        tablet = Client(HTTP_ACCEPT_LANGUAGE=participant.language)
        tablet.cookies[token_cookie(session.pk)] = tokens[name]
        tablet.cookies[settings.LANGUAGE_COOKIE_NAME] = participant.language
        polled = tablet.get(f"/play/{session.pk}/poll").content.decode()
        assert tablemates(json.loads(polled)["lobby"]) == tablemates(lobby)
        assert_named_as_typed(polled, tablemates(lobby), wrong, ("poll", participant.language))

    for language in LANGUAGES:
        desk = Client(HTTP_ACCEPT_LANGUAGE=language)
        assert desk.login(username=teacher.email, password=PASSWORD)
        board = desk.get(f"/sessions/{session.pk}/dashboard.json").content.decode()
        assert sorted(p["name"] for p in json.loads(board)["participants"]) == sorted(names)
        assert_named_as_typed(board, names, wrong, ("dashboard", language))
        cookie = f"{settings.SESSION_COOKIE_NAME}={desk.cookies[settings.SESSION_COOKIE_NAME].value}"
        frames = async_to_sync(socket_frames)(f"/ws/sessions/{session.pk}/", cookie, 1)
        assert_named_as_typed(frames[0], names, wrong, ("dashboard socket", language))

    services.finish_with_bots(session=session)
    services.end(session=session)
    from scoring import reports

    seat = session.tables.get(number=1).seats.exclude(participant=None).select_related("participant").first()
    for language in LANGUAGES:
        with translation.override(language):
            html, _data = reports.seat_report(session, seat)
        assert seat.participant.nickname in html, language
