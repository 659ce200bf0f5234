"""Tornado Alert! figures, one line each as ``name: value unit``.

``python -m benchmarks.tornado_alert``: whole 4-seat games by the policy bot on one core
(``tornado_games_per_s``), taps per seat, and an estimate of real minutes per round
(``tornado_minutes_per_round``: every card play 3 s of a person's time, every take 1 s, every
race its window; the seats play in turn, so plays add up) and per game
(``tornado_minutes_per_game``, every round).
``--balance``: 400 four-seat games (seeds 0-399) per line-up of bots and variant: mean score and
win share per bot (RULES.md's balance table).
``--live``: 32 students (8 tables of 4, no bots) slap against a real ``manage.py serve`` on
PostgreSQL and Redis for ``--seconds``; ``tornado_slap_p99_ms`` is from sending a slap to its
answer (the slap counted: "you are in the race" or "you got it" when there is no window), and
``tornado_race_result_p99_ms`` to the view that names the pile's taker (window included).
Uses its own database (``stormwise_bench``) and Redis db 5, like ``benchmarks.live``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
import uuid
from collections import defaultdict

from benchmarks import stand_in
from benchmarks.pace import ASSUMED, DECISION_SECONDS, PLAY_MINUTES, seconds_per_decision, spread
from scenarios.tornado_alert import ENGINE
from scenarios.tornado_alert.bots import BOTS, POLICY_BOT, sheltered
from scenarios.tornado_alert.rules import may_slap

#: the bots a line-up may name: the platform's and the debrief's safe play
LINEUP_BOTS = {**BOTS, "sheltered": sheltered}

GAMES = 200
PLAY_S, TAKE_S = 3.0, 1.0


def play(
    seed: int, lineup=(POLICY_BOT,) * 4, options=None, log=None, actors=None
) -> tuple[dict, list[int], float, list]:
    """One game; returns (state, taps per seat, estimated seconds per round, results). With a
    ``log`` list, each seat's move is appended to it as ``{"seat", "actor": actors[seat]}``."""
    state = ENGINE.setup(seed, len(lineup), options or {})
    taps = [0] * len(lineup)
    seconds = 0.0
    step = 0
    while not ENGINE.finished(state):
        acting = ENGINE.to_act(state)
        if not acting:  # everyone has slapped or let the pile go: the server settles the race
            events = ENGINE.apply(state, None, ENGINE.due(state)["action"])
            seconds += TAKE_S * any(e["type"] == "take" for e in events)
            seconds += state["options"]["race_ms"] / 1000 * any(e["type"] == "race" for e in events)
            continue
        seat = acting[step % len(acting)]
        step += 1
        action = LINEUP_BOTS[lineup[seat]](state, seat)
        events = ENGINE.apply(state, seat, action)
        if log is not None:
            log.append({"seat": seat, "actor": actors[seat]})
        if action["type"] in ("play", "slap", "keep", "strike", "use_plus", "use_minus"):
            taps[seat] += 1
        kinds = {e["type"] for e in events}
        seconds += PLAY_S * ("play" in kinds) + TAKE_S * ("take" in kinds)
        seconds += state["options"]["race_ms"] / 1000 * ("race" in kinds)
    return state, taps, seconds / state["round"], ENGINE.results(state)


#: the choices a photographer makes on a turn of their own (what to keep, a strike, a special
#: card); a card play is a flip (``PLAY_S`` of a child's ``DECISION_SECONDS``) and a slap is inside
#: its race's window
DECIDE = ("keep", "strike", "use_plus", "use_minus")


#: a child's reaction to a new pile (slapping it or letting it go), in seconds
REACTION_S = (1.0, 3.0)


def hold_seconds(state: dict, draw: random.Random, counted: set) -> float:
    """The reaction allowance's hold after a pile changed, counted once per pile (``counted``:
    the piles' ids already counted): the next card waits until every seat that may slap has
    slapped or let it go, at most the allowance. Each child reacts in ``REACTION_S`` (the
    hesitant one as much slower as their decisions), drawn from ``draw``."""
    hold = state.get("hold")
    if not hold or hold["pile"] in counted:
        return 0.0
    counted.add(hold["pile"])
    reactions = [
        draw.uniform(*REACTION_S) * seconds_per_decision(seat) / DECISION_SECONDS
        for seat in range(state["seats"])
        if may_slap(state, seat)
    ]
    return min(hold["ms"] / 1000, max(reactions, default=0.0))


