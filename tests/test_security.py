"""Security checks as tests: each fails if its protection is removed.

Content security policy, deleting a session with everything in it, ownership of every teacher
URL, WebSocket origins, device tokens bound to one participant of one session, production
cookies, and no student data beyond a nickname.
"""

import asyncio
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from classroom import ratelimit
from classroom.consumers import ACT_BURST, MAX_ACTS_PER_SECOND, act_limit, frame_limit, token_cookie
from classroom.models import Session
from tests.factories import make_teacher, started_session

ROOT = Path(__file__).resolve().parent.parent


# --- Content security policy ------------------------------------------------------------------------


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {words[0]: words[1:] for words in (part.split() for part in header.split(";")) if words}


class _Scripts(HTMLParser):
    """Collects inline scripts and inline event-handler attributes of a page."""

    def __init__(self):
        super().__init__()
        self.inline, self.handlers, self._open = [], [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.handlers += [f"<{tag} {name}=…>" for name in attrs if name.startswith("on")]
        if tag == "script" and "src" not in attrs and attrs.get("type") != "application/json":
            self._open = ""

    def handle_data(self, data):
        if self._open is not None:
            self._open += data

    def handle_endtag(self, tag):
        if tag == "script" and self._open is not None:
            self.inline.append(self._open.strip()[:80])
            self._open = None


def inline_code(html: str) -> list[str]:
    parser = _Scripts()
    parser.feed(html)
    return parser.inline + parser.handlers


@pytest.fixture
def lesson(db):
    """A started session with two students; a client for its teacher and one for a tablet."""
    session, devices = started_session(students=2)
    teacher = Client()
    teacher.force_login(session.teacher)
    tablet = Client()
    tablet.cookies[token_cookie(session.pk)] = devices[0][1]
    return session, devices, teacher, tablet


def test_every_page_has_a_policy_that_allows_only_our_own_scripts(lesson):
    """The play page, the teacher's pages, /check, /join and sign-in carry a policy with scripts
    from our own origin only, no plugins, no framing, and the page's own socket allowed."""
    session, _devices, teacher, tablet = lesson
    pages = [
        (tablet, reverse("classroom:play", args=[session.pk])),
        (teacher, reverse("classroom:home")),
        (teacher, reverse("classroom:session", args=[session.pk])),
        (teacher, reverse("classroom:session_new")),
        (teacher, reverse("classroom:session_screen", args=[session.pk])),
        (teacher, reverse("classroom:session_delete", args=[session.pk])),
        (teacher, reverse("scoring:session_reports", args=[session.pk])),
        (teacher, reverse("scoring:session_debrief", args=[session.pk])),
        (Client(), reverse("classroom:check")),
        (Client(), reverse("classroom:join")),
        (Client(), reverse("login")),
    ]
    for client, path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        directives = policy(response)
        assert directives["default-src"] == ["'self'"], path
        assert directives["script-src"] == ["'self'"], path
        assert directives["object-src"] == ["'none'"] and directives["frame-ancestors"] == ["'none'"], path
        assert directives["base-uri"] == ["'self'"] and directives["form-action"] == ["'self'"], path
        assert directives["connect-src"] == ["'self'", "ws://testserver"], path
        assert inline_code(response.content.decode()) == [], path


def test_a_page_served_over_https_allows_its_secure_socket(lesson):
    """Behind TLS the policy names wss:// for this host (older Safari does not match 'self')."""
    session, _devices, _teacher, tablet = lesson
    response = tablet.get(reverse("classroom:play", args=[session.pk]), secure=True)
    assert policy(response)["connect-src"] == ["'self'", "wss://testserver"]


def test_no_template_has_inline_scripts_or_event_handler_attributes():
    """Scripts live in static/js/; data reaches them through json_script or data- attributes."""
    found = []
    for template in sorted((ROOT / "templates").rglob("*.html")):
        text = template.read_text(encoding="utf-8")
        for match in re.finditer(r"<script\b[^>]*>", text):
            if "src=" not in match.group(0):
                found.append(f"{template.relative_to(ROOT)}: {match.group(0)}")
        for match in re.finditer(r"<[a-zA-Z][^>]*?\son[a-z]+\s*=", text):
            found.append(f"{template.relative_to(ROOT)}: {match.group(0)[:60]}")
    assert found == [], "inline code is blocked by the content security policy:\n" + "\n".join(found)


# --- Deleting a session -------------------------------------------------------------------------------


def _played_with_reports(session):
    """Every table finished by bots, and written reports (page and PDF) for each seat and the class."""
    from games import services as games
    from scoring import services as scoring
    from scoring.models import DebriefSettings, Report

    for table in session.tables.all():
        games.finish_with_bots(game_id=table.game_id)
    DebriefSettings.of(session)
    for report in scoring.plan_reports(session):
        Report.objects.filter(pk=report.pk).update(
            status=Report.Status.DONE, html="<p>report</p>", pdf=b"%PDF-1.7 report"
        )


def what_is_left(session_id, game_ids):
    from classroom.models import Participant, Seat, Session, Table
    from games.models import Game, Move
    from scoring.models import DebriefSettings, Report

    return {
        "session": Session.objects.filter(pk=session_id).count(),
        "participants": Participant.objects.filter(session_id=session_id).count(),
        "tables": Table.objects.filter(session_id=session_id).count(),
        "seats": Seat.objects.filter(table__session_id=session_id).count(),
        "games": Game.objects.filter(pk__in=game_ids).count(),
        "moves": Move.objects.filter(game_id__in=game_ids).count(),
        "reports": Report.objects.filter(session_id=session_id).count(),
        "debrief settings": DebriefSettings.objects.filter(session_id=session_id).count(),
    }


def test_a_teacher_deletes_a_session_with_everything_in_it(lesson):
    """The confirmation page warns that it cannot be undone and deletes nothing; the POST deletes
    nicknames, tables, seats, games, move logs, reports and their PDFs, and says so on the home
    page. The teacher's other sessions and the students' report links are gone or untouched."""
    from scoring import services as scoring
    from tests.factories import make_session

    session, devices, teacher, _tablet = lesson
    _played_with_reports(session)
    other_session = make_session(teacher=session.teacher, title="Period 5")
    game_ids = list(session.tables.values_list("game_id", flat=True))
    report_link = scoring.student_report_url(devices[0][0]).removeprefix(scoring.settings.PUBLIC_BASE_URL)
    full = what_is_left(session.pk, game_ids)
    assert all(full.values()), full
    assert Client().get(report_link).status_code == 200

    page = teacher.get(reverse("classroom:session", args=[session.pk])).content.decode()
    assert reverse("classroom:session_delete", args=[session.pk]) in page
    confirm = teacher.get(reverse("classroom:session_delete", args=[session.pk]))
    assert confirm.status_code == 200
    assert "This cannot be undone." in confirm.content.decode()
    assert "2 students' nicknames" in confirm.content.decode()
    assert what_is_left(session.pk, game_ids) == full

    answer = teacher.post(reverse("classroom:session_delete", args=[session.pk]), follow=True)
    assert answer.redirect_chain == [(reverse("classroom:home"), 302)]
    assert "was deleted with its students&#x27; nicknames, games, moves and reports" in answer.content.decode()
    assert what_is_left(session.pk, game_ids) == dict.fromkeys(full, 0)
    assert Client().get(report_link).status_code == 410
    assert list(session.teacher.sessions.all()) == [other_session]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("deleted", ["session", "teacher"])
def test_a_session_deleted_while_a_bot_is_storing_a_move_is_deleted_whole(deleted):
    """The teacher presses delete (or an administrator deletes the teacher's account) while a
    bot's move is being stored: the delete waits for the move and deletes it with the rest,
    instead of failing on the move's reference to its game."""
    import threading
    import time

    from django.db import connection, connections, transaction

    from classroom import services
    from games import services as games
    from games.models import Game, Move

    session, _devices = started_session(students=1)
    table = session.tables.get()
    stored, go_on, failures = threading.Event(), threading.Event(), []

    def bot_move():
        try:
            with transaction.atomic():  # the move stays uncommitted until the delete waits for it
                game = Game.objects.get(pk=table.game_id)
                engine = games.engine_for(game)
                seat = next(s for s in engine.to_act(engine.load(game.state)) if s != 0)
                games.submit(game_id=game.pk, seat=seat, action={"type": "wait"}, actor="bot")
                stored.set()
                go_on.wait(10)
        finally:
            connections.close_all()

    def delete():
        try:
            if deleted == "session":
                services.delete_session(session=session)
            else:
                session.teacher.delete()
        except Exception as error:  # noqa: BLE001 - the test reports it
            failures.append(error)
        finally:
            connections.close_all()

    mover = threading.Thread(target=bot_move)
    mover.start()
    assert stored.wait(10)
    deleter = threading.Thread(target=delete)
    deleter.start()
    deadline = time.monotonic() + 10
    with connection.cursor() as cursor:  # until the delete waits on the move's lock
        while True:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0] or not deleter.is_alive():
                break
            assert time.monotonic() < deadline, "the delete never waited for the move"
            time.sleep(0.02)
    go_on.set()
    mover.join(10)
    deleter.join(10)
    assert failures == []
    assert not Game.objects.filter(pk=table.game_id).exists()
    assert not Move.objects.filter(game_id=table.game_id).exists()


