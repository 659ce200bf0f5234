"""One front door: the socket and the HTTP fallback read a device's frame with the same
``parse_frame`` and refuse a bad one with the same code and sentence."""

import json

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.urls import reverse

from classroom.consumers import token_cookie
from classroom.frames import MAX_FRAME_BYTES
from games.models import Game
from tests.classroom.test_sockets import open_device
from tests.factories import started_session

pytestmark = pytest.mark.django_db(transaction=True)

BAD_FRAMES = [
    ("{not json", "bad_frame", 400),
    ("[1, 2, 3]", "bad_frame", 400),
    ('{"id": "no-type-at-all"}', "bad_frame", 400),
    ("x" * (MAX_FRAME_BYTES + 1), "too_big", 413),
]


def test_socket_and_http_refuse_the_same_frames_alike_and_change_nothing():
    session, devices = started_session(students=2)
    participant, token = devices[0]
    game_id = participant.seats.get().table.game_id
    before = Game.objects.get(pk=game_id).version
    client = Client()
    client.cookies[token_cookie(session.pk)] = token
    url = reverse("classroom:play_act", args=[session.pk])

    by_http = []
    for raw, _code, _status in BAD_FRAMES:
        response = client.post(url, raw, content_type="application/json")
        by_http.append((response.json()["code"], response.json()["message"], response.status_code))

    async def by_socket():
        socket, _lobby, _views = await open_device(session, token)
        answers = []
        for raw, _code, _status in BAD_FRAMES:
            await socket.send_to(text_data=raw)
            answer = await socket.receive_json_from(timeout=5)
            answers.append((answer["code"], answer["message"]))
        await socket.disconnect()
        return answers

    assert [(code, status) for code, _message, status in by_http] == [(c, s) for _r, c, s in BAD_FRAMES]
    assert async_to_sync(by_socket)() == [(code, message) for code, message, _status in by_http]
    assert all(message for _code, message, _status in by_http)
    assert Game.objects.get(pk=game_id).version == before


def test_a_stranger_gets_the_unknown_device_refusal_from_the_table():
    session, _devices = started_session(students=2)
    response = Client().post(
        reverse("classroom:play_act", args=[session.pk]), json.dumps({"type": "act"}), content_type="application/json"
    )
    assert response.status_code == 403
    assert response.json()["code"] == "unknown_device" and response.json()["message"]