def human_minutes(seed: int, lineup=(POLICY_BOT,) * 4, options=None) -> float:
    """One game's minutes at a human pace (``benchmarks.pace``): the seats play in turn, a card
    flip takes ``PLAY_S`` (the hesitant child's as much longer as their decisions) once the pile
    has opened after the one before (``hold_seconds``), a choice a whole decision, each take
    ``TAKE_S`` and each race its window."""
    state = ENGINE.setup(seed, len(lineup), options or {})
    draw, counted = random.Random(f"reactions:{seed}"), set()
    seconds = 0.0
    step = 0
    while not ENGINE.finished(state):
        acting = ENGINE.to_act(state)
        if not acting:
            events = ENGINE.apply(state, None, ENGINE.due(state)["action"])
        else:
            seat = acting[step % len(acting)]
            step += 1
            action = BOTS[lineup[seat]](state, seat)
            events = ENGINE.apply(state, seat, action)
            if action["type"] in DECIDE:
                seconds += seconds_per_decision(seat)
        kinds = {e["type"] for e in events}
        if "play" in kinds:
            player = next(e for e in events if e["type"] == "play").get("seat")
            seconds += PLAY_S * seconds_per_decision(player if player is not None else -1) / DECISION_SECONDS
        seconds += hold_seconds(state, draw, counted)
        seconds += TAKE_S * ("take" in kinds) + state["options"]["race_ms"] / 1000 * ("race" in kinds)
    return seconds / 60


def figures(games: int = GAMES) -> None:
    started = time.perf_counter()
    taps, per_round, per_game = [], [], []
    for seed in range(games):
        state, t, seconds, _results = play(seed)
        taps.append(statistics.median(t))
        per_round.append(seconds / 60)
        per_game.append(seconds * state["round"] / 60)
    elapsed = time.perf_counter() - started
    print(f"tornado_games_per_s: {games / elapsed:.1f} games/s")
    print(f"tornado_taps_per_seat: {statistics.median(taps):.0f} taps")
    print(f"tornado_minutes_per_round: {statistics.median(per_round):.1f} min")
    print(
        f"tornado_minutes_per_game: {statistics.median(per_game):.1f} min (4 seats in turn, {PLAY_S:g} s a card "
        f"play, {TAKE_S:g} s a take, each race its window)"
    )
    human = [human_minutes(seed) for seed in range(games)]
    print(
        f"tornado_minutes_per_game_human_pace: {spread(human)}; a flip {PLAY_S:g} s, a choice a decision; {ASSUMED}; "
        f"{'fits' if statistics.median(human) <= PLAY_MINUTES else 'does not fit'}"
    )


def balance(games: int = 400) -> None:
    lineups = [
        ("photographer",) * 4,
        ("photographer", "photographer", "daredevil", "daredevil"),
        ("photographer", "photographer", "random", "random"),
        ("daredevil", "daredevil", "random", "random"),
        ("photographer", "photographer", "sheltered", "sheltered"),
    ]
    print("| variant | line-up | bot | mean score | win share |")
    print("|---|---|---|---|---|")
    for variant in ("turns", "free"):
        for lineup in lineups:
            scores, wins = defaultdict(list), defaultdict(float)
            for seed in range(games):
                _s, _t, _r, results = play(seed, lineup, {"variant": variant})
                best = [r for r in results if r["rank"] == 1]
                for r in results:
                    scores[lineup[r["seat"]]].append(r["score"])
                for r in best:
                    wins[lineup[r["seat"]]] += 1 / len(best)
            for bot in dict.fromkeys(lineup):
                share = wins[bot] / games
                print(f"| {variant} | {'+'.join(lineup)} | {bot} | {statistics.mean(scores[bot]):.2f} | {share:.0%} |")
    print(f"# turns, {stand_in.line(stand_in.lets_the_bot_play(play_logged, games // 6))}")


def play_logged(seed: int, kinds) -> tuple[list, list]:
    """One game of photographers, the seats marked ``stand_in`` played by the stand-in (the same
    policy bot, actor ``timer``): the results and the move log (``benchmarks.stand_in``)."""
    log: list = []
    actors = ["timer" if kind == "stand_in" else "student" for kind in kinds]
    _state, _taps, _seconds, results = play(seed, (POLICY_BOT,) * len(kinds), None, log, actors)
    return results, log


# --- Live: 32 students slapping against a real server ---------------------------------------------


