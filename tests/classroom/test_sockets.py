"""The table and dashboard sockets over the real Redis channel layer and PostgreSQL."""

import asyncio
import json
import time

import pytest
from asgiref.sync import async_to_sync
from django.test import Client

from classroom import services
from classroom.consumers import CLOSE_NOT_FOUND, CLOSE_UNAUTHORISED, MAX_FRAME_BYTES, token_cookie
from config.asgi import application
from games.models import Game
from tests.factories import make_teacher, started_session
from tests.sockets import WebsocketCommunicator

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=["async", "orm"])
def tap_driver(request, settings):
    """Each tap test runs with both drivers of the one pipeline: async psycopg (PostgreSQL's
    sockets) and the ORM on a worker thread (what the embedded server's sockets use)."""
    settings.LIVE_ASYNC_DB = request.param == "async"
    return request.param


def communicator(path, cookie=""):
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    return WebsocketCommunicator(application, path, headers=headers)


async def open_device(session, token):
    socket = communicator(f"/ws/play/{session.pk}/", f"{token_cookie(session.pk)}={token}")
    connected, _ = await socket.connect()
    assert connected
    lobby = await socket.receive_json_from(timeout=5)
    assert lobby["type"] == "lobby"
    views = [await socket.receive_json_from(timeout=5) for _ in lobby["seats"]]
    return socket, lobby, views


async def answer_to(socket, frame, kind=("ok", "error")):
    await socket.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))
    while True:
        message = await socket.receive_json_from(timeout=5)
        if message["type"] in kind:
            return message


def snapshot(game_id):
    game = Game.objects.get(pk=game_id)
    return game.version, game.state, game.moves.count()


def test_unknown_device_is_closed():
    """A socket without this session's device token is refused."""
    session, _ = started_session(students=2)

    async def run():
        socket = communicator(f"/ws/play/{session.pk}/", f"{token_cookie(session.pk)}=forged")
        connected, code = await socket.connect()
        assert not connected and code == CLOSE_UNAUTHORISED

    async_to_sync(run)()


def test_act_broadcasts_to_the_table_and_bad_input_changes_nothing(monkeypatch, tap_driver):
    """A legal tap is answered ok and reaches a tablemate; every bad frame gets an error only."""
    from classroom import consumers

    monkeypatch.setattr(consumers, "ACT_BURST", 50)  # this test taps faster than a person
    session, devices = started_session(students=2)
    (p0, t0), (p1, t1) = devices
    game_id = p0.seats.get().table.game_id

    async def run():
        a, lobby_a, [view_a] = await open_device(session, t0)
        b, lobby_b, [view_b] = await open_device(session, t1)
        seat_a, seat_b = lobby_a["seats"][0], lobby_b["seats"][0]
        before = await database(snapshot, game_id)

        cases = [
            ("{not json", "bad_frame"),
            ("x" * (MAX_FRAME_BYTES + 1), "too_big"),
            ({"type": "dance"}, "unknown_type"),
            (
                {
                    "type": "act",
                    "id": "short",
                    "seat": seat_a,
                    "version": view_a["version"],
                    "action": {"type": "wait"},
                },
                "bad_frame",
            ),
            (
                {
                    "type": "act",
                    "id": "for-another-seat",
                    "seat": seat_b,
                    "version": view_a["version"],
                    "action": {"type": "wait"},
                },
                "not_your_seat",
            ),
            (
                {
                    "type": "act",
                    "id": "illegal-action-1",
                    "seat": seat_a,
                    "version": view_a["version"],
                    "action": {"type": "withdraw", "amount": 9},
                },
                None,
            ),
            (
                {
                    "type": "act",
                    "id": "unknown-action-1",
                    "seat": seat_a,
                    "version": view_a["version"],
                    "action": {"type": "teleport"},
                },
                None,
            ),
        ]
        for frame, code in cases:
            answer = await answer_to(a, frame)
            assert answer["type"] == "error" and answer["message"], frame
            if code:
                assert answer["code"] == code
        assert await database(snapshot, game_id) == before

        ok = await answer_to(
            a,
            {
                "type": "act",
                "id": "good-move-0001",
                "seat": seat_a,
                "version": view_a["version"],
                "action": {"type": "wait"},
            },
        )
        assert ok["type"] == "ok" and ok["version"] == before[0] + 1
        update = await b.receive_json_from(timeout=5)
        while update["type"] not in ("view", "others"):
            update = await b.receive_json_from(timeout=5)
        # Waiting left the tablemate's own view as it was: it gets only its view's new
        # ``others`` part, to put in place of the one in the view it holds.
        assert update["type"] == "others" and update["seat"] == seat_b
        assert update["version"] == before[0] + 1 and update["built"] <= view_b["version"]
        hour_of_a = {o["seat"]: o["hour"] for o in update["others"]}[seat_a]
        assert hour_of_a > {o["seat"]: o["hour"] for o in view_b["view"]["others"]}[seat_a]

        stale = await answer_to(
            a,
            {
                "type": "act",
                "id": "double-tap-0002",
                "seat": seat_a,
                "version": view_a["version"],
                "action": {"type": "wait"},
            },
        )
        assert stale["code"] == "stale_view" and stale["view"]["version"] == before[0] + 1

        again = await answer_to(
            a,
            {
                "type": "act",
                "id": "good-move-0001",
                "seat": seat_a,
                "version": view_a["version"],
                "action": {"type": "wait"},
            },
        )
        assert again["type"] == "ok" and again["replayed"]
        assert (await database(snapshot, game_id))[2] == before[2] + 1
        await a.disconnect()
        await b.disconnect()

    async_to_sync(run)()