def test_the_retention_purge_deletes_through_the_same_service(db, settings, monkeypatch):
    """Retention and the delete button share ``delete_session``, so they delete the same things."""
    from datetime import timedelta

    from django.utils import timezone

    from classroom import services
    from classroom.models import Session
    from tests.factories import make_session

    old, recent = make_session(), make_session()
    Session.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=settings.RETENTION_DAYS + 1))
    deleted = []
    real = services.delete_session
    monkeypatch.setattr(
        services, "delete_session", lambda *, session: deleted.append(session.pk) or real(session=session)
    )
    assert services.purge_expired() == 1
    assert deleted == [old.pk]
    assert list(Session.objects.values_list("pk", flat=True)) == [recent.pk]


def communicator(path, cookie="", origin="http://testserver", app=None, host="testserver"):
    from tests.sockets import WebsocketCommunicator

    if app is None:
        # imported only here: the origin check reads ALLOWED_HOSTS once, as config.asgi is first
        # imported, so a test that changed them and built its own ``app`` must not import it
        from config.asgi import application as app

    headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin is not None else [])
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    return WebsocketCommunicator(app, path, headers=headers)


async def open_tablet(session_id, token, **kwargs):
    """A student socket that opened and got its lobby state; fails the test otherwise."""
    socket = communicator(f"/ws/play/{session_id}/", f"{token_cookie(session_id)}={token}", **kwargs)
    connected, code = await socket.connect()
    assert connected, code
    assert (await socket.receive_json_from(timeout=5))["type"] == "lobby"
    return socket


async def closed_with(socket, timeout=5):
    """The close code the server sends next, skipping the views that arrive before it."""
    while True:
        message = await socket.receive_output(timeout=timeout)
        if message["type"] == "websocket.close":
            return message["code"]


@pytest.mark.django_db(transaction=True)
def test_open_tablets_are_sent_away_when_their_session_is_deleted():
    """A tablet playing when the teacher deletes the session has its socket closed at once."""
    from asgiref.sync import async_to_sync
    from channels.db import database_sync_to_async

    from classroom import services
    from classroom.consumers import CLOSE_UNAUTHORISED

    session, devices = started_session(students=2)

    async def run():
        socket = await open_tablet(session.pk, devices[0][1])
        await database_sync_to_async(services.delete_session)(session=session)
        assert await closed_with(socket) == CLOSE_UNAUTHORISED

    async_to_sync(run)()


@pytest.mark.django_db(transaction=True)
def test_an_open_dashboard_closes_when_its_session_is_deleted():
    """A projector or dashboard tab left open on a deleted session is closed as not found,
    instead of retrying a session that is gone every second."""
    from asgiref.sync import async_to_sync
    from channels.db import database_sync_to_async

    from classroom import services
    from classroom.consumers import CLOSE_NOT_FOUND

    session, _devices = started_session(students=2)
    teacher = Client()
    teacher.force_login(session.teacher)

    async def run():
        socket = communicator(f"/ws/sessions/{session.pk}/", f"sessionid={teacher.cookies['sessionid'].value}")
        connected, _code = await socket.connect()
        assert connected
        first = await socket.receive_json_from(timeout=5)
        assert first["type"] == "dashboard"
        await database_sync_to_async(services.delete_session)(session=session)
        assert await closed_with(socket, timeout=5) == CLOSE_NOT_FOUND

    async_to_sync(run)()


# --- Every teacher URL belongs to its teacher -----------------------------------------------------------

