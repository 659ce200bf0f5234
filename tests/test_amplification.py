"""One tablet cannot make the server work for the whole class.

"Ask the teacher" and a repeated device-move request tell the class's sockets only when
something changed, and a seat may change its hand a few times a minute; the HTTP fallback has
the socket's per-device limits; oversize frames count toward the flood close; the served socket
closes on a frame of more than a few kilobytes (also ``/ws/check/``, which needs no sign-in);
request bodies are refused before they are read whole; the teacher caps a session and can lock
joining.
"""

import asyncio
import json
import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from django.core.cache import cache
from django.test import Client
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from classroom import services
from classroom.consumers import (
    ACT_BURST,
    CLOSE_FLOODING,
    FLOOD_LIMIT,
    FLOOD_WINDOW_SECONDS,
    MAX_ACTS_PER_SECOND,
    MAX_FRAME_BYTES,
    MAX_FRAMES_PER_SECOND,
    token_cookie,
)
from classroom.models import Participant, Session
from config.asgi import application
from tests.factories import make_teacher, started_session
from tests.ports import free_port
from tests.sockets import WebsocketCommunicator
from tests.test_security import open_tablet

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _fresh_buckets():
    cache.clear()
    yield
    cache.clear()


def tablet_for(session, token):
    client = Client()
    client.cookies[token_cookie(session.pk)] = token
    return client


def post_frame(client, session, frame):
    return client.post(f"/play/{session.pk}/act", json.dumps(frame), content_type="application/json")


@pytest.mark.django_db
def test_asking_the_teacher_tells_the_class_only_on_a_change(django_capture_on_commit_callbacks):
    """Pressing "ask the teacher" five times tells the class's sockets once; a tablet toggling
    it twenty times is stopped after a few changes a minute."""
    session, devices = started_session(students=2)
    (ana, token), _ = devices
    client = tablet_for(session, token)
    with django_capture_on_commit_callbacks() as told:
        for _ in range(5):
            assert post_frame(client, session, {"type": "ask_teacher", "asking": True}).status_code == 200
    assert len(told) == 1
    assert Participant.objects.get(pk=ana.pk).asked_teacher_at is not None

    cache.clear()
    with django_capture_on_commit_callbacks() as told:
        answers = [
            post_frame(client, session, {"type": "ask_teacher", "asking": index % 2 == 0}) for index in range(20)
        ]
    assert len(told) == services.ASK_CHANGES_PER_MINUTE
    assert {a.status_code for a in answers} == {200, 429}
    assert answers[-1].json()["code"] == "too_fast"


@pytest.mark.django_db
def test_a_repeated_device_move_request_tells_the_class_once(django_capture_on_commit_callbacks):
    """A new tablet asking again and again for a student's seats shows one request to the teacher."""
    session, devices = started_session(students=2)
    (ana, _token), _ = devices
    with django_capture_on_commit_callbacks() as told:
        services.request_device_move(session=session, nickname=ana.nickname)
        for _ in range(4):  # refused: a waiting request is never replaced
            with pytest.raises(services.JoinError):
                services.request_device_move(session=session, nickname=ana.nickname)
    assert len(told) == 1


@pytest.mark.django_db
def test_the_http_fallback_has_the_sockets_limits():
    """Over HTTP a device gets the socket's rates: a burst of acts and of polls is answered
    "too fast" (429) beyond the socket's burst, and nothing is worked out for it."""
    session, devices = started_session(students=2)
    (ana, token), _ = devices
    client = tablet_for(session, token)
    seat = ana.seats.get().number
    started = time.monotonic()
    acts = [
        post_frame(
            client,
            session,
            {"type": "act", "id": f"tap-{n:08d}", "seat": seat, "version": 0, "action": {"type": "wait"}},
        ).status_code
        for n in range(20)
    ]
    earned = (time.monotonic() - started) * MAX_ACTS_PER_SECOND
    assert acts[:ACT_BURST].count(429) == 0
    assert acts.count(429) >= 20 - ACT_BURST - earned - 1

    cache.clear()
    started = time.monotonic()
    polls = [client.get(f"/play/{session.pk}/poll", {"since": "x"}) for _ in range(40)]
    earned = (time.monotonic() - started) * MAX_FRAMES_PER_SECOND
    statuses = [p.status_code for p in polls]
    assert statuses[:MAX_FRAMES_PER_SECOND] == [200] * MAX_FRAMES_PER_SECOND
    assert statuses.count(429) >= 40 - MAX_FRAMES_PER_SECOND - earned - 1
    assert all(p.json()["code"] == "too_fast" for p in polls if p.status_code == 429)