def test_parked_and_ended_sessions_refuse_actions(tap_driver):
    """A parked lesson and an ended one answer with a clear error and change nothing."""
    session, devices = started_session(students=2)
    participant, token = devices[0]
    game_id = participant.seats.get().table.game_id

    async def run(expected):
        socket, lobby, [view] = await open_device(session, token)
        answer = await answer_to(
            socket,
            {
                "type": "act",
                "id": f"{expected}-attempt",
                "seat": lobby["seats"][0],
                "version": view["version"],
                "action": {"type": "wait"},
            },
        )
        assert answer["code"] == expected
        await socket.disconnect()

    before = snapshot(game_id)
    services.set_paused(session=session, paused=True, parked=True)
    async_to_sync(run)("session_parked")
    services.set_paused(session=session, paused=False)
    services.end(session=session)
    async_to_sync(run)("session_closed")
    assert snapshot(game_id) == before


def test_flooding_socket_is_told_to_slow_down_then_closed():
    session, devices = started_session(students=2)

    async def run():
        socket, _, _ = await open_device(session, devices[0][1])
        for _ in range(80):
            await socket.send_to(text_data='{"type":"ping"}')
        codes = []
        while True:
            message = await socket.receive_output(timeout=5)
            if message["type"] == "websocket.close":
                assert message["code"] == 4429
                break
            codes.append(json.loads(message["text"]).get("code"))
        assert "too_fast" in codes

    async_to_sync(run)()