# Every named URL of the classroom, scoring and lessons apps, with who may open it. A new URL fails
# test_every_url_is_classified until it is added here; a teacher URL is then walked below.
TEACHER_URLS = {  # name: methods the walk uses (a POST-only view answers a GET with 405)
    "classroom:home": ["GET"],
    "classroom:session_new": ["GET", "POST"],
    "classroom:session": ["GET"],
    "classroom:session_dashboard_json": ["GET"],
    "classroom:session_screen": ["GET"],
    "classroom:session_qr": ["GET"],
    "classroom:session_command": ["POST"],
    "classroom:session_delete": ["GET", "POST"],
    "scoring:session_debrief": ["GET"],
    "scoring:session_reports": ["GET"],
    "scoring:session_status": ["GET"],
    "scoring:session_settings": ["POST"],
    "scoring:session_rebuild": ["POST"],
    "scoring:export_csv": ["GET"],
    "scoring:export_json": ["GET"],
    "scoring:report": ["GET"],
    "scoring:report_pdf": ["GET"],
    "scoring:class_pdf": ["GET"],
    "scoring:report_retry": ["POST"],
    "lessons:guide": ["GET"],
    "lessons:guide_pdf": ["GET"],
    "lessons:printables_pdf": ["GET"],
    "lessons:how_to_play_pdf": ["GET"],
    "lessons:kit": ["GET"],
    "lessons:kit_command": ["POST"],
    "lessons:handout_pdf": ["GET"],
    "lessons:plan_sample": ["GET"],
}
NOT_TEACHER_URLS = {  # name: who opens it instead (tested in the sections on device tokens)
    "classroom:join": "anyone: the code and nickname form",
    "classroom:join_code": "anyone: the join form with the code filled in",
    "classroom:play": "a device with the session's token cookie",
    "classroom:play_act": "a device with the session's token cookie",
    "classroom:play_poll": "a device with the session's token cookie",
    "classroom:board": "anyone: a scenario's board, the same for every session",
    "classroom:check": "anyone: a device check before class",
    "lessons:how_to_play": "anyone: a scenario's one-minute rules card, nothing of a class",
    "scoring:my_report": "a device with the session's token cookie",
    "scoring:student_report": "a student's signed, expiring link",
    "scoring:student_report_pdf": "a student's signed, expiring link",
    "lessons:student_check": "a device with the session's token cookie",
    "lessons:student_plan": "a device with the session's token cookie",
    "lessons:student_meanwhile": "a device with the session's token cookie",
    "lessons:student_plan_pdf": "a device with the session's token cookie",
    "lessons:linked_plan": "a student's signed, expiring link",
    "lessons:linked_plan_pdf": "a student's signed, expiring link",
}
SOCKETS = {"ws/play/<int:session_id>/": "device", "ws/sessions/<int:session_id>/": "teacher", "ws/check/": "anyone"}


def app_urls() -> dict[str, list[str]]:
    """Every named URL of the classroom, scoring and lessons apps: name -> its keyword arguments."""
    from django.urls import URLPattern, URLResolver, get_resolver

    found = {}
    for include in get_resolver().url_patterns:
        if isinstance(include, URLResolver) and include.namespace in ("classroom", "scoring", "lessons"):
            for pattern in include.url_patterns:
                assert isinstance(pattern, URLPattern), pattern
                found[f"{include.namespace}:{pattern.name}"] = list(pattern.pattern.converters)
    return found


def test_every_url_is_classified():
    """A new page or endpoint must be declared a teacher's (and so walked below) or a student's."""
    from classroom.routing import websocket_urlpatterns

    urls = app_urls()
    unknown = sorted(set(urls) - set(TEACHER_URLS) - set(NOT_TEACHER_URLS))
    assert not unknown, (
        f"New URL(s) {unknown}: add each to TEACHER_URLS (the walk then checks that "
        "another teacher gets a 404 and a signed-out visitor is sent to sign in) "
        "or, if no teacher owns it, to NOT_TEACHER_URLS saying who may open it."
    )
    assert not set(TEACHER_URLS) & set(NOT_TEACHER_URLS)
    assert set(TEACHER_URLS) | set(NOT_TEACHER_URLS) == set(urls), "a classified URL no longer exists"
    routes = {str(pattern.pattern) for pattern in websocket_urlpatterns}
    assert routes == set(SOCKETS), f"classify the new socket(s) {sorted(routes - set(SOCKETS))} in SOCKETS"


def _walk():
    from classroom.views import COMMANDS
    from lessons.views import KIT_COMMANDS
    from scoring.models import ClassPrint

    for name, methods in TEACHER_URLS.items():
        for method in methods:
            if name == "classroom:session_command":
                yield from (
                    pytest.param(name, method, {"command": command}, id=f"{name}:{command}:{method}")
                    for command in COMMANDS
                )
            elif name == "scoring:class_pdf":
                yield from (
                    pytest.param(name, method, {"kind": kind}, id=f"{name}:{kind}:{method}")
                    for kind in ClassPrint.Kind.values
                )
            elif name == "lessons:kit_command":
                yield from (
                    pytest.param(name, method, {"command": command}, id=f"{name}:{command}:{method}")
                    for command in KIT_COMMANDS
                )
            else:
                yield pytest.param(name, method, {}, id=f"{name}:{method}")


def _fingerprint(session):
    """Everything a teacher URL could change about a session, to show that nothing did."""
    from classroom.models import Session
    from games.models import Game
    from lessons.models import CheckItem, KnowledgeCheck
    from scoring.models import DebriefSettings, Report

    session = Session.objects.filter(pk=session.pk).first()
    if session is None:
        return None
    return (
        session.status,
        session.title,
        session.storm_deadline,
        session.intensity,
        session.age_band,
        list(session.participants.values_list("nickname", "approved", "asked_teacher_at", "move_token_hash")),
        list(session.tables.values_list("number", "seats__number", "seats__participant")),
        list(Game.objects.filter(table__session=session).values_list("version", "status", "bots")),
        list(Report.objects.filter(session=session).values_list("status", "attempts", "queued_at")),
        list(DebriefSettings.objects.filter(session=session).values_list("research_opt_in")),
        list(KnowledgeCheck.objects.filter(session=session).values_list("enabled", "after_open", "local_office")),
        list(CheckItem.objects.filter(session=session).values_list("question", "choices", "answer", "used")),
    )


@pytest.fixture
def owned(lesson):
    """The lesson with a written class report, and the arguments each teacher URL takes."""
    from scoring import services as scoring
    from scoring.models import Report

    session, devices, teacher, _tablet = lesson
    report = [r for r in scoring.plan_reports(session) if r.kind == Report.Kind.CLASS][0]
    Report.objects.filter(pk=report.pk).update(
        status=Report.Status.DONE, html="<p>class packet</p>", pdf=b"%PDF-1.7 packet"
    )
    return (
        session,
        teacher,
        {
            "pk": session.pk,
            "report": report.pk,
            "scenario": session.scenario,
            "participant": devices[0][0].pk,
            "seat": devices[0][0].seats.first().pk,
        },
    )


