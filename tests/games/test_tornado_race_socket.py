"""Tornado Alert!'s slap race through the socket path (the real consumer, pipeline, PostgreSQL
and Redis): no tablet can settle a race, a slap is judged by the pile it was aimed at whatever
else changed in the tablet's view, the race's deadline is fixed by its first slap, and each
tablet reads what truly happened, in its own language (RULES.md, "Slapping on a school network")."""

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.utils import timezone

from classroom.models import Participant
from games import services as games
from games.models import Game, Move
from scenarios.tornado_alert import rules
from tests.classroom.test_sockets import answer_to, database, open_device, snapshot, tap_driver  # noqa: F401
from tests.factories import started_session

pytestmark = pytest.mark.django_db(transaction=True)


def table(languages=("en", "en", "en", "en")):
    """A started four-seat table of students (no bots, no turn timer), each tablet in its
    language; returns the session, the game id and each seat's device token."""
    session, devices = started_session(
        students=4,
        scenario="tornado_alert",
        seats_per_table=4,
        fill_with_bots=False,
        turn_timer=False,
        seed=9,
        options={"allowance_ms": 0},  # the race window alone (the allowance: test_allowance.py)
    )
    tokens = {}
    for (participant, token), _language in zip(devices, languages):
        seat = participant.seats.get().number
        tokens[seat] = token
    for participant, _token in devices:
        Participant.objects.filter(pk=participant.pk).update(language=languages[participant.seats.get().number])
    return session, participant.seats.get().table.game_id, tokens


def act(seat, version, action, frame_id):
    return {"type": "act", "id": frame_id, "seat": seat, "version": version, "action": action}


def race_timer(game_id):
    return {k: v for k, v in Game.objects.get(pk=game_id).timers.items() if k.startswith(games.SYSTEM_TIMER)}


def settle_due(game_id):
    """The deadline loop's pass, a second after now: the race's deadline has passed."""
    return games.sweep_due(timezone.now() + timedelta(seconds=1))


def test_no_tablet_settles_a_race_two_slaps_at_one_pile_both_count_and_the_deadline_stays(tap_driver):
    session, game_id, tokens = table(languages=("nl",) * 4)
    game = Game.objects.get(pk=game_id)
    player = game.state["turn"]
    nxt, first, late = [(player + k) % 4 for k in (1, 2, 3)]
    card = next(c for c in game.state["hands"][player] if rules.CARDS[c]["value"] >= 1)

    async def run():
        sockets = {}
        views = {}
        for seat, token in tokens.items():
            sockets[seat], _lobby, [views[seat]] = await open_device(session, token)
        played = await answer_to(
            sockets[player], act(player, views[player]["version"], {"type": "play", "card": card}, "play-0000001")
        )
        assert played["type"] == "ok"
        version = played["version"]  # every tablet's view of the pile just played
        state = (await database(Game.objects.get, pk=game_id)).state
        assert any(a["type"] == "play" for a in rules.actions(state, nxt))  # the next player may play...
        slap = {"type": "slap", "pile": state["pile_id"]}

        # the first slap opens the race; the next player's "play" choices vanish (its view changed)
        opened = await answer_to(sockets[first], act(first, version, slap, "slap-first-01"))
        assert opened["type"] == "ok"
        timer = await database(race_timer, game_id)
        assert len(timer) == 1

        # a crafted settle from the opener's tablet is refused as unknown and changes nothing
        before = await database(snapshot, game_id)
        crafted = await answer_to(sockets[first], act(first, opened["version"], {"type": "settle"}, "settle-crafted"))
        assert crafted["type"] == "error" and crafted["code"] == "unknown_action"
        assert await database(snapshot, game_id) == before

        # ...yet its slap, chosen on the view before the race opened, aimed at the same pile, counts
        joined = await answer_to(sockets[nxt], act(nxt, version, slap, "slap-next-001"))
        assert joined["type"] == "ok", joined
        state = (await database(Game.objects.get, pk=game_id)).state
        assert state["race"]["slaps"] == [first, nxt]
        assert await database(race_timer, game_id) == timer  # joining did not move the deadline

        # the deadline loop settles it: a system move, a fair draw between the two
        assert await database(settle_due, game_id) >= 1
        game = await database(Game.objects.get, pk=game_id)
        settle = await database(lambda: Move.objects.get(game_id=game_id, action__type="settle"))
        assert settle.seat is None and settle.actor == Move.Actor.SYSTEM
        taken = game.state["last_take"]
        assert taken["how"] == "draw" and taken["slaps"] == [first, nxt] and taken["seat"] in (first, nxt)

        # a slap that arrives after the draw: "too late", in the tablet's language (Dutch here)
        too_late = await answer_to(sockets[late], act(late, version, slap, "slap-late-001"))
        assert too_late["type"] == "error" and too_late["code"] == "too_late"
        assert too_late["message"] == f"Te laat: de stapel is al gepakt door speler {taken['seat'] + 1}."
        for socket in sockets.values():
            await socket.disconnect()

    async_to_sync(run)()


def test_a_slap_at_a_pile_that_changed_is_still_refused():
    """Judging a slap by its pile only does not let an old slap take a new pile."""
    session, game_id, tokens = table()
    game = Game.objects.get(pk=game_id)
    player = game.state["turn"]
    other = (player + 2) % 4
    card = next(c for c in game.state["hands"][player] if rules.CARDS[c]["value"] >= 1)
    old_pile = game.state["pile_id"]
    games.submit(game_id=game_id, seat=player, action={"type": "play", "card": card}, version=game.version)

    async def run():
        socket, _lobby, [view] = await open_device(session, tokens[other])
        before = await database(snapshot, game_id)
        answer = await answer_to(
            socket, act(other, view["version"], {"type": "slap", "pile": old_pile}, "slap-old-0001")
        )
        assert answer["type"] == "error" and answer["code"] == "pile_changed"
        assert await database(snapshot, game_id) == before
        await socket.disconnect()

    async_to_sync(run)()