def test_acts_beyond_a_persons_pace_are_refused_before_they_reach_the_game():
    """Four acts at once are answered (a shared tablet's players); the next ones at once are
    told to slow down without touching the game, and after a pause the device plays again."""
    from classroom import consumers

    session, devices = started_session(students=2)
    game_id = devices[0][0].seats.get().table.game_id

    async def run():
        socket, lobby, _ = await open_device(session, devices[0][1])
        seat = lobby["seats"][0]
        frames = [
            {"type": "act", "id": f"burst-act-{n:04d}", "seat": seat, "version": 10_000, "action": {"type": "wait"}}
            for n in range(consumers.ACT_BURST + 3)
        ]
        for frame in frames:
            await socket.send_to(text_data=json.dumps(frame))
        answers = {}
        while len(answers) < len(frames):
            message = await socket.receive_json_from(timeout=5)
            if message["type"] == "error":
                answers[message["id"]] = message["code"]  # each answer names its tap
        codes = list(answers.values())
        assert codes.count("stale_view") == consumers.ACT_BURST, codes  # reached the game, refused
        assert codes.count("too_fast") == 3, codes
        await asyncio.sleep(consumers.act_limit(0)[2] + 0.1)  # the burst has left the device's window
        late = await answer_to(socket, dict(frames[0], id="after-a-pause"))
        assert late["code"] == "stale_view"
        await socket.disconnect()

    before = snapshot(game_id)
    async_to_sync(run)()
    assert snapshot(game_id) == before


def test_a_device_closed_for_flooding_waits_before_it_gets_back_in(monkeypatch):
    """Its next connections are held unanswered until the hold is over, then it plays again;
    its tablemate's device is never held."""
    from classroom import consumers

    monkeypatch.setattr(consumers, "FLOOD_HOLD_SECONDS", 2)
    session, devices = started_session(students=2)
    path = f"/ws/play/{session.pk}/"

    async def run():
        socket, _, _ = await open_device(session, devices[0][1])
        for _ in range(60):
            await socket.send_to(text_data='{"type":"ping"}')
        while (message := await socket.receive_output(timeout=5))["type"] != "websocket.close":
            pass
        assert message["code"] == consumers.CLOSE_FLOODING
        started = time.monotonic()
        again = communicator(path, f"{token_cookie(session.pk)}={devices[0][1]}")
        connected, code = await again.connect(timeout=5)
        assert (connected, code) == (False, consumers.CLOSE_FLOODING)
        assert time.monotonic() - started > 1.5, "the flooder was let straight back in"
        mate, _, _ = await open_device(session, devices[1][1])
        await mate.disconnect()
        back, _, views = await open_device(session, devices[0][1])
        assert views and views[0]["type"] == "view"
        await back.disconnect()

    async_to_sync(run)()


def test_frames_still_arriving_from_a_closed_flooder_are_dropped_unanswered(monkeypatch):
    """The frames a flooder sent before it saw the close are read after it: they cost nothing more
    than reading (one hold written, no further answers), so a flood stays cheap for the class."""
    from classroom import consumers

    holds = []
    real = consumers._hold_flooder

    async def counted(participant_id):
        holds.append(participant_id)
        await real(participant_id)

    monkeypatch.setattr(consumers, "_hold_flooder", counted)
    session, devices = started_session(students=1)

    async def run():
        socket, _, _ = await open_device(session, devices[0][1])
        for number in range(300):
            await socket.send_to(text_data=f'{{"type":"act","id":"flood-{number:04d}","seat":0,"action":{{}}}}')
        answers = 0
        while (message := await socket.receive_output(timeout=5))["type"] != "websocket.close":
            answers += 1
        assert message["code"] == consumers.CLOSE_FLOODING
        await asyncio.sleep(0.5)  # the rest of the 300 frames are read meanwhile
        assert await socket.receive_nothing(timeout=0.5)
        assert holds == [devices[0][0].pk]
        assert answers <= consumers.MAX_FRAMES_PER_SECOND + consumers.FLOOD_LIMIT + 1
        await socket.disconnect()

    async_to_sync(run)()


def test_teacher_sees_only_their_own_sessions():
    """Teacher B gets 404 for teacher A's pages and commands, and their dashboard socket is closed."""
    session, _ = started_session(students=2)
    other = make_teacher()
    client = Client()
    client.force_login(other)
    for path in [
        f"/sessions/{session.pk}/",
        f"/sessions/{session.pk}/screen",
        f"/sessions/{session.pk}/dashboard.json",
        f"/sessions/{session.pk}/qr.svg",
    ]:
        assert client.get(path).status_code == 404, path
    assert client.post(f"/sessions/{session.pk}/do/end-now").status_code == 404
    session.refresh_from_db()
    assert session.status == "playing"
    sessionid = client.cookies["sessionid"].value

    async def run():
        socket = communicator(f"/ws/sessions/{session.pk}/", f"sessionid={sessionid}")
        connected, code = await socket.connect()
        assert not connected and code == CLOSE_NOT_FOUND

    async_to_sync(run)()


