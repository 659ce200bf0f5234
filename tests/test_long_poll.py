"""The HTTP fallback's long poll waits for the table's change rather than reading in a loop.

A waiting poll is answered by a tablemate's move and writes the device's ``last_seen_at`` once;
one device's polls past a few are refused at once while its classmates are answered; waiting
polls hold no PostgreSQL connection. Served over real HTTP, by ``manage.py serve`` (PostgreSQL,
the Redis layer) and by uvicorn in the test process with the embedded server's in-memory layer.
"""

import json
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor, as_completed
from datetime import timedelta
from urllib.parse import quote

import pytest
from django.utils import timezone
from websockets.sync.client import connect

from classroom.consumers import token_cookie
from classroom.models import Participant
from classroom.polls import POLLS_PER_DEVICE
from games.models import Game
from scenarios import registry
from tests.factories import started_session
from tests.served import Served

ANSWER_SECONDS = 60  # the longest any request here is waited for (the poll itself answers in 20)


def quiet_session(students):
    """A started lesson where nothing moves by itself: no bots, no turn timers."""
    return started_session(students=students, fill_with_bots=False, turn_timer=False)


def poll(base, session, token, since, timeout=ANSWER_SECONDS):
    """(status, body, Retry-After) of ``GET /play/<id>/poll?since=``."""
    request = urllib.request.Request(
        f"{base}/play/{session.pk}/poll?since={quote(since)}", headers={"Cookie": f"{token_cookie(session.pk)}={token}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read()), answer.headers.get("Retry-After")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), error.headers.get("Retry-After")


def join_page(base) -> int:
    with urllib.request.urlopen(f"{base}/join", timeout=ANSWER_SECONDS) as answer:
        return answer.status


def await_true(check, timeout=30, what="the condition"):
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what} did not come within {timeout} s"
        time.sleep(0.05)


def last_seen(participant):
    return Participant.objects.values_list("last_seen_at", flat=True).get(pk=participant.pk)


def waiting(participants, since):
    """Each participant's poll has made its first read (it wrote ``last_seen_at``)."""
    return lambda: (
        Participant.objects.filter(pk__in=[p.pk for p in participants], last_seen_at__gt=since).count()
        == len(participants)
    )


@pytest.fixture(params=["served", "embedded_layer"])
def server(request, transactional_db, settings):
    """A server's base address: ``manage.py serve`` on PostgreSQL and Redis, or the ASGI app in
    this process with the embedded server's in-memory channel layer."""
    if request.param == "served":
        served = Served().start()
        yield served.base
        served.stop()
    else:
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "classroom.fast.memory_layer.InMemoryChannelLayer"}}
        yield request.getfixturevalue("asgi_server")


def test_a_waiting_poll_is_answered_by_a_tablemates_move(server):
    """A tablet on the fallback waiting with the screen it shows gets the new view when a
    tablemate moves (by socket), and its ``last_seen_at`` is written once for the whole wait,
    not on every read of a loop."""
    session, devices = quiet_session(students=2)
    game = Game.objects.get(pk=session.tables.get().game_id)
    engine = registry.engine(session.scenario)
    state = engine.load(game.state)
    seats = {participant.seats.get().number: (participant, token) for participant, token in devices}
    mover = next(seat for seat in engine.to_act(state) if seat in seats)
    (waiter, waiter_token), (_mate, mate_token) = seats[next(s for s in seats if s != mover)], seats[mover]

    status, shown, _ = poll(server, session, waiter_token, "")
    assert status == 200
    before = timezone.now()
    with ThreadPoolExecutor(max_workers=1) as pool:
        answer = pool.submit(poll, server, session, waiter_token, shown["stamp"])
        await_true(waiting([waiter], before), what="the poll's first read")
        long_ago = timezone.now() - timedelta(hours=1)
        Participant.objects.filter(pk=waiter.pk).update(last_seen_at=long_ago)

        ws_base = server.replace("http://", "ws://")
        with connect(
            f"{ws_base}/ws/play/{session.pk}/",
            origin=server,
            additional_headers={"Cookie": f"{token_cookie(session.pk)}={mate_token}"},
            open_timeout=10,
        ) as mate:
            frame = {
                "type": "act",
                "id": "mate-move-0001",
                "seat": mover,
                "version": game.version,
                "action": engine.actions(state, mover)[0],
            }
            mate.send(json.dumps(frame))
            while (message := json.loads(mate.recv(timeout=ANSWER_SECONDS))).get("id") != frame["id"]:
                pass
            assert message["type"] == "ok", message
            status, moved, _ = answer.result(timeout=ANSWER_SECONDS)
    assert status == 200
    assert moved["stamp"] != shown["stamp"]
    assert [view["version"] for view in moved["views"]] == [game.version + 1]
    assert last_seen(waiter) == long_ago  # written once, before the wait