@pytest.mark.parametrize("name, method, extra", list(_walk()))
def test_a_teacher_url_is_only_for_its_teacher(owned, name, method, extra):
    """Another teacher gets a 404 and changes nothing; a signed-out visitor is sent to sign in;
    the owner's GET opens (so the 404 is about ownership, not a wrong address)."""
    session, owner, ids = owned
    wanted = app_urls()[name]
    unknown = set(wanted) - set(ids) - set(extra)
    assert not unknown, f"{name} takes {sorted(unknown)}: teach the walk how to fill them"
    path = reverse(name, kwargs={**{key: ids[key] for key in wanted if key in ids}, **extra})
    form = {
        "participant": ids["participant"],
        "seat": ids["seat"],
        "nickname": "Renamed",
        "table": 1,
        "intensity": "frank",
        "research_opt_in": "on",
        "title": "Taken over",
        "scenario": "evacuation",
        "seats_per_table": 4,
        "turn_seconds": 60,
        "names": "approve",
        "question": "Taken over?",
        "choice": ["a", "b"],
        "answer": 0,
        "local_office": "Taken over",
    }
    before = _fingerprint(session)

    signed_out = getattr(Client(), method.lower())(path, form if method == "POST" else None)
    assert signed_out.status_code == 302, (path, signed_out.status_code)
    assert signed_out["Location"].startswith(f"{reverse('login')}?next="), signed_out["Location"]

    other = Client()
    other.force_login(make_teacher())
    answer = getattr(other, method.lower())(path, form if method == "POST" else None)
    if "pk" in wanted or "report" in wanted:
        assert answer.status_code == 404, (path, answer.status_code)
    elif name == "classroom:home":
        assert str(session) not in answer.content.decode()
    assert _fingerprint(session) == before, f"{method} {path} by another teacher changed the session"

    if method == "GET" and ("pk" in wanted or "report" in wanted):
        opens = (200,)
        if name == "scoring:class_pdf":  # printed on the first ask once the lesson has ended: "almost ready" (503)
            opens = (200, 503) if session.status == Session.Status.ENDED else (404,)
        assert owner.get(path).status_code in opens, path


@pytest.mark.django_db(transaction=True)
def test_the_dashboard_socket_refuses_a_signed_out_visitor():
    """The teacher's socket needs the owner signed in (another teacher: tests/classroom/test_sockets.py)."""
    from asgiref.sync import async_to_sync

    from classroom.consumers import CLOSE_NOT_FOUND

    session, _devices = started_session(students=1)

    async def run():
        socket = communicator(f"/ws/sessions/{session.pk}/")
        connected, code = await socket.connect()
        assert not connected and code == CLOSE_NOT_FOUND

    async_to_sync(run)()


# --- WebSocket origins ------------------------------------------------------------------------------------

PRODUCTION_HOST = "stormwise.example.org"


@pytest.fixture
def production_app(settings):
    """config/asgi.py built afresh with a production host list (the test settings allow every
    host, and the origin check reads ALLOWED_HOSTS once, when the application is built)."""
    import runpy

    settings.ALLOWED_HOSTS = [PRODUCTION_HOST]
    return runpy.run_path(str(ROOT / "config" / "asgi.py"))["application"]


@pytest.mark.django_db(transaction=True)
def test_sockets_opened_from_a_foreign_page_are_refused(production_app):
    """A page on another site (or a client sending no Origin) cannot open a student's or the
    teacher's socket, even with their cookies; the same cookies from our own page open both."""
    from asgiref.sync import async_to_sync

    session, devices = started_session(students=1)
    teacher = Client()
    teacher.force_login(session.teacher)
    cookies = {
        f"/ws/play/{session.pk}/": f"{token_cookie(session.pk)}={devices[0][1]}",
        f"/ws/sessions/{session.pk}/": f"sessionid={teacher.cookies['sessionid'].value}",
        "/ws/check/": "",
    }

    async def opens(path, origin):
        socket = communicator(path, cookies[path], origin=origin, app=production_app, host=PRODUCTION_HOST)
        connected, _code = await socket.connect()
        await socket.disconnect()
        return connected

    async def run():
        for path in cookies:
            for origin in ("https://evil.example", f"https://{PRODUCTION_HOST}.evil.example", "null", None):
                assert not await opens(path, origin), (path, origin)
            assert await opens(path, f"https://{PRODUCTION_HOST}"), path

    async_to_sync(run)()


@pytest.mark.django_db(transaction=True)
def test_a_classroom_server_allowing_every_host_still_refuses_a_foreign_page():
    """``make run`` on a classroom network allows every host name (ALLOWED_HOSTS "*", as the test
    settings do), which switches Channels' own origin check off; the same-origin check still
    refuses a socket from another site's page and opens one from the page's own address."""
    from asgiref.sync import async_to_sync

    session, devices = started_session(students=1)
    cookie = f"{token_cookie(session.pk)}={devices[0][1]}"

    async def opens(origin, host):
        socket = communicator(f"/ws/play/{session.pk}/", cookie, origin=origin, host=host)
        connected, _code = await socket.connect()
        await socket.disconnect()
        return connected

    async def run():
        assert not await opens("https://evil.example", "192.168.1.20:8000")
        assert not await opens("http://192.168.1.20:9000", "192.168.1.20:8000")
        assert not await opens("null", "192.168.1.20:8000")
        assert await opens("http://192.168.1.20:8000", "192.168.1.20:8000")
        assert await opens("https://stormwise.example.org", "stormwise.example.org")

    async_to_sync(run)()


def test_production_settings_check_the_origin_of_every_socket():
    """The real config.asgi under production environment refuses a foreign Origin on every route."""
    script = """
import asyncio
from tests.sockets import WebsocketCommunicator
from config.asgi import application

async def opens(path, origin):
    socket = WebsocketCommunicator(application, path, headers=[(b"origin", origin.encode()),
                                                                (b"host", b"stormwise.example.org")])
    connected, _ = await socket.connect()
    await socket.disconnect()
    return connected

async def main():
    for path in ("/ws/play/1/", "/ws/sessions/1/", "/ws/check/"):
        print(path, await opens(path, "https://evil.example"))
    print("own", await opens("/ws/check/", "https://stormwise.example.org"))

asyncio.run(main())
"""
    result = _production_python(script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "/ws/play/1/",
        "False",
        "/ws/sessions/1/",
        "False",
        "/ws/check/",
        "False",
        "own",
        "True",
    ]