def test_owner_dashboard_gets_numbered_snapshots():
    """The owner's dashboard socket receives a snapshot with every table, then newer ones."""
    session, devices = started_session(students=2)
    client = Client()
    client.force_login(session.teacher)
    sessionid = client.cookies["sessionid"].value

    async def run():
        socket = communicator(f"/ws/sessions/{session.pk}/", f"sessionid={sessionid}")
        connected, _ = await socket.connect()
        assert connected
        first = await socket.receive_json_from(timeout=5)
        assert first["type"] == "dashboard" and first["seq"] == 1 and len(first["tables"]) == 1
        await database(services.ask_teacher, participant=devices[0][0])
        second = await socket.receive_json_from(timeout=5)
        assert second["seq"] == 2 and second["alerts"][0]["kind"] == "asking"
        await socket.disconnect()

    async_to_sync(run)()


def test_names_approved_while_a_snapshot_is_being_read_show_in_the_next_one(monkeypatch):
    """The teacher approves the names while the dashboard is reading the roster for a snapshot:
    the snapshot after it (a second on) shows them approved, on the teacher's page and the
    projector. Before, the roster read before the change was kept for the next snapshots, and the
    projector showed no names until the full re-read, 10 to 15 s later (made rare here)."""
    from classroom import consumers
    from tests.factories import join_students, make_session

    monkeypatch.setattr(consumers.DashboardConsumer, "REFRESH_SECONDS", 600)
    session = make_session()
    devices = join_students(session, 2)
    client = Client()
    client.force_login(session.teacher)
    read_snapshot, hold = consumers._dashboard_payload, {"next": False}

    async def run():
        read, go_on = asyncio.Event(), asyncio.Event()

        async def held_snapshot(*args):
            """The real read; the one after ``hold["next"]`` is set waits for ``go_on`` before
            it is sent, as a read on a busy database does."""
            answer = await read_snapshot(*args)
            if hold["next"]:
                hold["next"] = False
                read.set()
                await go_on.wait()
            return answer

        monkeypatch.setattr(consumers, "_dashboard_payload", held_snapshot)
        board = communicator(f"/ws/sessions/{session.pk}/", f"sessionid={client.cookies['sessionid'].value}")
        assert (await board.connect())[0]
        first = await board.receive_json_from(timeout=5)
        assert [p["approved"] for p in first["participants"]] == [False, False]
        hold["next"] = True
        await database(services.ask_teacher, participant=devices[0][0])  # a change: a snapshot is read
        await read.wait()
        assert await database(services.approve_all, session=session) == 2
        await asyncio.sleep(0.3)  # the dashboard hears of the approval while its read is held
        go_on.set()
        held = await board.receive_json_from(timeout=5)  # read before the approval
        assert held["alerts"] and [p["approved"] for p in held["participants"]] == [False, False]
        after = await board.receive_json_from(timeout=5)
        assert [p["approved"] for p in after["participants"]] == [True, True]
        await board.disconnect()

    async_to_sync(run)()