@pytest.mark.django_db(transaction=True)
def test_a_child_tapping_faster_than_a_class_needs_is_slowed_never_shut_out():
    """Taps past the device's act rate are each answered "too fast", with their id, however many
    there are in a lesson; only frames past the socket's frame rate or size count toward the
    flood close. Before, the twenty-first quick tap of a lesson closed the tablet's socket and
    kept it out for half a minute."""
    session, devices = started_session(students=2)
    (ana, token), _ = devices
    seat = ana.seats.get().number
    pace = (MAX_ACTS_PER_SECOND + MAX_FRAMES_PER_SECOND) / 2  # faster than acts, slower than frames

    async def run():
        sock = await open_tablet(session.pk, token)
        refused, closed = [], False
        for n in range(int(FLOOD_LIMIT * 2.5)):
            frame = {"type": "act", "id": f"quick-{n:04d}", "seat": seat, "version": 0, "action": {"type": "wait"}}
            await sock.send_json_to(frame)
            await asyncio.sleep(1 / pace)
            while not await sock.receive_nothing(timeout=0.01):
                output = await sock.receive_output()
                if output["type"] == "websocket.close":
                    closed = True
                    break
                message = json.loads(output.get("text", "{}"))
                if message.get("code") == "too_fast":
                    refused.append(message["id"])
            if closed:
                break
        await sock.send_json_to({"type": "ping", "t": 1})
        pong = None if closed else await sock.receive_json_from(timeout=5)
        while pong is not None and pong.get("type") != "pong":
            pong = await sock.receive_json_from(timeout=5)
        await sock.disconnect()
        return refused, closed, pong

    refused, closed, pong = async_to_sync(run)()
    assert not closed
    assert len(refused) > FLOOD_LIMIT
    assert all(action_id.startswith("quick-") for action_id in refused)
    assert pong == {"type": "pong", "t": 1}


@pytest.mark.django_db(transaction=True)
def test_oversize_frames_count_toward_the_flood_close():
    """A tablet sending frames too big to read is closed like one sending too fast."""
    session, devices = started_session(students=2)
    (_ana, token), _ = devices

    async def run():
        sock = await open_tablet(session.pk, token)
        for _ in range(FLOOD_LIMIT + 1):
            await sock.send_to(text_data="x" * (MAX_FRAME_BYTES + 100))
        closed = None
        for _ in range(FLOOD_LIMIT + 10):
            output = await sock.receive_output(timeout=5)
            if output["type"] == "websocket.close":
                closed = output["code"]
                break
        await sock.disconnect()
        return closed

    assert async_to_sync(run)() == CLOSE_FLOODING


@pytest.mark.django_db(transaction=True)
def test_frames_refused_now_and_then_never_add_up_to_a_flood_close():
    """Refusals are forgiven as time passes: a tablet refused a few frames in a row, and a few
    more a while later, keeps its socket. Before, the lesson's twenty-first refused frame closed
    it, however long ago the first twenty were."""
    session, devices = started_session(students=2)
    (_ana, token), _ = devices
    pause = FLOOD_WINDOW_SECONDS  # the first refusals forgiven

    async def refuse(sock, count):
        """Sends ``count`` frames too big to read; the refusals (or the close) that answer them."""
        for _ in range(count):
            await sock.send_to(text_data="x" * (MAX_FRAME_BYTES + 100))
        answers = []
        while len(answers) < count:
            output = await sock.receive_output(timeout=5)
            if output["type"] == "websocket.close":
                return answers + [output["code"]]
            message = json.loads(output["text"])
            if message["type"] == "error":  # the seats' views come before, after the lobby
                answers.append(message["code"])
        return answers

    async def run():
        sock = await open_tablet(session.pk, token)
        answers = await refuse(sock, FLOOD_LIMIT - 2)
        await asyncio.sleep(pause)
        answers += await refuse(sock, 4)
        pong = None
        if CLOSE_FLOODING not in answers:
            await sock.send_json_to({"type": "ping", "t": 2})
            pong = await sock.receive_json_from(timeout=5)
        await sock.disconnect()
        return answers, pong

    answers, pong = async_to_sync(run)()
    assert len(answers) > FLOOD_LIMIT and set(answers) == {"too_big"}, answers
    assert pong == {"type": "pong", "t": 2}


@pytest.fixture
def served(transactional_db, settings):
    """``manage.py serve`` in a process of its own, on the test database: the server a class uses."""
    port = free_port()
    db = settings.DATABASES["default"]
    env = dict(
        os.environ,
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        SECRET_KEY=secrets.token_urlsafe(50),
        DEBUG="0",
        SECURE_SSL_REDIRECT="0",
        PUBLIC_BASE_URL=f"http://127.0.0.1:{port}",
        WEB_CONCURRENCY="1",
    )
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("serve did not start: " + process.stderr.read().decode()[-2000:]) from None
            time.sleep(0.2)
    yield port
    process.terminate()
    process.wait(timeout=15)