def test_one_device_past_a_few_polls_is_refused_at_once_and_its_classmates_are_answered(server):
    """A device opening ten polls keeps ``POLLS_PER_DEVICE`` waiting; the rest are answered 429
    with Retry-After while those still wait, and a classmate's /join and poll are answered."""
    session, devices = quiet_session(students=2)
    (_flooder, token), (_mate, mate_token) = devices
    status, shown, _ = poll(server, session, token, "")
    assert status == 200
    with ThreadPoolExecutor(max_workers=12) as pool:
        polls = [pool.submit(poll, server, session, token, shown["stamp"]) for _ in range(10)]
        refused = []
        for done in as_completed(polls, timeout=ANSWER_SECONDS):
            status, body, retry_after = done.result()
            if status != 429:
                break  # a waiting poll answered: the rest were never refused while it waited
            assert body["code"] == "too_fast" and int(retry_after) >= 1
            refused.append(done)
            if len(refused) == 10 - POLLS_PER_DEVICE:
                break
        assert len(refused) == 10 - POLLS_PER_DEVICE
        assert sum(1 for p in polls if not p.done()) == POLLS_PER_DEVICE  # still waiting

        assert join_page(server) == 200
        status, state, _ = poll(server, session, mate_token, "")
        assert status == 200 and state["type"] == "state"
        assert sum(1 for p in polls if not p.done()) == POLLS_PER_DEVICE
        for p in set(polls) - set(refused):  # the waiting two end at the poll's own time limit
            assert p.result(timeout=ANSWER_SECONDS)[0] == 200


def test_waiting_polls_hold_no_database_connection(transactional_db):
    """Ten tablets waiting on the fallback at once, on a server whose pool has three PostgreSQL
    connections: while they all wait, a classmate's join page still reads the database at once
    and the server holds no more than its three. Each poll used to hold one for its whole wait,
    which here would leave the join page waiting for a connection until it failed."""
    count = 10
    session, devices = quiet_session(students=count)
    server = Served(DB_POOL_SIZE=3, DB_POOL_TIMEOUT=3).start()
    try:
        stamps = [poll(server.base, session, token, "")[1]["stamp"] for _p, token in devices]
        Participant.objects.filter(session=session).update(last_seen_at=None)
        started = timezone.now() - timedelta(seconds=1)
        with ThreadPoolExecutor(max_workers=count) as pool:
            polls = [
                pool.submit(poll, server.base, session, token, stamp)
                for (_p, token), stamp in zip(devices, stamps, strict=True)
            ]
            await_true(waiting([p for p, _t in devices], started), what="every poll's first read")
            with urllib.request.urlopen(f"{server.base}/join/{session.join_code}", timeout=ANSWER_SECONDS) as answer:
                assert answer.status == 200
            assert server.database_connections() <= 3
            assert not any(p.done() for p in polls)  # all still waiting while the class joined
            for p in polls:
                assert p.result(timeout=ANSWER_SECONDS)[0] == 200
    finally:
        server.stop()
