"""Tornado Alert!'s slap races through the real socket, with tablets on unequal Wi-Fi: each
tablet's slap leaves after its own artificial delay (the extra latency of a tablet far from the
access point), both aimed at the same pile, tapped at the same moment.

With the race window on (RULES.md, "Slapping on a school network") the slower tablet still wins
some races, and every race has exactly one winner; with the window off (the "as printed" preset)
the tablet nearest the access point always wins."""
import asyncio
import json
import time
import uuid

import pytest

from classroom import services
from games.models import Game, Move
from scenarios.tornado_alert import rules
from scenarios.tornado_alert.bots import photographer
from tests.factories import join_students, make_session

pytestmark = pytest.mark.django_db(transaction=True)
#: each seat's extra one-way latency, seconds: seat 0 sits by the access point
LATENCY = [0.0, 0.15, 0.3]  # wide gaps, so a busy test machine cannot swap who arrives first


class Tablet:
    def __init__(self, base, session_id, token, seat):
        self.url = base.replace("http://", "ws://") + f"/ws/play/{session_id}/"
        self.headers = {"Cookie": f"sw_{session_id}={token}"}
        self.seat, self.view, self.version, self.answers = seat, None, 0, {}

    async def open(self):
        import websockets

        self.ws = await websockets.connect(self.url, additional_headers=self.headers, compression=None)
        self.reader = asyncio.create_task(self.read())
        while self.view is None:
            await asyncio.sleep(0.01)

    async def read(self):
        async for text in self.ws:
            message = json.loads(text)
            if message.get("type") == "view" and message.get("seat") == self.seat and message["version"] >= self.version:
                self.view, self.version = message["view"], message["version"]
            elif message.get("type") in ("ok", "error") and message.get("id"):
                self.answers[message["id"]] = message
                if message.get("view") and message["view"]["version"] >= self.version:
                    self.view, self.version = message["view"]["view"], message["view"]["version"]

    async def act(self, action, delay=0.0):
        """Send ``action`` after ``delay`` (the tablet's extra latency); returns the answer."""
        version = self.version
        await asyncio.sleep(delay)
        frame_id = uuid.uuid4().hex
        await self.ws.send(json.dumps({"type": "act", "id": frame_id, "seat": self.seat, "version": version,
                                       "action": action}))
        for _ in range(1000):
            if frame_id in self.answers:
                return self.answers[frame_id]
            await asyncio.sleep(0.005)
        raise AssertionError("no answer")

    async def until(self, test, timeout=15.0):  # a wait, not a timing check: generous for a busy machine
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.view is not None and test(self.view):
                return self.view
            await asyncio.sleep(0.01)
        raise AssertionError(f"seat {self.seat}: the view never changed as expected")


async def races(base, session_id, devices, count):
    """Play ``count`` piles: the seat to play lays a location card, the other two slap at once
    (each after its own latency). Returns (fast seat, slow seat, winner) per race."""
    tablets = [Tablet(base, session_id, token, n) for n, token in enumerate(devices)]
    for tablet in tablets:
        await tablet.open()
    out = []
    try:
        while len(out) < count:
            view = tablets[0].view
            if view["phase"] == "decide":
                for tablet in tablets:
                    if tablet.view["actions"]:
                        await tablet.act({"type": "keep"})
                await tablets[0].until(lambda v: v["phase"] == "play")
                continue
            if view["phase"] != "play":
                break
            turn = view["turn"]
            player = tablets[turn]
            await player.until(lambda v: any(a["type"] == "play" for a in v["actions"]))
            cards = [c for c in player.view["hand"] if rules.CARDS[c]["location"]] or player.view["hand"]
            await asyncio.sleep(0.3)  # a person's pace: the sockets allow about 10 frames a second
            answer = await player.act({"type": "play", "card": cards[0]})
            assert answer["type"] == "ok", answer
            aimed = player.view["pile_id"] if player.version >= answer["version"] else None
            others = [t for t in tablets if t.seat != turn]
            for tablet in others:
                await tablet.until(lambda v: v["pile_id"] >= (aimed or 0) and v.get("may_slap") is not None
                                   and v["moves"] >= player.view["moves"])
            if not all(t.view["may_slap"] for t in others):
                continue  # a zero card on top, or the same player twice: nothing to race for
            aimed = others[0].view["pile_id"]
            slap = {"type": "slap", "pile": aimed}
            answers = await asyncio.gather(*(t.act(slap, LATENCY[t.seat]) for t in others))
            assert all(a["type"] == "ok" or a.get("code") in ("too_slow", "stale_view") for a in answers), answers
            done = await others[0].until(lambda v: v["last_take"] and v["last_take"]["pile"] >= aimed)
            fast, slow = sorted((t.seat for t in others), key=lambda s: LATENCY[s])
            out.append((fast, slow, done["last_take"]["seat"]))
    finally:
        for tablet in tablets:
            tablet.reader.cancel()
            await tablet.ws.close()
    return out


