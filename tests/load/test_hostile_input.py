"""Hostile input: thousands of random and malformed socket frames and HTTP posts from a seeded
generator. None crashes a socket or answers 500; every frame gets an error (or is ignored) and
the game is exactly as it was.

``STORMWISE_LOAD_HEAVY=1`` multiplies the counts by five.
"""

import json
import os
import random

import pytest
from asgiref.sync import async_to_sync
from django.test import Client

from classroom import consumers, ratelimit
from classroom.consumers import MAX_FRAME_BYTES, token_cookie
from config.asgi import application
from games.models import Game
from scenarios.evacuation import rules
from tests.factories import started_session
from tests.sockets import WebsocketCommunicator

pytestmark = pytest.mark.django_db(transaction=True)

SCALE = 5 if os.environ.get("STORMWISE_LOAD_HEAVY") == "1" else 1
WS_FRAMES = 8000 * SCALE
HTTP_POSTS = 2000 * SCALE

ACTION_TYPES = [
    "drive",
    "withdraw",
    "buy_fuel",
    "buy_supplies",
    "buy_home_supplies",
    "pick_up_friends",
    "reason",
    "stay_home",
    "set_destination",
    "tow",
    "wait",
    "end_now",
    "",
    "DRIVE",
    "__class__",
]
FIELDS = ["to", "amount", "gallons", "units", "about", "choice", "type", "destination", "seat"]


