"""A device names its own taps, and only its own: whatever id a tablet sends, the server's steps
(a race's settle, a bot's step, a timer's) keep theirs and still happen, a device's retry of the
same id is still answered once, and a table whose sweep fails holds up no other table.

Played through the real server (uvicorn, its deadline loop, PostgreSQL, Redis) with a tablet's
real socket, and through the HTTP fallback."""

import asyncio
import json
import time
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from classroom.consumers import token_cookie
from games import services as games
from games.models import Game, Move
from scenarios.tornado_alert import rules
from tests.factories import started_session

pytestmark = pytest.mark.django_db(transaction=True)


def tornado_table():
    """A started four-seat Tornado Alert! table of students (no bots, no turn timer, no reaction
    allowance: a race is settled by the server's step alone): the session, its game id and each
    seat's device token."""
    session, devices = started_session(
        students=4,
        scenario="tornado_alert",
        seats_per_table=4,
        fill_with_bots=False,
        turn_timer=False,
        seed=9,
        options={"allowance_ms": 0},
    )
    tokens = {participant.seats.get().number: token for participant, token in devices}
    return session, devices[0][0].seats.get().table.game_id, tokens


def play_a_card(game_id):
    """The player whose turn it is lays a card worth slapping; returns the game after it."""
    game = Game.objects.get(pk=game_id)
    player = game.state["turn"]
    card = next(c for c in game.state["hands"][player] if rules.CARDS[c]["value"] >= 1)
    return games.submit(game_id=game_id, seat=player, action={"type": "play", "card": card}, version=game.version).game


def settle_id(state):
    """The name the server gives the settle of the race this state has open (or opens next)."""
    return games.server_action_id("system", None, f"race-{state['round']}-{state['races']}")


class Tablet:
    """One device's real socket to the served app: its seat's latest view and its answers."""

    def __init__(self, base, session_id, token, seat):
        self.url = base.replace("http://", "ws://") + f"/ws/play/{session_id}/"
        self.headers = {"Cookie": f"{token_cookie(session_id)}={token}"}
        self.seat, self.view, self.answers = seat, None, {}

    async def __aenter__(self):
        import websockets

        self.ws = await websockets.connect(self.url, additional_headers=self.headers, compression=None)
        self.reader = asyncio.create_task(self._read())
        await until(lambda: self.view is not None)
        return self

    async def __aexit__(self, *exc):
        self.reader.cancel()
        await self.ws.close()

    async def _read(self):
        async for text in self.ws:
            message = json.loads(text)
            if message.get("type") == "view" and message.get("seat") == self.seat:
                self.view = message
            elif message.get("type") in ("ok", "error"):
                self.answers.setdefault(message.get("id"), []).append(message)

    async def act(self, frame_id, action, version):
        """Send one ``act`` frame and return its (latest) answer."""
        before = len(self.answers.get(frame_id, []))
        frame = {"type": "act", "id": frame_id, "seat": self.seat, "version": version, "action": action}
        await self.ws.send(json.dumps(frame))
        await until(lambda: len(self.answers.get(frame_id, [])) > before)
        return self.answers[frame_id][-1]