def test_the_dashboard_shows_a_tablet_come_online_by_socket_or_long_poll_at_once(monkeypatch):
    """A student's tablet opening its socket, or one on long-poll heard from again, shows online
    in the dashboard's next snapshot: not only at its full re-read, made rare here so that only
    the push can show it."""
    from classroom.consumers import DashboardConsumer
    from classroom.models import Participant

    monkeypatch.setattr(DashboardConsumer, "REFRESH_SECONDS", 600)
    session, devices = started_session(students=2)
    (p0, t0), (p1, _t1) = devices
    Participant.objects.filter(session=session).update(last_seen_at=None)  # not heard from lately
    p1.refresh_from_db()
    client = Client()
    client.force_login(session.teacher)

    def online(snapshot, participant):
        return next(s["online"] for t in snapshot["tables"] for s in t["seats"] if s["participant"] == participant.pk)

    async def until_online(board, participant):
        snapshot = await board.receive_json_from(timeout=5)
        while not online(snapshot, participant):
            snapshot = await board.receive_json_from(timeout=5)
        return snapshot

    async def run():
        board = communicator(f"/ws/sessions/{session.pk}/", f"sessionid={client.cookies['sessionid'].value}")
        assert (await board.connect())[0]
        first = await board.receive_json_from(timeout=5)
        assert not online(first, p0) and not online(first, p1)
        device, _lobby, _views = await open_device(session, t0)
        assert not online(await until_online(board, p0), p1)
        await database(services.touch, participant=p1)  # a long-poll from the second tablet
        await until_online(board, p1)
        await device.disconnect()
        await board.disconnect()

    async_to_sync(run)()


def test_dashboard_shows_a_tap_with_the_tables_whole_teacher_view():
    """After a student's tap, the dashboard's next snapshots show that table at the new version,
    board and all, exactly as the teacher view read from the database, its projector line beside
    it (screened for the class, ``scenarios.base.projected``); nothing else changes."""
    from games import services as games
    from scenarios.base import projected

    session, devices = started_session(students=2)
    (p0, t0), _ = devices
    game_id = p0.seats.get().table.game_id
    client = Client()
    client.force_login(session.teacher)

    async def run():
        board = communicator(f"/ws/sessions/{session.pk}/", f"sessionid={client.cookies['sessionid'].value}")
        assert (await board.connect())[0]
        first = await board.receive_json_from(timeout=5)
        [table] = first["tables"]
        device, lobby, [view] = await open_device(session, t0)
        ok = await answer_to(
            device,
            {
                "type": "act",
                "id": "dashboard-tap-01",
                "seat": lobby["seats"][0],
                "version": view["version"],
                "action": {"type": "wait"},
            },
        )
        assert ok["type"] == "ok"
        snapshot = await board.receive_json_from(timeout=5)
        while snapshot["tables"][0]["summary"]["version"] < ok["version"]:
            snapshot = await board.receive_json_from(timeout=5)
        expected = await database(lambda: games.current_view(Game.objects.get(pk=game_id), None))
        line = expected.pop("projector")
        assert snapshot["tables"][0]["summary"] == expected
        assert snapshot["tables"][0]["projector"] == projected(line, gentle=True)
        assert snapshot["tables"][0]["summary"]["view"] != table["summary"]["view"]
        assert snapshot["tables"][0]["seats"] == table["seats"] and snapshot["code"] == first["code"]
        await device.disconnect()
        await board.disconnect()

    async_to_sync(run)()


def test_closed_sockets_leave_no_subscription_or_task_behind():
    """A lesson's sockets come and go all day (the bell, shared tablets): once a tablet and a
    dashboard have closed, the process holds none of their channel-layer subscriptions, group
    memberships or reader tasks, while a tablet still open keeps hearing its table."""
    from channels.layers import get_channel_layer

    session, [(_p0, t0), (_p1, t1)] = started_session(students=2)
    client = Client()
    client.force_login(session.teacher)

    def readers():
        return [task for task in asyncio.all_tasks() if task.get_coro().__qualname__.startswith("Consumer.__call__")]

    async def run():
        layer = get_channel_layer()._get_layer()  # this event loop's subscriptions
        channels_before = set(layer.channels)
        stays, lobby, [view] = await open_device(session, t1)
        leaves, _lobby, _views = await open_device(session, t0)
        board = communicator(f"/ws/sessions/{session.pk}/", f"sessionid={client.cookies['sessionid'].value}")
        assert (await board.connect())[0]
        await board.receive_json_from(timeout=5)
        assert len(layer.channels) == len(channels_before) + 3
        assert len(readers()) == 6  # each socket reads its frames and its channel

        await leaves.disconnect()
        await board.disconnect()
        for _ in range(50):  # the readers are cancelled as the sockets close
            if len(layer.channels) == len(channels_before) + 1:
                break
            await asyncio.sleep(0.02)
        [kept] = set(layer.channels) - channels_before
        assert all(members <= {kept} for members in layer.groups.values())
        assert len(readers()) == 2

        ok = await answer_to(
            stays,
            {
                "type": "act",
                "id": "after-others-left",
                "seat": lobby["seats"][0],
                "version": view["version"],
                "action": {"type": "wait"},
            },
        )
        assert ok["type"] == "ok"
        await stays.disconnect()

    async_to_sync(run)()