def _production_python(script, **env):
    """Run ``script`` in a fresh interpreter with the production environment (as test_health does)."""
    import os
    import secrets
    import subprocess
    import sys

    full_env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DATABASE_URL",
            "REDIS_URL",
            "DJANGO_SETTINGS_MODULE",
            "SECRET_KEY",
            "DEBUG",
            "ALLOWED_HOSTS",
            "SECURE_SSL_REDIRECT",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        }
    }
    full_env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="0",
        ALLOWED_HOSTS=PRODUCTION_HOST,
        SECRET_KEY=secrets.token_urlsafe(48),
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres",
        PYTHONPATH=str(ROOT),
        **env,
    )
    return subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=120
    )


# --- Device tokens: one participant of one session --------------------------------------------------------

PROBE = '{"type": "act", "id": "probe-0001", "seat": 99, "version": 0, "action": {"type": "wait"}}'


def tablet_with(session_id, token, **more_cookies):
    """A tablet's HTTP client holding ``token`` in the cookie of ``session_id``."""
    client = Client()
    client.cookies[token_cookie(session_id)] = token
    for name, value in more_cookies.items():
        client.cookies[name] = value
    return client


def http_answers(client, session_id) -> dict:
    """What the play page, the act and poll fallbacks and the report redirect answer this tablet."""
    play = client.get(reverse("classroom:play", args=[session_id]))
    act = client.post(reverse("classroom:play_act", args=[session_id]), PROBE, content_type="application/json")
    poll = client.get(reverse("classroom:play_poll", args=[session_id]))
    report = client.get(reverse("scoring:my_report", args=[session_id]))
    return {
        "play": play.status_code if play.status_code != 302 else play["Location"],
        "act": act.status_code,
        "poll": poll.status_code,
        "my report": report.status_code,
    }


REFUSED = {"play": reverse("classroom:join"), "act": 403, "poll": 403, "my report": 404}


async def socket_opens(session_id, token) -> bool | int:
    socket = communicator(f"/ws/play/{session_id}/", f"{token_cookie(session_id)}={token}")
    connected, code = await socket.connect()
    await socket.disconnect()
    return True if connected else code