async def until(test, timeout=30.0):
    """Wait for ``test()``; a wait, not a timing check, generous for a busy machine."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if test():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the condition never held")


async def in_database(fn):
    from channels.db import database_sync_to_async

    return await database_sync_to_async(fn)()


def test_a_slap_named_as_the_next_settle_does_not_freeze_the_table(asgi_server):
    """A legal slap sent with the id the server will give this race's settle counts as a slap,
    and the deadline loop still settles the race: the table moves on."""
    session, game_id, tokens = tornado_table()
    game = play_a_card(game_id)
    slapper = (game.state["turn"] + 1) % 4
    squatted, pile = settle_id(game.state), game.state["pile_id"]

    async def run():
        async with Tablet(asgi_server, session.pk, tokens[slapper], slapper) as tablet:
            answer = await tablet.act(squatted, {"type": "slap", "pile": pile}, game.version)
            assert answer["type"] == "ok" and answer["id"] == squatted and not answer["replayed"], answer

            def settled():
                return (Game.objects.get(pk=game_id).state.get("last_take") or {}).get("pile") == pile

            await until(lambda: tablet.view["view"]["last_take"] and tablet.view["view"]["last_take"]["pile"] == pile)
            assert await in_database(settled)

    asyncio.run(run())
    settle = Move.objects.get(game_id=game_id, action__type="settle")
    assert settle.actor == Move.Actor.SYSTEM and settle.action_id == squatted
    slap = Move.objects.get(game_id=game_id, action__type="slap")
    assert slap.seat == slapper and slap.actor == Move.Actor.STUDENT


def test_a_tap_named_as_a_past_server_step_is_played_and_its_retry_answered_once(asgi_server):
    """A tap whose id is a step the server took already is a tap of its own, not that step
    replayed; the device sending it again, by socket or by the HTTP fallback, is answered with
    the same move and nothing is played twice."""
    session, game_id, tokens = tornado_table()
    game = play_a_card(game_id)
    slapper = (game.state["turn"] + 1) % 4
    races = game.state["races"]
    games.submit(
        game_id=game_id, seat=slapper, action={"type": "slap", "pile": game.state["pile_id"]}, version=game.version
    )
    games.sweep_due(timezone.now() + timedelta(seconds=5))  # the race's deadline has passed: settled
    settled = Game.objects.get(pk=game_id)
    assert settled.state["races"] == races + 1
    taken = Move.objects.get(game_id=game_id, action__type="settle").action_id
    seat = next(s for s in range(4) if any(a["type"] == "play" for a in rules.actions(settled.state, s)))
    card = next(a for a in rules.actions(settled.state, seat) if a["type"] == "play")

    async def run():
        async with Tablet(asgi_server, session.pk, tokens[seat], seat) as tablet:
            first = await tablet.act(taken, card, settled.version)
            again = await tablet.act(taken, card, settled.version)
            return first, again

    first, again = asyncio.run(run())
    assert first["type"] == "ok" and not first["replayed"] and first["id"] == taken, first
    assert first["seat"] == seat and first["version"] == settled.version + 1
    assert again["type"] == "ok" and again["replayed"] and again["version"] == first["version"], again
    assert again["events"] == first["events"]

    fallback = Client()
    fallback.cookies[token_cookie(session.pk)] = tokens[seat]
    frame = {"type": "act", "id": taken, "seat": seat, "version": settled.version, "action": card}
    answer = fallback.post(f"/play/{session.pk}/act", json.dumps(frame), content_type="application/json").json()
    assert answer["type"] == "ok" and answer["replayed"] and answer["id"] == taken, answer

    game = Game.objects.get(pk=game_id)
    assert game.version == settled.version + 1
    played = Move.objects.filter(game_id=game_id, actor=Move.Actor.STUDENT, seat=seat, action=card)
    assert played.count() == 1
    assert Move.objects.filter(game_id=game_id, action__type="settle").count() == 1


def test_a_sweep_that_fails_on_one_table_still_plays_the_others():
    """A table whose due step cannot be worked out (its stored state is unreadable) is logged and
    passed by: the same pass still plays the bot due at another table."""
    broken = games.create_game(scenario="tornado_alert", seed=1, seats=4, bots={1: "photographer"})
    Game.objects.filter(pk=broken.pk).update(
        state={"unreadable": True}, timers={"1": timezone.now().isoformat()}, next_deadline=timezone.now()
    )
    healthy = games.create_game(scenario="evacuation", seed=1, seats=2, bots={1: "cautious"}, bot_step_seconds=0)
    healthy.refresh_from_db()
    assert healthy.pk > broken.pk and "1" in healthy.timers  # swept after the broken table

    made = games.sweep_due(timezone.now() + timedelta(seconds=5))

    assert made >= 1
    assert Move.objects.filter(game_id=healthy.pk, actor=Move.Actor.BOT).exists()
    assert Game.objects.get(pk=healthy.pk).version > healthy.version
    assert not Move.objects.filter(game_id=broken.pk).exists()
