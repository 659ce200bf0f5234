"""Only what the engine knows is stored: both submit paths (the ORM's ``submit`` and a socket's
``asubmit`` on PostgreSQL) keep the canonical action, and refuse unknown fields and free text
with a clear error, changing nothing."""

import pytest
from asgiref.sync import async_to_sync

from classroom.consumers import token_cookie
from config.asgi import application
from games import pgpool
from games import services as games
from games.models import Game, Move
from games.pipeline import device_action_id
from games.refusals import Refused
from tests.factories import started_session
from tests.sockets import WebsocketCommunicator

FREE_TEXT = "my name is Ana Lopez, 12 Elm Street"


def _seat_game(participant):
    seat = participant.seats.select_related("table").get()
    return seat.number, seat.table.game_id


@pytest.mark.django_db
def test_submit_refuses_unknown_fields_and_stores_the_canonical_action():
    """An action with a field the engine does not know is refused and nothing is stored; one with
    a known field in a different order is stored in the engine's own form."""
    session, devices = started_session(students=2)
    (ana, _token), _ = devices
    seat, game_id = _seat_game(ana)
    before = Game.objects.get(pk=game_id).version
    with pytest.raises(Refused) as refused:
        games.submit(game_id=game_id, seat=seat, action={"type": "wait", "note": FREE_TEXT}, action_id="tap-00000001")
    assert refused.value.code == "unknown_field"
    assert Game.objects.get(pk=game_id).version == before
    assert not Move.objects.filter(game_id=game_id, action_id="tap-00000001").exists()

    with pytest.raises(Refused) as refused:
        games.submit(
            game_id=game_id,
            seat=seat,
            action={"type": "set_destination", "destination": "shelter", "why": FREE_TEXT},
            action_id="tap-00000002",
        )
    assert refused.value.code == "unknown_field"

    outcome = games.submit(
        game_id=game_id,
        seat=seat,
        action={"destination": "shelter", "type": "set_destination"},
        action_id="tap-00000003",
    )
    assert list(outcome.move.action.items()) == [("type", "set_destination"), ("destination", "shelter")]
    assert Move.objects.get(pk=outcome.move.pk).action == {"type": "set_destination", "destination": "shelter"}
    assert not Move.objects.filter(game_id=game_id, action__icontains="Lopez").exists()


@pytest.mark.django_db(transaction=True)
def test_a_sockets_tap_on_postgresql_stores_only_the_canonical_action():
    """A tap through the socket (``asubmit``) carrying free text is refused with a clear message,
    and a clean tap is stored as the engine knows it."""
    assert pgpool.available(), "this test is about the async PostgreSQL path"
    session, devices = started_session(students=2)
    (ana, token), _ = devices
    seat, game_id = _seat_game(ana)

    async def run():
        sock = WebsocketCommunicator(
            application,
            f"/ws/play/{session.pk}/",
            headers=[
                (b"origin", b"http://testserver"),
                (b"host", b"testserver"),
                (b"cookie", f"{token_cookie(session.pk)}={token}".encode()),
            ],
        )
        connected, _ = await sock.connect()
        assert connected
        await sock.receive_json_from(timeout=5)  # lobby
        view = await sock.receive_json_from(timeout=5)
        await sock.send_json_to(
            {
                "type": "act",
                "id": "tap-00000010",
                "seat": seat,
                "version": view["version"],
                "action": {"type": "wait", "note": FREE_TEXT},
            }
        )
        refused = await sock.receive_json_from(timeout=10)
        await sock.send_json_to(
            {"type": "act", "id": "tap-00000011", "seat": seat, "version": view["version"], "action": {"type": "wait"}}
        )
        answers = [await sock.receive_json_from(timeout=10) for _ in range(2)]
        await sock.disconnect()
        return refused, answers

    refused, answers = async_to_sync(run)()
    assert refused["type"] == "error" and refused["code"] == "unknown_field", refused
    assert "does not know" in refused["message"]
    assert any(a.get("type") == "ok" and a.get("id") == "tap-00000011" for a in answers), answers
    ids = {own: device_action_id(str(ana.pk), own) for own in ("tap-00000010", "tap-00000011")}
    assert not Move.objects.filter(game_id=game_id, action_id=ids["tap-00000010"]).exists()
    assert Move.objects.get(game_id=game_id, action_id=ids["tap-00000011"]).action == {"type": "wait"}