def forgeries(token: str) -> dict[str, str]:
    flipped = token[:-1] + ("A" if token[-1] != "A" else "B")
    return {
        "tampered": flipped,
        "truncated": token[:-1],
        "half": token[: len(token) // 2],
        "extended": token + "A",
        "upper-cased": token.upper() if token.upper() != token else token.lower(),
    }


@pytest.mark.django_db(transaction=True)
def test_a_token_opens_only_its_own_session():
    """Session A's token, even in session B's cookie, opens none of B's socket, act, poll, play
    page or report; in A's cookie it opens all of them."""
    from asgiref.sync import async_to_sync

    from classroom.consumers import CLOSE_UNAUTHORISED

    a, a_devices = started_session(students=2)
    b, _b_devices = started_session(students=2)
    token = a_devices[0][1]
    versions = list(b.tables.values_list("game__version", flat=True))

    own = http_answers(tablet_with(a.pk, token), a.pk)
    assert own == {"play": 200, "act": 200, "poll": 200, "my report": 302}, own
    assert http_answers(tablet_with(b.pk, token, **{token_cookie(a.pk): token}), b.pk) == REFUSED
    assert list(b.tables.values_list("game__version", flat=True)) == versions

    async def run():
        assert await socket_opens(a.pk, token) is True
        assert await socket_opens(b.pk, token) == CLOSE_UNAUTHORISED

    async_to_sync(run)()


@pytest.mark.django_db(transaction=True)
def test_a_tampered_or_truncated_token_is_refused():
    """Any change to a token (a character, its length, its case) opens nothing."""
    from asgiref.sync import async_to_sync

    from classroom.consumers import CLOSE_UNAUTHORISED

    session, devices = started_session(students=1)
    fakes = forgeries(devices[0][1])
    for kind, fake in fakes.items():
        assert http_answers(tablet_with(session.pk, fake), session.pk) == REFUSED, kind

    async def run():
        for kind, fake in fakes.items():
            assert await socket_opens(session.pk, fake) == CLOSE_UNAUTHORISED, kind

    async_to_sync(run)()


@pytest.mark.django_db(transaction=True)
def test_a_removed_students_token_stops_working():
    """When the teacher removes a student, their open socket is closed and their token opens nothing."""
    from asgiref.sync import async_to_sync
    from channels.db import database_sync_to_async

    from classroom import services
    from classroom.consumers import CLOSE_UNAUTHORISED

    session, devices = started_session(students=2)
    participant, token = devices[0]

    async def run():
        socket = await open_tablet(session.pk, token)
        await database_sync_to_async(services.remove)(participant=participant)
        assert await closed_with(socket) == CLOSE_UNAUTHORISED
        assert await socket_opens(session.pk, token) == CLOSE_UNAUTHORISED

    async_to_sync(run)()
    assert http_answers(tablet_with(session.pk, token), session.pk) == REFUSED
    assert http_answers(tablet_with(session.pk, devices[1][1]), session.pk)["play"] == 200


# --- Production cookies ----------------------------------------------------------------------------------

COOKIE_SETTINGS = [
    "SESSION_COOKIE_SECURE",
    "SESSION_COOKIE_HTTPONLY",
    "SESSION_COOKIE_SAMESITE",
    "CSRF_COOKIE_SECURE",
    "CSRF_COOKIE_SAMESITE",
]


@pytest.fixture(scope="module")
def production_cookie_settings():
    """The cookie settings config.settings gives a production environment, even one whose proxy
    redirects to HTTPS itself (SECURE_SSL_REDIRECT=0)."""
    import json

    found = []
    for redirect in ("1", "0"):
        result = _production_python(
            "import django, json; django.setup(); from django.conf import settings; "
            f"print(json.dumps({{n: getattr(settings, n) for n in {COOKIE_SETTINGS!r}}}))",
            SECURE_SSL_REDIRECT=redirect,
        )
        assert result.returncode == 0, result.stderr
        found.append(json.loads(result.stdout.strip().splitlines()[-1]))
    assert found[0] == found[1]
    return found[0]


def test_production_cookies_are_secure_http_only_and_same_site(production_cookie_settings):
    assert production_cookie_settings == {
        "SESSION_COOKIE_SECURE": True,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "CSRF_COOKIE_SECURE": True,
        "CSRF_COOKIE_SAMESITE": "Lax",
    }


def test_with_production_settings_every_cookie_we_set_is_secure(db, settings, production_cookie_settings):
    """Signed in, a teacher's session and CSRF cookies are Secure; a student's device cookies
    (sw_device, sw_<session>) are Secure and HTTP-only too, even if the proxy failed to say the
    request came over HTTPS."""
    from tests.factories import PASSWORD, make_session

    for name, value in production_cookie_settings.items():
        setattr(settings, name, value)
    teacher = make_teacher()
    browser = Client(enforce_csrf_checks=True)
    browser.get(reverse("login"))
    signed_in = browser.post(
        reverse("login"),
        {"username": teacher.email, "password": PASSWORD, "csrfmiddlewaretoken": browser.cookies["csrftoken"].value},
    )
    assert signed_in.status_code == 302
    session = make_session(teacher=teacher)
    tablet = Client()
    form = tablet.get(reverse("classroom:join"))
    joined = tablet.post(reverse("classroom:join"), {"code": session.join_code, "nickname": "Robin", "players": 1})
    assert joined.status_code == 302
    cookies = {
        "sessionid": signed_in.cookies["sessionid"],
        "csrftoken": signed_in.cookies["csrftoken"],
        "sw_device": form.cookies["sw_device"],
        token_cookie(session.pk): joined.cookies[token_cookie(session.pk)],
    }
    for name, morsel in cookies.items():
        assert morsel["secure"] is True, f"{name} is not Secure"
        assert morsel["samesite"] == "Lax", f"{name} has no SameSite"
        if name != "csrftoken":  # the page passes the CSRF token in a data- attribute, not the cookie
            assert morsel["httponly"] is True, f"{name} is readable by scripts"


# --- No student data beyond a nickname ---------------------------------------------------------------------

# A participant is a nickname, a hashed device token and the state of play: nothing else about a child.
PARTICIPANT_FIELDS = {
    "id",
    "session",
    "nickname",
    "approved",
    "token_hash",
    "move_token_hash",
    "players",
    "asked_teacher_at",
    "refusals",
    "last_seen_at",
    "connected",
    "created_at",
    "report_secret",
    # the language the tablet shows (its picker's choice or the browser's), for its screens and
    # report: a display setting of the device, deleted with the participant
    "language",
    # a hash of the random id the joining device's cookie carries, so the teacher can turn that
    # device away: says nothing about the child, deleted with the participant
    "device_hash",
}
PERSONAL = {
    "email",
    "e_mail",
    "first_name",
    "last_name",
    "full_name",
    "surname",
    "birthday",
    "date_of_birth",
    "birth_date",
    "gender",
    "phone",
    "address",
    "photo",
    "ip_address",
    "user_agent",
    "student_id",
}


def test_a_student_is_a_nickname_and_nothing_more():
    """Students are children without accounts: the participant model holds a nickname, a hashed
    device token and play state, and no other model stores anything personal about them."""
    from django.apps import apps

    from classroom.models import Participant, Teacher

    fields = {field.name for field in Participant._meta.get_fields() if field.concrete}
    assert fields == PARTICIPANT_FIELDS, (
        f"Participant fields changed: added {sorted(fields - PARTICIPANT_FIELDS)}, removed "
        f"{sorted(PARTICIPANT_FIELDS - fields)}. Stormwise keeps no student data beyond a nickname "
        "(students are children). A new field must not describe the child: if it is play "
        "state, add it to PARTICIPANT_FIELDS and make sure delete_session and the retention purge "
        "remove it; if it is personal, it does not belong here."
    )
    for app in ("classroom", "games", "scoring"):
        for model in apps.get_app_config(app).get_models():
            if model is Teacher:
                continue
            found = {field.name for field in model._meta.get_fields() if field.concrete} & PERSONAL
            assert not found, f"{model.__name__} stores {sorted(found)}: no personal data about students"


def test_the_join_form_asks_only_for_the_code_and_a_nickname(client, db):
    """Besides the code and a nickname (with a warning against full names) the form asks only how
    many students share the tablet, a number. The page's language picker (its own small form) asks
    which of the app's languages the tablet shows, nothing about the child."""
    from classroom.forms import JoinForm

    assert set(JoinForm.base_fields) == {"code", "nickname", "players"}
    page = client.get(reverse("classroom:join")).content.decode()
    inputs = set(re.findall(r'<(?:input|select|textarea)\b[^>]*\bname="([^"]+)"', page))
    assert inputs == {"csrfmiddlewaretoken", "code", "nickname", "players", "language", "next"}
    choices = set(re.findall(r'<option value="([^"]+)" lang=', page))
    assert choices == {code for code, _name in settings.LANGUAGES}
    assert "Please don&#x27;t use your full name." in page


# --- One device, many sockets ------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_device_with_ten_sockets_gets_the_taps_of_one():
    """Ten sockets of one device share its limits: together they get the answers one socket
    gets, a device holds a few sockets at most (its oldest are closed), and once it floods every
    one of its sockets is closed."""
    from asgiref.sync import async_to_sync

    from classroom.consumers import CLOSE_FLOODING, CLOSE_SUPERSEDED, MAX_FRAMES_PER_SECOND, MAX_SOCKETS_PER_DEVICE

    session, devices = started_session(students=2)
    token = devices[0][1]

    async def run():
        sockets = [await open_tablet(session.pk, token) for _ in range(10)]
        closed = [await closed_with(s, timeout=2) for s in sockets[:-MAX_SOCKETS_PER_DEVICE]]
        assert closed == [CLOSE_SUPERSEDED] * (10 - MAX_SOCKETS_PER_DEVICE)
        live = sockets[-MAX_SOCKETS_PER_DEVICE:]
        for socket in live:  # drain the views sent on connect
            while not await socket.receive_nothing(timeout=0.2):
                await socket.receive_output()
        pongs = 0
        for _round in range(MAX_FRAMES_PER_SECOND // 2):  # half a burst on each socket, at once
            for socket in live:
                await socket.send_to(text_data='{"type":"ping","t":1}')
        for socket in live:
            while not await socket.receive_nothing(timeout=0.3):
                message = await socket.receive_output()
                pongs += '"pong"' in message.get("text", "")
        assert pongs <= MAX_FRAMES_PER_SECOND + 2 < len(live) * (MAX_FRAMES_PER_SECOND // 2), pongs
        for _number in range(40):  # then one socket floods: the device's others close with it
            await live[0].send_to(text_data='{"type":"ping"}')
        codes = [await closed_with(socket) for socket in live]
        assert codes == [CLOSE_FLOODING] * len(live)

    async_to_sync(run)()


# --- The teacher's own laptop is never locked out ---------------------------------------------------


@pytest.mark.django_db
def test_wrong_passwords_from_a_few_tablets_never_lock_the_teacher_out_of_their_laptop(settings):
    """60 wrong passwords from 6 tablets' addresses stop sign-in to the account from anywhere
    new, but not from the browser the teacher signed in on before."""
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from tests.factories import PASSWORD, make_teacher

    cache.clear()
    make_teacher(email="ms.rivera@school.test")
    laptop = Client(REMOTE_ADDR="10.20.0.1")
    assert laptop.post(reverse("login"), {"username": "ms.rivera@school.test", "password": PASSWORD}).status_code == 302
    laptop.post(reverse("logout"))
    for tablet in range(6):
        guesser = Client(REMOTE_ADDR=f"10.20.1.{tablet}")
        for attempt in range(10):
            guesser.post(reverse("login"), {"username": "ms.rivera@school.test", "password": f"guess-{attempt}"})
    stranger = Client(REMOTE_ADDR="10.20.2.1")
    assert (
        stranger.post(reverse("login"), {"username": "ms.rivera@school.test", "password": PASSWORD}).status_code == 429
    )
    answer = laptop.post(reverse("login"), {"username": "ms.rivera@school.test", "password": PASSWORD})
    assert answer.status_code == 302 and answer.wsgi_request.user.is_authenticated
    # a forged or another account's cookie earns nothing
    stranger.cookies["sw_teacher_device"] = "forged"
    assert (
        stranger.post(reverse("login"), {"username": "ms.rivera@school.test", "password": PASSWORD}).status_code == 429
    )
    cache.clear()


# --- Behind a proxy, no debug pages -------------------------------------------------------------------


def test_debug_is_off_when_the_app_is_reached_through_a_public_name(tmp_path):
    """A laptop serving loopback behind a proxy (PUBLIC_BASE_URL with a public name) has debug
    pages off, though DEBUG=1 and HOST is loopback; on loopback alone they stay on for development,
    for the laptop's own requests only (config.errors), and Django's own DEBUG is always off."""
    from tests.test_install import embedded_env, settings_of

    proxied = settings_of(
        embedded_env(tmp_path, DEBUG="1", PUBLIC_BASE_URL="https://stormwise.school.example"),
        "DEBUG_PAGES",
        "ALLOWED_HOSTS",
    )
    assert proxied == [False, ["localhost", "127.0.0.1", "[::1]", "stormwise.school.example"]]
    assert settings_of(embedded_env(tmp_path, DEBUG="1", ALLOWED_HOSTS="*"), "DEBUG_PAGES") == [False]
    assert settings_of(embedded_env(tmp_path, DEBUG="1"), "DEBUG_PAGES", "DEBUG") == [True, False]


@pytest.mark.django_db
def test_a_huge_seat_or_version_number_is_a_bad_frame_not_an_error_page():
    from django.test import Client

    session, devices = started_session(students=2)
    tablet = Client()
    tablet.cookies[token_cookie(session.pk)] = devices[0][1]
    for seat, version in [(10**30, 1), (2**40, 1), (-1, 1), (0, 10**30)]:
        frame = {"type": "act", "id": "a-huge-number", "seat": seat, "version": version, "action": {"type": "wait"}}
        answer = tablet.post(f"/play/{session.pk}/act", json.dumps(frame), content_type="application/json")
        assert answer.status_code < 500 and answer.json()["code"] == "bad_frame", (seat, version, answer.content)


# --- Taking a classmate's seat ----------------------------------------------------------------------


def _ask_to_move(client, session, nickname):
    return client.post("/join", {"code": session.join_code, "nickname": nickname, "players": 1, "move": "1"})


@pytest.mark.django_db
def test_a_move_request_is_never_replaced_and_never_taken_while_joining_is_locked():
    from classroom import services
    from classroom.models import Participant

    session, devices = started_session(students=2)
    ana = devices[0][0]
    first, second = Client(), Client()
    assert _ask_to_move(first, session, ana.nickname).status_code == 302
    waiting = Participant.objects.get(pk=ana.pk).move_token_hash
    refused = _ask_to_move(second, session, ana.nickname)
    assert refused.status_code == 200 and "already waiting" in refused.content.decode()
    assert Participant.objects.get(pk=ana.pk).move_token_hash == waiting

    services.refuse_device_move(participant=Participant.objects.get(pk=ana.pk))
    services.set_joining_locked(session=session, locked=True)
    locked = _ask_to_move(second, session, ana.nickname)
    assert locked.status_code == 200 and "closed this lesson" in locked.content.decode()
    assert Participant.objects.get(pk=ana.pk).move_token_hash == ""


@pytest.mark.django_db
def test_while_the_first_tablet_is_online_the_student_allows_the_move_on_it():
    """The teacher's approval alone does not move an online student's seat (unless the teacher
    says they have seen both tablets); the student's own tablet allows or refuses it."""
    from classroom import services
    from classroom.models import Participant

    session, devices = started_session(students=2)
    ana, old_token = devices[0]
    Participant.objects.filter(pk=ana.pk).update(connected=1)  # her tablet's socket is open
    thief = Client()
    assert _ask_to_move(thief, session, ana.nickname).status_code == 302
    teacher = Client()
    teacher.force_login(session.teacher)
    refused = teacher.post(
        f"/sessions/{session.pk}/do/approve-move", {"participant": ana.pk}, HTTP_ACCEPT="application/json"
    )
    assert refused.status_code == 400 and "still online" in refused.json()["message"]
    assert services.participant_for_token(session, old_token) is not None

    own = Client()
    own.cookies[token_cookie(session.pk)] = old_token
    state = own.get(f"/play/{session.pk}/poll?since=").json()
    assert state["lobby"]["move_asked"] is True
    answer = own.post(
        f"/play/{session.pk}/act", json.dumps({"type": "move", "allow": False}), content_type="application/json"
    )
    assert answer.json() == {"type": "ok"}
    assert services.participant_for_token(session, old_token) is not None
    assert not Participant.objects.get(pk=ana.pk).move_token_hash

    assert _ask_to_move(Client(), session, ana.nickname).status_code == 302  # her new tablet, for real
    seen = teacher.post(
        f"/sessions/{session.pk}/do/approve-move",
        {"participant": ana.pk, "seen_both": "1"},
        HTTP_ACCEPT="application/json",
    )
    assert seen.json()["ok"] and services.participant_for_token(session, old_token) is None


@pytest.mark.django_db
def test_a_student_on_the_http_fallback_is_online_for_a_move_as_on_the_roster():
    """A tablet on the HTTP fallback (no socket) is online on the teacher's roster, and so it is
    for a move: the "wants to move" alert says so, and the teacher's plain approval does not hand
    her seat to the other device; her own tablet is asked."""
    from django.utils import timezone

    from classroom import selectors, services
    from classroom.models import Participant, Session

    session, devices = started_session(students=2)
    ana, old_token = devices[0]
    own = Client()
    own.cookies[token_cookie(session.pk)] = old_token
    own.get(f"/play/{session.pk}/poll?since=")  # her tablet polls: no socket open
    ana = Participant.objects.get(pk=ana.pk)
    assert ana.connected == 0 and ana.shown_online(timezone.now())
    assert _ask_to_move(Client(), session, ana.nickname).status_code == 302

    board = selectors.dashboard(Session.objects.get(pk=session.pk))
    [claim] = [alert for alert in board["alerts"] if alert["kind"] == "claim"]
    roster = [seat for table in board["tables"] for seat in table["seats"] if seat["participant"] == ana.pk]
    assert claim["online"] is True and all(seat["online"] for seat in roster)
    teacher = Client()
    teacher.force_login(session.teacher)
    refused = teacher.post(
        f"/sessions/{session.pk}/do/approve-move", {"participant": ana.pk}, HTTP_ACCEPT="application/json"
    )
    assert refused.status_code == 400 and "still online" in refused.json()["message"]
    assert services.participant_for_token(session, old_token) is not None
    assert own.get(f"/play/{session.pk}/poll?since=").json()["lobby"]["move_asked"] is True


@pytest.mark.django_db
def test_one_device_cannot_put_move_requests_on_every_tablet():
    """A device waits to carry on as one student at a time, and however many fresh cookies a
    script uses, only a few tablets of the class are asked "another tablet asks to carry on as
    you" at once, and then one a minute."""
    from classroom.models import Participant

    session, devices = started_session(students=8)
    names = [participant.nickname for participant, _token in devices]
    device = Client()
    assert _ask_to_move(device, session, names[0]).status_code == 302
    again = _ask_to_move(device, session, names[1])
    assert again.status_code == 200 and "already waiting" in again.content.decode()
    for name in names[1:]:  # a script with a fresh cookie each time
        _ask_to_move(Client(), session, name)
    asked = Participant.objects.filter(session=session).exclude(move_token_hash="")
    assert asked.count() == settings.MOVE_PACE["waiting"]

    Participant.objects.filter(session=session).update(move_token_hash="")  # the tablets refuse
    for name in names:
        _ask_to_move(Client(), session, name)
    assert asked.count() == 0  # the lesson's few were used: the next comes a minute later
    refused = _ask_to_move(Client(), session, names[0])
    assert "Other tablets are waiting" in refused.content.decode()


# --- No device sends what its screen does not offer ------------------------------------------------

OFFERED_ONLY_SCENARIOS = list(__import__("scenarios.registry", fromlist=["keys"]).keys())


def _crafted(offered: list[dict]) -> list[dict]:
    """Actions a hostile client might send: every offered action with each field set to values
    no offered action has, an unknown field added, and types nobody is offered."""
    values = {}
    for action in offered:
        for field, value in action.items():
            values.setdefault(field, []).append(value)
    crafted = [{"type": "no-such-action"}, {"type": "settle"}, {"type": "end"}, {"type": "finish"}]
    for action in offered[:12]:
        crafted.append({**action, "by": "a script"})
        for field in action:
            if field == "type":
                continue
            for strange in (-1, 10**6, "X99", None, [], {"nested": 1}, True):
                if strange not in values[field]:
                    crafted.append({**action, field: strange})
    return crafted


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("scenario", OFFERED_ONLY_SCENARIOS)
def test_no_action_outside_a_seats_offered_actions_is_applied(scenario):
    """Through the HTTP fallback and the socket alike, whatever a device sends, the move stored
    is one of the actions its seat was offered at that moment."""
    from asgiref.sync import async_to_sync

    from games.models import Game, Move
    from games.pipeline import device_action_id, devices_own_id
    from games.services import engine_for

    # a full table of students, so that whoever is to act first is one (not a bot)
    session, devices = started_session(students=4, scenario=scenario)
    checked = 0
    for participant, token in devices:
        for seat in participant.seats.select_related("table"):
            game = Game.objects.get(pk=seat.table.game_id)
            engine = engine_for(game)
            offered = engine.actions(engine.load(game.state), seat.number)
            if not offered:
                continue
            tablet = Client()
            tablet.cookies[token_cookie(session.pk)] = token
            for number, action in enumerate(_crafted(offered)):
                game.refresh_from_db()
                offered_now = engine.actions(engine.load(game.state), seat.number)
                frame = {
                    "type": "act",
                    "id": f"crafted-http-{seat.pk}-{number}",
                    "seat": seat.number,
                    "version": game.version,
                    "action": action,
                }
                # every crafted frame is to reach the rules, not the device's pace (which the socket
                # and the fallback share: the pace has tests of its own)
                ratelimit.clear(*act_limit(participant.pk))
                ratelimit.clear(*frame_limit(participant.pk))
                answer = tablet.post(f"/play/{session.pk}/act", json.dumps(frame), content_type="application/json")
                assert answer.json().get("code") != "too_fast", "paced too fast to reach the rules"
                stored = Move.objects.filter(
                    game=game, action_id=device_action_id(str(seat.participant_id), frame["id"])
                ).first()
                assert stored is None or stored.action in offered_now, (action, stored.action)
                checked += 1

            async def over_the_socket(participant, token, offered, game, seat):
                # the fallback's frames above took the budget the socket shares
                ratelimit.clear(*act_limit(participant.pk))
                ratelimit.clear(*frame_limit(participant.pk))
                socket = await open_tablet(session.pk, token)
                for number, action in enumerate(_crafted(offered)[:8]):
                    version = (await Game.objects.aget(pk=game.pk)).version
                    await socket.send_json_to(
                        {
                            "type": "act",
                            "id": f"crafted-ws-{seat.pk}-{number}",
                            "seat": seat.number,
                            "version": version,
                            "action": action,
                        }
                    )
                    try:
                        while (answer := await socket.receive_json_from(timeout=5)).get("type") not in ("ok", "error"):
                            pass
                        assert answer.get("code") != "too_fast", "paced too fast to reach the rules"
                    except TimeoutError:  # an answer lost to a busy machine: the replay below still checks
                        pass
                    if number + 1 >= ACT_BURST:  # past the burst, the device's pace: each one reaches the rules
                        # the burst leaves the device's window (ACT_BURST in ACT_BURST / rate s), then one a tick
                        await asyncio.sleep(
                            ACT_BURST / MAX_ACTS_PER_SECOND if number + 1 == ACT_BURST else 1 / MAX_ACTS_PER_SECOND
                        )
                await socket.disconnect()

            async_to_sync(over_the_socket)(participant, token, offered, game, seat)
            # every move a crafted frame made was offered to its seat just before it (replayed)
            state = engine.setup(game.seed, game.seats, game.options)
            for move in Move.objects.filter(game=game).order_by("seq"):
                if devices_own_id(move.action_id).startswith("crafted-"):
                    assert move.action in engine.actions(state, move.seat), (move.action_id, move.action)
                engine.apply(state, move.seat, move.action)
    assert checked