def junk(rng, depth=0):
    """Any JSON value, biased towards the awkward ones."""
    pick = rng.randrange(14 if depth < 3 else 9)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.choice([0, -1, 1, 2**31, 2**63, -(2**63) - 1, 10**30, rng.randrange(-50, 50)])
    if pick == 3:
        return rng.choice([0.5, -1e308, 1e308, float("nan"), float("inf"), -0.0])
    if pick in (4, 5, 6):
        alphabet = "aZ09 _-\x00\u202e\ud7ff\U0001f300\"\\/<>'%;"
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
    if pick == 7:
        return rng.choice(list(rules.NODE_IDS) + ["home", "HM", "relative", "hotel", "shelter"])
    if pick == 8:
        return rng.choice(ACTION_TYPES)
    if pick in (9, 10):
        return [junk(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    return {rng.choice(FIELDS + ["x", ""]): junk(rng, depth + 1) for _ in range(rng.randrange(0, 4))}


def action(rng):
    out = {"type": rng.choice(ACTION_TYPES) if rng.random() < 0.9 else junk(rng)}
    for _ in range(rng.randrange(0, 3)):
        out[rng.choice(FIELDS)] = junk(rng)
    return out


def is_legal(state, seat, candidate):
    try:
        return rules.legal(state, seat, candidate)
    except Exception:  # the server must survive whatever the engine does with it; checked there
        return False


def frame(rng, own_seat, other_seat, version, state):
    """One hostile frame (text or bytes). Acts that happen to be legal carry a future version,
    so the test can demand that nothing at all is applied."""
    kind = rng.randrange(12)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if kind == 1:
        size = rng.choice([MAX_FRAME_BYTES + 1, MAX_FRAME_BYTES * 4, 70_000])
        return '{"type":"act","id":"' + "x" * size + '"}'
    if kind == 2:
        nest = rng.randrange(100, MAX_FRAME_BYTES // 2 - 2)
        return rng.choice(["[" * nest + "]" * nest, '{"a":' * nest + "1" + "}" * nest, "[" * nest])
    if kind == 3:
        text = json.dumps({"type": "act", "id": "x" * 12, "seat": own_seat, "version": version, "action": action(rng)})
        return text[: rng.randrange(len(text))]
    if kind == 4:
        return json.dumps(junk(rng))
    if kind == 5:
        return json.dumps({"type": junk(rng), "id": junk(rng), "t": junk(rng)})
    if kind == 6:
        return json.dumps({"type": "sync", "seat": junk(rng)})
    message = {"type": "act"}
    for key, good in (("id", f"fuzz-{rng.random():.12f}"), ("seat", own_seat), ("version", version), ("action", None)):
        roll = rng.random()
        if key == "action":
            message[key] = action(rng) if roll < 0.85 else junk(rng)
        elif roll < 0.6:
            message[key] = good
        elif roll < 0.7 and key == "seat":
            message[key] = other_seat
        elif roll < 0.9:
            message[key] = junk(rng)
    if (
        message.get("seat") == own_seat
        and isinstance(message.get("action"), dict)
        and is_legal(state, own_seat, message["action"])
    ):
        message["version"] = version + 7
    return json.dumps(message)


def snapshot(game_id):
    game = Game.objects.get(pk=game_id)
    return game.version, game.state, game.seat_marks, game.moves.count()


@pytest.fixture
def no_rate_limit(monkeypatch):
    """The fuzz is about what a frame says, not how fast or big it comes (flooding is tested
    apart, in tests/test_amplification.py)."""
    monkeypatch.setattr(consumers, "MAX_FRAMES_PER_SECOND", 10**6)
    monkeypatch.setattr(consumers, "ACT_BURST", 10**6)
    monkeypatch.setattr(consumers, "FLOOD_LIMIT", 10**6)
    monkeypatch.setattr(ratelimit, "hit", lambda key, amount, seconds: True)


def test_random_socket_frames_are_refused_and_change_nothing(no_rate_limit):
    """Thousands of hostile frames: every one answered with an error, a pong or the state; the
    socket stays open; the game and its move log are unchanged."""
    session, devices = started_session(students=2, seed=77)
    (p0, t0), (p1, _t1) = devices
    game_id = p0.seats.get().table.game_id
    before = snapshot(game_id)
    game = Game.objects.get(pk=game_id)
    state = rules.load(game.state)
    rng = random.Random(20240508)

    async def run():
        socket = WebsocketCommunicator(
            application,
            f"/ws/play/{session.pk}/",
            headers=[
                (b"origin", b"http://testserver"),
                (b"host", b"testserver"),
                (b"cookie", f"{token_cookie(session.pk)}={t0}".encode()),
            ],
        )
        connected, _ = await socket.connect()
        assert connected
        lobby = await socket.receive_json_from(timeout=5)
        view = await socket.receive_json_from(timeout=5)
        own, other = lobby["seats"][0], 1 - lobby["seats"][0]
        kinds = {}
        for index in range(WS_FRAMES):
            data = frame(rng, own, other, view["version"], state)
            key = "bytes" if isinstance(data, bytes) else "text"
            await socket.send_input({"type": "websocket.receive", key: data})  # empty frames too
            await socket.send_to(text_data=json.dumps({"type": "ping", "t": index}))
            while True:
                output = await socket.receive_output(timeout=10)
                assert output["type"] == "websocket.send", (data, output)
                answer = json.loads(output["text"])
                if answer["type"] == "pong" and answer.get("t") == index:
                    break
                assert answer["type"] in ("error", "pong", "lobby", "view"), (data, answer)
                if answer["type"] == "error":
                    assert isinstance(answer["code"], str) and answer["message"], answer
                kinds[answer.get("code", answer["type"])] = kinds.get(answer.get("code", answer["type"]), 0) + 1
        assert kinds.get("too_big") and kinds.get("bad_frame") and kinds.get("not_your_seat")
        assert not kinds.get("unavailable"), "an act failed with the database up: a crash, answered as a hiccup"
        await socket.disconnect()
        return kinds

    kinds = async_to_sync(run)()
    assert snapshot(game_id) == before, kinds


def test_random_http_posts_never_answer_500_and_change_nothing(no_rate_limit):
    """The HTTP fallback answers every hostile body with a 4xx or an error in JSON, never a 500."""
    session, devices = started_session(students=2, seed=78)
    (p0, t0), _ = devices
    game_id = p0.seats.get().table.game_id
    before = snapshot(game_id)
    game = Game.objects.get(pk=game_id)
    seat = p0.seats.get().number
    rng = random.Random(8)
    client = Client()  # raises on any exception in a view, so a 500 fails the test with its traceback
    statuses = {}
    for _ in range(HTTP_POSTS):
        roll = rng.random()
        if roll < 0.8:
            client.cookies[token_cookie(session.pk)] = t0
        elif roll < 0.9:
            client.cookies[token_cookie(session.pk)] = "".join(
                rng.choice('abcXYZ019-_%"\\') for _ in range(rng.randrange(40))
            )
        else:
            client.cookies.pop(token_cookie(session.pk), None)
        body = frame(rng, seat, 1 - seat, game.version, rules.load(game.state))
        target = session.pk if rng.random() < 0.95 else rng.choice([session.pk + 10_000, 0])
        content_type = rng.choice(["application/json", "text/plain", "application/x-www-form-urlencoded"])
        answer = client.post(f"/play/{target}/act", data=body, content_type=content_type)
        statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
        assert answer.status_code in (200, 400, 403, 404, 405, 413), (body, answer.status_code)
        if answer.status_code == 200:
            payload = answer.json()
            assert payload["type"] == "error" and payload["code"], (body, payload)
    assert snapshot(game_id) == before, statuses