def play_races(asgi_server, count, **options):
    session = make_session(scenario="tornado_alert", seats_per_table=3, fill_with_bots=False,
                           turn_timer=False, seed=21, options=options)
    joined = join_students(session, 3)
    services.start(session=session)
    game = Game.objects.get(table__session=session)
    tokens = {participant.seats.get().number: token for participant, token in joined}
    result = asyncio.run(races(asgi_server, session.pk, [tokens[n] for n in range(3)], count))
    return game, result


def test_the_slow_tablet_still_wins_races_inside_the_window(asgi_server):
    game, result = play_races(asgi_server, 14, race_ms=600)
    slow_wins = sum(1 for fast, slow, winner in result if winner == slow)
    fast_wins = sum(1 for fast, slow, winner in result if winner == fast)
    assert slow_wins >= 1 and fast_wins >= 1 and slow_wins + fast_wins == len(result)
    # every pile aimed at was taken once: one take per race, nothing doubled
    events = [e for m in Move.objects.filter(game=game).order_by("seq") for e in m.events]
    assert sum(1 for e in events if e["type"] == "take") == len(result)
    settles = Move.objects.filter(game=game, action__type="settle")
    assert settles.count() == len(result) and {m.actor for m in settles} == {Move.Actor.TIMER}


def test_without_a_window_the_tablet_nearest_the_access_point_always_wins(asgi_server):
    _game, result = play_races(asgi_server, 6, race_ms=0)
    assert all(winner == fast for fast, _slow, winner in result)


def test_bots_slap_after_a_human_reaction_time_and_a_race_waits_for_its_window():
    """The engine's ``pace`` hook sets the deadlines: a bot that may slap acts after its
    reaction time (not the platform's bot step), the race opener's deadline is the window, and a
    student with no turn timer gets none."""
    from datetime import datetime

    from django.utils import timezone

    from games import services as games

    game = games.create_game(scenario="tornado_alert", seed=5, seats=3, bots={1: "photographer", 2: "photographer"},
                             options={"bot_reaction_ms": 1500, "race_ms": 600}, bot_step_seconds=1.0)
    for _ in range(20):  # the bots play (through the real path) until it is the student's turn
        game.refresh_from_db()
        if game.state["turn"] == 0 and not game.state["race"]:
            break
        seat = next(s for s in (1, 2) if s in rules.to_act(game.state))
        games.submit(game_id=game.pk, seat=seat, action=photographer(game.state, seat), actor=Move.Actor.BOT)
    game.refresh_from_db()
    assert game.state["turn"] == 0
    card = next(c for c in game.state["hands"][0] if rules.CARDS[c]["value"] >= 1)
    before = timezone.now()
    games.submit(game_id=game.pk, seat=0, action={"type": "play", "card": card})
    game.refresh_from_db()
    assert "0" not in game.timers  # the student: no turn timer, no stand-in
    for seat in ("1", "2"):
        if rules.may_slap(game.state, int(seat)):
            wait = (datetime.fromisoformat(game.timers[seat]) - before).total_seconds()
            assert 0.7 <= wait <= 2.4, wait  # 1.5 s varied by up to half, not the 1 s bot step
    games.submit(game_id=game.pk, seat=1, action={"type": "slap", "pile": game.state["pile_id"]},
                 actor=Move.Actor.BOT)
    game.refresh_from_db()
    window = (datetime.fromisoformat(game.timers["1"]) - before).total_seconds()
    assert game.state["race"] and 0.55 <= window <= 1.5, window
