"""Exactly-once under mess: thousands of act frames from many students on several threads, with resends of
the same id, double taps (two ids, or one id twice, at the same moment), taps chosen on views
the student kept after it went stale, and pushes the student missed.

Afterwards the move log holds exactly the distinct ids answered ``ok``, once each, and replaying
the log through the engine shows no move was applied to a view its student had not seen.
It runs twice: through ``act`` (the ORM path: HTTP fallback, embedded mode) and through
``aact`` (a socket's path with PostgreSQL), each with 5,000 frames from 50 students, 10,000 in
all; ``STORMWISE_LOAD_HEAVY=1`` sends 10,000 frames down each path from 100 students.
"""

import asyncio
import hashlib
import json
import os
import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import OperationalError, connection

from benchmarks.live import choose
from classroom import services
from games import services as games
from games.models import Game, Move
from games.pipeline import devices_own_id
from games.refusals import Refused
from scenarios.registry import ENGINES
from tests.factories import join_students, make_session

pytestmark = pytest.mark.django_db(transaction=True)

HEAVY = os.environ.get("STORMWISE_LOAD_HEAVY") == "1"
STUDENTS, THREADS, FRAMES = (100, 10, 10_000) if HEAVY else (48, 8, 5_000)


class Student:
    def __init__(self, participant, rng):
        seat = participant.seats.select_related("table").get()
        self.pid, self.seat, self.game_id, self.rng = participant.pk, seat.number, seat.table.game_id, rng
        self.view = self.fresh()
        self.old_view, self.last_frame, self.done = self.view, None, False

    def fresh(self):
        return games.current_view(Game.objects.get(pk=self.game_id), self.seat)

    def frame(self, view):
        action = choose(view, self.rng)
        if action is None:
            return None
        return {
            "type": "act",
            "id": f"mess-{self.rng.getrandbits(64):016x}",
            "seat": self.seat,
            "version": view["version"],
            "action": action,
        }