def test_a_tap_while_redis_restarts_is_answered_and_play_resumes_after(private_redis, tap_driver):
    """Redis goes away mid-lesson: a tap is still applied and answered (the database has it),
    and the device's sync brings its view. Once Redis is back, tablemates see each other's taps
    again over the same sockets, within 10 s."""
    session, devices = started_session(students=2)
    (p0, t0), (_p1, t1) = devices
    game_id = p0.seats.get().table.game_id

    async def next_of(socket, kinds, timeout=5):
        while True:
            message = await socket.receive_json_from(timeout=timeout)
            if message["type"] in kinds:
                return message

    async def run():
        a, lobby_a, [view_a] = await open_device(session, t0)
        b, lobby_b, [_view_b] = await open_device(session, t1)
        seat_a = lobby_a["seats"][0]
        private_redis.stop()
        started = time.monotonic()
        ok = await answer_to(
            a,
            {
                "type": "act",
                "id": "tap-in-outage",
                "seat": seat_a,
                "version": view_a["version"],
                "action": {"type": "wait"},
            },
        )
        assert ok["type"] == "ok" and time.monotonic() - started < 5
        assert (await database(snapshot, game_id))[0] == ok["version"]
        await a.send_json_to({"type": "sync"})
        synced = await next_of(a, ("view",))
        assert synced["seat"] == seat_a and synced["version"] == ok["version"]

        private_redis.start()
        back = time.monotonic()
        version, heard = ok["version"], None
        while heard is None and time.monotonic() - back < 10:
            tap = await answer_to(
                a,
                {
                    "type": "act",
                    "id": f"tap-after-{version}",
                    "seat": seat_a,
                    "version": version,
                    "action": {"type": "wait"},
                },
            )
            assert tap["type"] == "ok"
            version = tap["version"]
            # A tap published before the layer has subscribed again is heard by no one (pub/sub
            # delivers at most once): tap again. Not a receive with a timeout, which ends the socket.
            if not await b.receive_nothing(timeout=1):
                heard = await next_of(b, ("view", "others"))
        assert heard is not None and heard["version"] >= ok["version"] + 1
        await a.disconnect()
        await b.disconnect()

    async_to_sync(run)()


def test_a_lobby_change_while_redis_is_down_is_saved_and_logged_not_raised(private_redis, caplog):
    """Every change is pushed by the same best-effort hand-off after commit: with the layer away
    a teacher's approval and a student's raised hand are still saved, and the failed push is
    logged instead of breaking the request."""
    session, devices = started_session(students=2)
    participant, _token = devices[0]
    private_redis.stop()
    services.approve(participant=participant, approved=False)
    assert services.ask_teacher(participant=participant)
    participant.refresh_from_db()
    assert not participant.approved and participant.asked_teacher_at is not None
    assert any("Could not" in record.getMessage() for record in caplog.records)


async def database(fn, *args, **kwargs):
    from channels.db import database_sync_to_async

    return await database_sync_to_async(fn)(*args, **kwargs)