def build_class(students: int = 32):
    from classroom import services
    from classroom.models import Session, Teacher

    teacher = Teacher.objects.filter(email="tornado@bench.test").first() or Teacher.objects.create_user(
        email="tornado@bench.test"
    )
    for old in Session.objects.filter(teacher=teacher):
        services.delete_session(session=old)
    session = services.create_session(
        teacher=teacher,
        scenario="tornado_alert",
        seats_per_table=4,
        fill_with_bots=False,
        turn_timer=False,
        names=Session.Names.GENERATED,
        seed=1,
        title="tornado bench",
        max_participants=students,
    )
    joined = [services.join(session=session) for _ in range(students)]
    services.start(session=session)
    return [
        {"session": session.pk, "token": token, "seat": participant.seats.get().number} for participant, token in joined
    ]


async def student(base, device, stop_at, record):
    import websockets

    url = f"{base}/ws/play/{device['session']}/"
    headers = {"Cookie": f"sw_{device['session']}={device['token']}"}
    state = {"view": None, "version": 0, "answers": {}, "takes": {}}
    async with websockets.connect(url, additional_headers=headers, compression=None, max_size=2**20) as ws:

        async def read():
            async for text in ws:
                message = json.loads(text)
                if message.get("type") == "view" and message.get("seat") == device["seat"]:
                    if message["version"] >= state["version"]:
                        state["view"], state["version"] = message["view"], message["version"]
                        taken = message["view"].get("last_take")
                        if taken:
                            state["takes"].setdefault(taken["pile"], time.time())
                elif message.get("id"):
                    state["answers"][message["id"]] = (message, time.time())

        reader = asyncio.create_task(read())
        try:
            while time.time() < stop_at:
                await asyncio.sleep(0.15)
                view = state["view"]
                if view is None or view["over"]:
                    continue
                slap = next((a for a in view["actions"] if a["type"] == "slap"), None)
                choice = slap or next((a for a in view["actions"] if a["type"] in ("play", "keep")), None)
                if choice is None:
                    continue
                if choice["type"] == "play":
                    await asyncio.sleep(0.5)  # a person choosing a card
                frame_id = uuid.uuid4().hex
                sent = time.time()
                await ws.send(
                    json.dumps(
                        {
                            "type": "act",
                            "id": frame_id,
                            "seat": device["seat"],
                            "version": state["version"],
                            "action": choice,
                        }
                    )
                )
                while frame_id not in state["answers"] and time.time() < stop_at + 5:
                    await asyncio.sleep(0.002)
                if frame_id not in state["answers"]:
                    continue
                answer, at = state["answers"][frame_id]
                if choice["type"] == "slap":
                    record["slap_ms"].append((at - sent) * 1000)
                    record["slaps"][answer["type"] == "ok" and "ok" or answer.get("code")] += 1
                    while choice["pile"] not in state["takes"] and time.time() < stop_at + 5:
                        await asyncio.sleep(0.005)
                    if choice["pile"] in state["takes"]:
                        record["result_ms"].append((state["takes"][choice["pile"]] - sent) * 1000)
        finally:
            reader.cancel()


async def live_clients(base, devices, seconds):
    record = {"slap_ms": [], "result_ms": [], "slaps": defaultdict(int)}
    stop_at = time.time() + seconds
    await asyncio.gather(*(student(base, d, stop_at, record) for d in devices))
    return record


def live(seconds: float, db: str, redis: str) -> None:
    from benchmarks.live import Server, percentile, server_env, setup_django

    setup_django(db, redis)
    devices = build_class(32)
    server = Server(server_env(db, redis, 2, BOT_STEP_SECONDS=1.0)).start()
    try:
        record = asyncio.run(live_clients(f"ws://127.0.0.1:{server.port}", devices, seconds))
    finally:
        server.stop()
    print(f"tornado_slaps: {len(record['slap_ms'])} slaps ({dict(record['slaps'])})")
    print(f"tornado_slap_p50_ms: {percentile(record['slap_ms'], 50):.1f} ms")
    print(f"tornado_slap_p99_ms: {percentile(record['slap_ms'], 99):.1f} ms")
    print(f"tornado_race_result_p99_ms: {percentile(record['result_ms'], 99):.1f} ms")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--balance", action="store_true")
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--live", action="store_true")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--db", default="postgres://postgres@127.0.0.1:5432/stormwise_bench")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/5")
    args = parser.parse_args(argv)
    if args.balance:
        balance()
    elif args.live:
        live(args.seconds, args.db, args.redis)
    else:
        figures(args.games)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