def test_the_served_socket_closes_on_a_big_frame(served):
    """``/ws/check/`` (no sign-in needed) small frames echo; a 1 MB frame closes the socket
    (1009, message too big) rather than being read."""
    with connect(
        f"ws://127.0.0.1:{served}/ws/check/", origin=f"http://127.0.0.1:{served}", max_size=None, open_timeout=10
    ) as ws:
        ws.send("hello")
        assert ws.recv(timeout=10) == "hello"
        ws.send("x" * 1_000_000)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd.code == 1009


def _raw_post(base, head, body_parts, timeout=5.0):
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=timeout) as conn:
        conn.sendall(head)
        for part in body_parts:
            conn.sendall(part)
        conn.settimeout(timeout)
        return conn.recv(200).decode(errors="replace")


def test_request_bodies_are_refused_before_they_are_read_whole(asgi_server):
    """A body declared at 10 MB, or sent in chunks past the limit and never finished, is answered
    413 at once, without waiting for (or keeping) the rest."""
    declared = _raw_post(
        asgi_server,
        b"POST /join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10000000\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\n\r\n",
        [b"code=" + b"A" * 1000],
    )
    assert declared.startswith("HTTP/1.1 413"), declared
    chunk = b"x" * 16_000
    chunked = _raw_post(
        asgi_server,
        b"POST /join HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\n\r\n",
        [f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"] * 6,
    )
    assert chunked.startswith("HTTP/1.1 413"), chunked


def new_session_defaults() -> dict:
    """What the new-session form posts when the teacher changes nothing."""
    from classroom.forms import SessionForm
    from classroom.views import _scenario_options

    data = {}
    for name, field in SessionForm(scenario_options=_scenario_options()).fields.items():
        if field.initial is True:
            data[name] = "on"
        elif field.initial not in (None, False):
            data[name] = field.initial
    return data


@pytest.mark.django_db
def test_a_teacher_caps_a_session_and_locks_joining():
    """The new-session form sets the most students; past it a student is told the lesson is
    full. The session page raises the cap and locks joining: then nobody new gets in, while
    students already in keep playing; opening it again lets them in."""
    teacher = make_teacher()
    browser = Client()
    browser.force_login(teacher)
    created = browser.post(
        "/sessions/new/", {**new_session_defaults(), "scenario": "evacuation", "max_participants": 3}
    )
    assert created.status_code == 302, created.content.decode()[:2000]
    session = Session.objects.get(teacher=teacher)
    assert session.max_participants == 3

    tablets = {}

    def join(nickname):
        tablets[nickname] = Client()
        return tablets[nickname].post("/join", {"code": session.join_code, "nickname": nickname, "players": 1})

    for name in ("Ana", "Ben", "Cy"):
        assert join(name).status_code == 302
    assert "This lesson is full" in join("Dee").content.decode()

    page = browser.get(f"/sessions/{session.pk}/").content.decode()
    assert "Lock joining" in page and 'value="3"' in page
    assert browser.post(f"/sessions/{session.pk}/do/set-cap", {"max_participants": 5}).status_code == 302
    assert join("Dee").status_code == 302
    assert browser.post(f"/sessions/{session.pk}/do/lock-joining").status_code == 302
    assert "closed this lesson to new students" in join("Eve").content.decode()
    assert "Open joining again" in browser.get(f"/sessions/{session.pk}/").content.decode()
    assert tablets["Ana"].get(f"/play/{session.pk}/").status_code == 200
    browser.post(f"/sessions/{session.pk}/do/unlock-joining")
    assert join("Eve").status_code == 302
    assert session.participants.count() == 5

    bad = browser.post(
        f"/sessions/{session.pk}/do/set-cap", {"max_participants": 100000}, HTTP_ACCEPT="application/json"
    )
    assert bad.status_code == 400 and "between 1 and 200" in bad.json()["message"]


@pytest.mark.django_db(transaction=True)
def test_the_check_socket_closes_a_flooder():
    """``/ws/check/`` echoes a device's probe, and closes a socket that keeps sending frames too
    big or too fast, as the play socket does."""

    async def run():
        sock = WebsocketCommunicator(
            application, "/ws/check/", headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")]
        )
        connected, _ = await sock.connect()
        assert connected
        await sock.send_to(text_data="ping")
        assert await sock.receive_from(timeout=5) == "ping"
        for _ in range(FLOOD_LIMIT + 1):
            await sock.send_to(text_data="x" * 300)
        output = await sock.receive_output(timeout=5)
        await sock.disconnect()
        return output

    closed = async_to_sync(run)()
    assert closed["type"] == "websocket.close" and closed["code"] == CLOSE_FLOODING, closed