@pytest.fixture
def event_loop_thread():
    """One event loop on its own thread, as a server process has, for ``aact``'s pooled connections."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield loop
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=10)


@pytest.mark.long
@pytest.mark.parametrize("path", ["orm", "async"])
def test_messy_frames_apply_each_accepted_id_exactly_once(path, event_loop_thread):
    from games import pgpool

    assert pgpool.available()

    def act(pid, frame):
        """The answer a device gets: a tap that lost the race for its table every time is
        answered "unavailable" by the servers (and sent again by the device), as here."""
        try:
            if path == "orm":
                answer, _batch = services.act(pid, frame)
                return answer
            future = asyncio.run_coroutine_threadsafe(services.aact(pid, frame), event_loop_thread)
            answer, _broadcast = future.result(timeout=30)
            return answer
        except OperationalError:
            return Refused("unavailable").as_message(frame["id"])

    session = make_session(seats_per_table=4, fill_with_bots=False, turn_timer=False, seed=99)
    join_students(session, STUDENTS, prefix="Mess")
    services.start(session=session)
    rng = random.Random(4242)
    students = [Student(p, random.Random(rng.random())) for p in session.participants.order_by("created_at")]
    sent, accepted, lock = {}, {}, threading.Lock()
    tally = {"resend": 0, "double": 0, "same_id_twice": 0, "stale": 0, "fresh": 0, "refused": 0}

    def send(student, frame):
        answer = act(student.pid, frame)
        with lock:
            sent.setdefault(frame["id"], frame["version"])
            if answer["type"] == "ok":
                previous = accepted.setdefault(frame["id"], answer["events"])
                assert previous == answer["events"], "a retried id came back with another outcome"
            else:
                tally["refused"] += 1
        return answer

    def close_on_both_threads(pool):
        """Each of the pool's two threads closes its connection once its worker is done; the
        barrier holds the first until the second has started on the other thread."""
        barrier = threading.Barrier(2)

        def close(_):
            barrier.wait(timeout=30)
            connection.close()

        list(pool.map(close, range(2)))

    def after(student, answer, pool):
        if answer.get("view"):
            student.old_view, student.view = student.view, answer["view"]
        elif answer["type"] == "ok" and student.rng.random() < 0.8:  # the push arrived
            student.old_view, student.view = student.view, student.fresh()
        elif answer.get("code") == "game_finished":
            student.done = True

    def worker(mine, budget):
        with ThreadPoolExecutor(max_workers=2) as pool:
            for turn in range(budget):
                live = [s for s in mine if not s.done]
                if not live:
                    break
                student = live[turn % len(live)]
                roll = student.rng.random()
                if roll < 0.15 and student.last_frame:
                    tally["resend"] += 1
                    after(student, send(student, student.last_frame), pool)
                    continue
                view = student.old_view if roll < 0.27 else student.view
                frame = student.frame(view)
                if frame is None:
                    student.view = student.fresh()
                    student.done = student.frame(student.view) is None
                    continue
                student.last_frame = frame
                if roll < 0.27:
                    tally["stale"] += 1
                    answers = [send(student, frame)]
                elif roll < 0.37:
                    tally["double"] += 1
                    twin = dict(frame, id=f"{frame['id']}-twin", action=choose(view, student.rng))
                    answers = list(pool.map(lambda f, student=student: send(student, f), [frame, twin]))
                elif roll < 0.42:
                    tally["same_id_twice"] += 1
                    answers = list(pool.map(lambda f, student=student: send(student, f), [frame, dict(frame)]))
                else:
                    tally["fresh"] += 1
                    answers = [send(student, frame)]
                for answer in answers:
                    after(student, answer, pool)
            close_on_both_threads(pool)
        connection.close()

    groups = [students[i::THREADS] for i in range(THREADS)]
    budget = FRAMES // THREADS
    failures = []
    threads = [threading.Thread(target=lambda g=g: _close_after(failures, worker, g, budget)) for g in groups]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    assert not any(thread.is_alive() for thread in threads)
    assert not failures, failures  # a student's thread that died would leave its frames unsent
    assert len(sent) >= FRAMES * 0.6, (len(sent), tally)

    game_ids = sorted({s.game_id for s in students})
    moves = list(Move.objects.filter(game_id__in=game_ids, actor=Move.Actor.STUDENT).order_by("game_id", "seq"))
    logged = [devices_own_id(m.action_id) for m in moves]
    assert len(logged) == len(set(logged)), "an id was applied twice"
    assert set(logged) == set(accepted), (len(set(logged) - set(accepted)), len(set(accepted) - set(logged)))
    assert tally["refused"] > 0 and len(accepted) > FRAMES * 0.3, tally
    for game_id in game_ids:
        _replay_and_check_seen(Game.objects.get(pk=game_id), sent)


def _close_after(failures, fn, *args):
    try:
        fn(*args)
    except Exception as error:
        failures.append(repr(error))
        raise
    finally:
        connection.close()


def _fingerprint(actions):
    return hashlib.blake2b(
        json.dumps(actions, sort_keys=True, separators=(",", ":")).encode(), digest_size=8
    ).hexdigest()


def _replay_and_check_seen(game, sent):
    """Replay the log: every move's seat had, at the version its frame named, the same choices
    it had just before the move, and had not acted since (so the student saw what it changed)."""
    engine = ENGINES[game.scenario]
    state = engine.setup(game.seed, game.seats, game.options)
    history = [{seat: _fingerprint(engine.actions(state, seat)) for seat in range(game.seats)}]
    acted = {seat: 0 for seat in range(game.seats)}
    moves = list(game.moves.order_by("seq"))
    assert [m.seq for m in moves] == list(range(1, len(moves) + 1)) and game.version == len(moves)
    for move in moves:
        version = sent[devices_own_id(move.action_id)]
        assert version <= move.seq - 1, (move, version)
        assert acted[move.seat] <= version, f"{move} was chosen before its seat's own last move"
        assert all(history[i][move.seat] == history[move.seq - 1][move.seat] for i in range(version, move.seq)), (
            f"{move} was applied to choices its student had not seen"
        )
        engine.apply(state, move.seat, move.action)
        acted[move.seat] = move.seq
        history.append({seat: _fingerprint(engine.actions(state, seat)) for seat in range(game.seats)})
    assert engine.dump(state) == game.state
