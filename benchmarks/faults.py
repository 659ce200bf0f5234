"""Scripted fault runs during live play, each ending in a ``PASS``/``FAIL`` line and figures.

Students are the harness's real WebSocket clients (``benchmarks.live``), tapping every 2 s and
reconnecting by themselves with back-off, re-sending an unanswered tap with the same id.

- ``worker_kill``: ``kill -9`` one of the two ASGI workers mid-play. Pass: every client that
  lost its socket had a fresh view within 5 s of the kill, and no acknowledged action is lost.
- ``postgres_refuses``: the server reaches PostgreSQL through a TCP proxy this script owns; the
  proxy drops every connection and refuses new ones for 3 s. Pass: every tap sent during the
  outage got an ``unavailable`` error frame within 5 s (the client re-sends it with the same id
  6 s later, as play.js does) and none went unanswered, nothing acknowledged is lost, and every
  game's move log replays to its stored state (no corrupted game).
- ``celery_kill``: a real ``celery -A config worker`` (prefork, 2 processes) on the Redis broker;
  a class of 16 ends (bots finish the games) and its 17 reports are queued; once one report is
  running, the whole worker is killed (``SIGKILL`` to its process group) and a new one started.
  The broker hands a dead worker's unacknowledged task out again only after the visibility
  timeout, 600 s in production: this run sets 45 s (``CELERY_VISIBILITY_TIMEOUT``) and looks
  for such tasks every second (``CELERY_UNACKED_RESTORE_INTERVAL``); each written report's PDF
  is asked for, as its reader's link does. Pass: every report exists once and is complete (page and PDF), none is left running, the killed one was run again, no
  other report ran twice (which a visibility timeout shorter than a report would cause), and
  the killed worker left no half report.
- ``flood``: 64 students tap every 2 s; one more device's socket sends ``act`` and garbage
  frames as fast as it can, and connects again at once when closed (``--flood-reconnect``
  sets a pause; play.js waits about 1 s), in 6 windows of 10 s (``--flood-cycles``)
  alternating with 6 calm windows of 10 s (each after 3 s to settle, left out), so drift in the
  shared machine's load falls on both. Pass: the flooder's first socket is closed with 4429
  within 5 s, the students' act p99 over all flood windows is within 10 % of their p99 over
  all calm windows (pairs in which the students still play: their games end after about 10),
  nothing acknowledged is lost. Also printed: every window's p99, a 90 % interval for the ratio from
  resampling window pairs (on this shared machine it is wider than ±10 %), p50s, the server's
  and the machine's CPU in each kind of window (the flooder's own CPU is on the same 2 cores),
  and how many frames the server answered the flooder.
- ``slow_clients``: 64 students tap every 2 s while, in 6 windows of 10 s alternating with 6
  calm ones (as ``flood``), one machine (its own loopback address, 127.0.0.2) tries to hold 1,200
  connections that never finish a request (half send nothing, half send half a request's
  headers), opening each again a second after the server closes it; meanwhile the class's address
  opens ``/join`` every second. Pass: the students' act p99 over the slow windows is within 10 %
  of calm, every ``/join`` answered 200 (its slowest is printed), the slow machine never held more than the
  server's per-address cap per worker (``CONNECTIONS_PER_ADDRESS``) open for over a second,
  nothing acknowledged lost. The attacker stands for another machine, so it runs at ``nice`` 19
  (``--attacker-nice``): its own CPU is not taken from the server's cores (BENCHMARKS.md, Faults).
- ``health_burst``: as ``slow_clients``, but in each slow window 40 anonymous ``GET /healthz``
  at once, every second. Pass: p99 within 10 % of calm, every ``/healthz`` of every burst
  answered 200 and ``/join`` every second too (the slowest of each printed), nothing lost.
- ``join_crowd``: 64 students tap every 2 s; 8 s in, 60 devices with fresh cookies post the join
  form of a lesson in its lobby at the same moment from one address (threads released together),
  while 20 classmates on another address (127.0.0.2) open the form and join, one every 0.25 s.
  Pass: no more of the crowd are seated than the address's join pace allows (its burst, and one
  a second past it), every classmate is seated, the classmates' ``/join`` (form and post) p99 is
  under 250 ms, and nothing acknowledged is lost.
- ``poll_flood``: 14 students tap every 2 s by socket and a classmate's tablet is on the HTTP
  fallback, long-polling as play.js does; after 12 calm seconds one more device of the class opens 150 long
  polls at once (each on its own connection, waited for up to 40 s) and play goes on for 25 s;
  the class's address opens ``/join`` every 0.1 s throughout. Pass: every one of the 150 is
  answered (a few wait, the rest are refused 429 at once), every ``/join`` answered 200 and their
  p99 from the burst on under 250 ms (the calm seconds' p50 and p99 are printed beside it), the fallback tablet
  answered throughout, nothing acknowledged lost. Printed too: the server's threads and (with
  PostgreSQL) its database connections before and at most during. Run with real services (two
  workers), then again in embedded mode (SQLite, the in-memory layer, one process: ``--embedded``).
- ``redis_restart`` (only with ``--redis-restart``: it restarts the machine's shared Redis):
  ``SHUTDOWN NOSAVE``, 2 s down, then ``REDIS_START`` (the command scripts/services.sh uses),
  refused unless the running Redis has that command's settings. Pass: every student still
  playing has a tap answered ok, with its view, within 10 s of Redis answering again; nothing
  acknowledged is lost; Redis's whole ``CONFIG GET *`` is the same after as before. Redis is
  started again in a ``finally`` if the run leaves it down.

    .venv/bin/python -m benchmarks.faults [--redis-restart] [--only worker_kill,slow_clients,...]
    .venv/bin/python -m benchmarks.faults --only poll_flood   # both modes
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks import live, sized, verdict_exit

# The machine's shared Redis, started as scripts/services.sh starts it: loopback only, nothing on
# disk. REDIS_STARTS_AS is what that command sets, checked on the running Redis before stopping it.
REDIS_PORT = 6379
REDIS_START = [
    "redis-server",
    "--daemonize",
    "yes",
    "--bind",
    "127.0.0.1",
    "-::1",
    "--port",
    str(REDIS_PORT),
    "--save",
    "",
    "--appendonly",
    "no",
    "--dir",
    "/var/lib/redis",
    "--logfile",
    "/var/log/redis/ci.log",
]
REDIS_STARTS_AS = {
    "port": str(REDIS_PORT),
    "bind": "127.0.0.1 -::1",
    "save": "",
    "appendonly": "no",
    "dir": "/var/lib/redis",
    "logfile": "/var/log/redis/ci.log",
    "daemonize": "yes",
}


class RefusingProxy:
    """A loopback TCP proxy to PostgreSQL that can drop and refuse every connection for a while."""

    def __init__(self, target=("127.0.0.1", 5432)):
        self.target, self.port = target, live.free_port()
        self.refusing, self.links = False, set()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._listen(), self.loop).result(5)

    async def _listen(self):
        self.server = await asyncio.start_server(self._link, "127.0.0.1", self.port, reuse_address=True)

    async def _link(self, reader, writer):
        if self.refusing:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        pair = (writer, up_writer)
        self.links.add(pair)

        async def pipe(src, dst):
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                dst.transport.abort()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self.links.discard(pair)

    def refuse_for(self, seconds):
        async def outage():
            self.refusing = True
            self.server.close()
            for down, up in list(self.links):
                down.transport.abort()
                up.transport.abort()
            await asyncio.sleep(seconds)
            self.server = await asyncio.start_server(self._link, "127.0.0.1", self.port, reuse_address=True)
            self.refusing = False

        asyncio.run_coroutine_threadsafe(outage(), self.loop).result(seconds + 10)

    def close(self):
        self.loop.call_soon_threadsafe(self.loop.stop)


def join_crowd(args, crowd_size=60, classmates=20):
    """Sixty racing joins from one address beside play and a class joining from another."""
    from django.conf import settings

    from benchmarks import crowd
    from classroom import services as classroom_services
    from classroom.models import Session, Teacher

    plan = live.build_classes(args.students, label="faults")
    lesson = classroom_services.create_session(
        teacher=Teacher.objects.get(email="faults@bench.test"),
        scenario="evacuation",
        seats_per_table=4,
        fill_with_bots=True,
        turn_timer=False,
        names=Session.Names.GENERATED,
        title="faults crowd",
        max_participants=classroom_services.MAX_PARTICIPANTS,
    )
    # embedded mode serves from one process, whose memory holds the limits
    server = live.Server(live.server_env(args.db, args.redis, 1 if args.embedded else 2, CONN_MAX_AGE=60)).start()
    found = {}

    def the_crowd():
        began = time.monotonic()
        found["crowd"] = crowd.race(server.port, lesson.join_code, crowd_size, source="127.0.0.1")
        found["crowd_s"] = time.monotonic() - began

    def the_class():
        times, seated = [], 0
        for number in range(classmates):
            began = time.monotonic()
            cookie, csrf = crowd.form(server.port, lesson.join_code, source="127.0.0.2")
            times.append(time.monotonic() - began)
            ok, took, _page = crowd.post(
                server.port, lesson.join_code, f"Kid{number}", cookie, csrf, source="127.0.0.2", players=1
            )
            times.append(took)
            seated += ok
            time.sleep(0.25)
        found["class"] = (times, seated)

    def both():
        threads = [threading.Thread(target=the_crowd), threading.Thread(target=the_class)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    try:
        record, *_ = play_with_fault(args, server, plan, both)
    finally:
        server.stop()
    lost, doubled = live.check_log(record["acked"])
    broken = games_intact(plan)
    crowd_seated = sum(1 for ok, _s, _p in found.get("crowd", []) if ok)
    burst, per_second = settings.JOIN_PACE["address"]
    allowed = burst + int(found.get("crowd_s", 0) * per_second) + 1
    times, class_seated = found.get("class", ([float("nan")], 0))
    p99 = live.percentile([t * 1000 for t in times], 99)
    return verdict(
        "join_crowd",
        found.get("crowd") is not None
        and crowd_seated <= allowed
        and class_seated == classmates
        and p99 < 250
        and lost == 0
        and doubled == 0
        and broken == 0,
        crowd=crowd_size,
        crowd_seated=crowd_seated,
        crowd_allowed_at_most=allowed,
        crowd_s=found.get("crowd_s", float("nan")),
        classmates_seated=f"{class_seated}/{classmates}",
        classmates_join_p99_ms=p99,
        classmates_join_p50_ms=live.percentile([t * 1000 for t in times], 50),
        classmates_join_slowest_ms=max(times) * 1000,
        lost_actions=lost,
        doubled_actions=doubled,
        broken_games=broken,
    )


def play_with_fault(args, server, plan, fault, at=8.0, seconds=25.0):
    """Run the students, call ``fault()`` ``at`` seconds into play; returns (record, t0, t1, start, stop)."""
    base = f"ws://127.0.0.1:{server.port}"
    start_at = time.time() + 6 + len(plan["devices"]) / 100
    stop_at = start_at + seconds
    times = {}

    def fire():
        times["t0"] = time.time()
        try:
            fault()
        except BaseException as error:  # noqa: BLE001 - raised again in the caller's thread
            times["error"] = error
        times["t1"] = time.time()

    timer = threading.Timer(start_at + at - time.time(), fire)
    timer.start()
    try:
        record = live.run_clients(base, plan, start_at, stop_at, 2.0, 1, seed=7)
    finally:
        timer.cancel()
        timer.join()  # never leave the fault half done behind the caller's clean-up
    if "error" in times:
        raise times["error"]
    return record, times["t0"], times["t1"], start_at, stop_at


def verdict(name, ok, **figures):
    for key, value in figures.items():
        text = f"{value:.1f}" if isinstance(value, float) else str(value)
        print(f"{name}_{key}: {text}", flush=True)
    print(f"{name}: {'PASS' if ok else 'FAIL'}", flush=True)
    return ok


def games_intact(plan, using="default"):
    """How many games' move logs do not have seq 1..n and version n, or do not replay through the
    engine to their stored state (0: every game is intact)."""
    from games.models import Game
    from scenarios.registry import ENGINES

    bad = 0
    for game in Game.objects.using(using).filter(pk__in={d["game"] for d in plan["devices"]}):
        engine = ENGINES[game.scenario]
        state = engine.setup(game.seed, game.seats, game.options)
        moves = list(game.moves.order_by("seq"))
        for move in moves:
            engine.apply(state, move.seat, move.action)
        if (
            [m.seq for m in moves] != list(range(1, len(moves) + 1))
            or game.version != len(moves)
            or engine.dump(state) != game.state
        ):
            bad += 1
    return bad


def worker_kill(args):
    plan = live.build_classes(args.students, label="faults")
    server = live.Server(live.server_env(args.db, args.redis, 2, CONN_MAX_AGE=60)).start()
    try:
        victim = server.workers()[0]
        record, t0, _t1, *_ = play_with_fault(args, server, plan, lambda: os.kill(victim, signal.SIGKILL))
    finally:
        server.stop()
    dropped = [d for d in record["drops"] if d[0] >= t0 - 0.5]
    resynced = [r for r in record["resyncs"] if r[0] >= t0 - 0.5]
    worst = max((r[1] - t0 for r in resynced), default=0.0)
    lost, doubled = live.check_log(record["acked"])
    return verdict(
        "worker_kill",
        len(resynced) == len(dropped) and worst <= 5 and lost == 0 and doubled == 0,
        sockets_dropped=len(dropped),
        resynced=len(resynced),
        resync_p50_s=live.percentile([r[1] - t0 for r in resynced], 50),
        resync_max_s=worst,
        lost_actions=lost,
        doubled_actions=doubled,
        acknowledged=len(record["acked"]),
    )


def postgres_refuses(args, outage=3.0):
    proxy = RefusingProxy()
    plan = live.build_classes(args.students, label="faults")
    via_proxy = args.db.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
    server = live.Server(live.server_env(via_proxy, args.redis, 2, CONN_MAX_AGE=60)).start()
    try:
        record, t0, t1, *_ = play_with_fault(args, server, plan, lambda: proxy.refuse_for(outage))
    finally:
        server.stop()
        proxy.close()
    # Taps sent while the database was away: answered (error frame) or their socket closed, how fast?
    during = [a for a in record["acts"] if t0 <= a[0] <= t1]
    drops = sorted(d[0] for d in record["drops"] if t0 <= d[0] <= t1 + 5)
    told = record["unavailable_after"]
    lost, doubled = live.check_log(record["acked"])
    bad = games_intact(plan)
    stuck = record["timeouts"]
    slowest = max(told, default=0.0)
    return verdict(
        "postgres_refuses",
        stuck == 0 and slowest <= 5 and lost == 0 and doubled == 0 and bad == 0,
        outage_s=t1 - t0,
        taps_ok_during=len(during),
        error_frames=len(told),
        error_frame_max_ms=1000 * slowest,
        sockets_closed=len(drops),
        unanswered_taps=stuck,
        lost_actions=lost,
        doubled_actions=doubled,
        corrupted_games=bad,
    )


def redis_client(port=REDIS_PORT):
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    # No retries: redis-py's default (3, with back-off) turns every refused probe into 3 s.
    return redis.Redis(
        host="127.0.0.1", port=port, socket_timeout=2, socket_connect_timeout=2, retry=Retry(NoBackoff(), 0)
    )


def redis_config(port=REDIS_PORT):
    """The running Redis's whole configuration (``CONFIG GET *``), or None if it does not answer."""
    import redis

    try:
        return redis_client(port).config_get("*")
    except redis.RedisError:
        return None


def wait_for_redis(up, port=REDIS_PORT, timeout=10.0):
    """Wait until Redis answers PING (``up``) or refuses connections (not ``up``)."""
    import redis

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            answers = redis_client(port).ping()
        except redis.RedisError:
            answers = False
        if answers == up:
            return True
        time.sleep(0.05)
    return False


def start_redis(command=REDIS_START, port=REDIS_PORT):
    """Start Redis with ``command`` and wait for its PING. It daemonizes, so the command exits 0
    even when the server then fails (port still taken): only the PING says it is up."""
    subprocess.run(command, timeout=10, check=True, capture_output=True)
    if not wait_for_redis(True, port):
        raise RuntimeError(f"Redis did not come back on port {port}; see {command[command.index('--logfile') + 1]}")


def restart_redis(down=2.0, command=REDIS_START, port=REDIS_PORT):
    """``SHUTDOWN NOSAVE``, wait until the port refuses, stay down ``down`` seconds, start again."""
    redis_client(port).shutdown(nosave=True)
    if not wait_for_redis(False, port):
        raise RuntimeError("Redis did not stop")
    time.sleep(down)
    start_redis(command=command, port=port)


def redis_restart(args, down=2.0):
    before = redis_config()
    unlike = {
        key: (before or {}).get(key) for key, value in REDIS_STARTS_AS.items() if (before or {}).get(key) != value
    }
    if unlike:  # never stop a Redis this script could not bring back as it was
        print(f"# the running Redis is not the one REDIS_START starts ({unlike}); not restarting it", flush=True)
        return verdict("redis_restart", False, restarted="no")
    plan = live.build_classes(args.students, label="faults")
    server = live.Server(live.server_env(args.db, args.redis, 2, CONN_MAX_AGE=60)).start()
    try:
        record, t0, t1, _start, stop_at = play_with_fault(args, server, plan, lambda: restart_redis(down), seconds=30)
    finally:
        server.stop()
        if redis_config() is None:  # whatever failed, leave the machine's Redis running
            start_redis()
    after = redis_config() or {}
    changed = sorted(key for key in set(before) | set(after) if before.get(key) != after.get(key))
    # t1: Redis answers again. A student has resumed when a tap's ok and its view reached it.
    from games.models import Game

    finished = set(
        Game.objects.filter(pk__in={d["game"] for d in plan["devices"]}, status="finished").values_list("pk", flat=True)
    )
    playing = {(d["game"], d["seat"]) for d in plan["devices"] if d["game"] not in finished}
    resumed = {}
    for _sent_at, _ok_at, view_at, game, _version, _replayed, _first, seat in record["acts"]:
        if view_at >= t1:
            resumed[(game, seat)] = min(resumed.get((game, seat), view_at), view_at)
    waits = sorted(resumed[key] - t1 if key in resumed else float("inf") for key in playing)
    within = sum(1 for w in waits if w <= 10)
    lost, doubled = live.check_log(record["acked"])
    # Did the teacher's dashboards follow again (their group subscriptions came back)?
    late = dict(record, acts=[a for a in record["acts"] if a[1] >= t1 + 10])
    stale = live.dashboard_stale(late, plan, stop_at)
    return verdict(
        "redis_restart",
        within == len(playing) and lost == 0 and doubled == 0 and not changed,
        redis_down_s=t1 - t0,
        students_playing=len(playing),
        resumed_within_10s=within,
        resume_p50_s=live.percentile(waits, 50),
        resume_max_s=max(waits, default=float("nan")),
        sockets_dropped=len([d for d in record["drops"] if d[0] >= t0]),
        answer_timeouts=record["timeouts"],
        lost_actions=lost,
        doubled_actions=doubled,
        acknowledged=len(record["acked"]),
        dashboard_stale_max_after_s=max(stale, default=float("nan")),
        redis_config_changed=",".join(changed) or "none",
    )


def start_worker(env, name):
    """A real ``celery -A config worker`` (prefork, 2 processes, as README's production set-up)
    in its own process group, so one ``killpg`` takes the whole worker down."""
    log = tempfile.NamedTemporaryFile(prefix=f"stormwise-celery-{name}-", suffix=".log", delete=False).name
    with open(log, "ab") as out:
        return subprocess.Popen(
            [
                str(Path(sys.executable).with_name("celery")),
                "-A",
                "config",
                "worker",
                "--concurrency",
                "2",
                "-n",
                f"{name}@%h",
                "--loglevel",
                "INFO",
            ],
            cwd=live.ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        ), log


def stop_worker(worker, sig=signal.SIGTERM):
    if worker is None or worker.poll() is not None:
        return
    try:
        os.killpg(worker.pid, sig)
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=5)
    except ProcessLookupError:
        pass


def wait_for(check, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    return None


def celery_kill(args, students=16, visibility=45):
    """Kill -9 a whole Celery worker mid-report; a new worker must write every report once."""
    import redis

    from classroom import services
    from classroom.models import Session
    from scoring import jobs
    from scoring.models import Report

    # This run's broker is its own Redis db: drop what earlier (killed) runs left queued there.
    redis.Redis.from_url(args.redis).delete("celery", "unacked", "unacked_index", "unacked_mutex")
    plan = live.build_classes(students, label="faults-celery")
    session = Session.objects.get(pk=plan["devices"][0]["session"])
    env = live.server_env(
        args.db, args.redis, 1, CELERY_VISIBILITY_TIMEOUT=visibility, CELERY_UNACKED_RESTORE_INTERVAL=1
    )
    first = second = None
    try:
        first, first_log = start_worker(env, "killed")
        services.finish_with_bots(session=session)  # the bell: bots play out, the session ends
        queued_at = time.time()
        running = wait_for(lambda: Report.objects.filter(session=session, status=Report.Status.RUNNING).first(), 120)
        if running is None:
            print(f"# no report started within 120 s; see {first_log}", flush=True)
            return verdict("celery_kill", False, killed_report="none")
        killed_at = time.time()
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
        orphaned = set(
            Report.objects.filter(session=session, status=Report.Status.RUNNING).values_list("pk", flat=True)
        )
        half = Report.objects.filter(pk__in=orphaned).exclude(html="").count()
        second, second_log = start_worker(env, "restarted")
        wanted = students + 1  # one per student seat, and the class packet

        def settled_now():
            # every page written, and every PDF printed as its reader asks for it (docs/decisions/0015)
            for report in Report.objects.filter(session=session, status=Report.Status.DONE, pdf=b""):
                jobs.ask_for_pdf(report=report)  # asked again within a minute: nothing more queued
            return (
                Report.objects.filter(session=session, status=Report.Status.DONE).count() >= wanted
                and not Report.objects.filter(session=session).exclude(status=Report.Status.DONE).exists()
                and not Report.objects.filter(session=session, pdf=b"").exists()
            )

        settled = wait_for(settled_now, visibility + 180)
        done_at = time.time()
    finally:
        stop_worker(first, signal.SIGKILL)
        stop_worker(second)
    reports = list(Report.objects.filter(session=session))
    keys = [(r.kind, r.seat_id) for r in reports]
    complete = [
        r
        for r in reports
        if r.status == Report.Status.DONE and r.html.startswith("<!doctype html>") and bytes(r.pdf).startswith(b"%PDF")
    ]
    killed = Report.objects.get(pk=running.pk)
    runs = [(r.finished_at - r.started_at).total_seconds() for r in complete]
    reruns_unkilled = sum(r.attempts - 1 for r in reports if r.pk not in orphaned)
    ok = (
        settled
        and len(reports) == wanted
        and len(set(keys)) == len(keys)
        and len(complete) == wanted
        and half == 0
        and killed.attempts >= 2
        and reruns_unkilled == 0
    )
    if not ok:
        print(
            f"# reports {[(r.pk, r.kind, r.status, r.attempts) for r in reports]}; worker logs {first_log} "
            f"{second_log}",
            flush=True,
        )
    return verdict(
        "celery_kill",
        ok,
        reports=len(reports),
        expected=wanted,
        complete=len(complete),
        duplicates=len(keys) - len(set(keys)),
        stuck=sum(1 for r in reports if r.status != Report.Status.DONE),
        killed_after_queued_s=killed_at - queued_at,
        reports_orphaned=len(orphaned),
        half_written=half,
        killed_report_attempts=killed.attempts,
        reruns_of_others=reruns_unkilled,
        killed_report_done_after_kill_s=(killed.finished_at.timestamp() - killed_at)
        if killed.finished_at
        else float("nan"),
        all_done_after_kill_s=done_at - killed_at,
        report_run_max_s=max(runs, default=float("nan")),
        visibility_timeout_s=visibility,
    )


# --- A flooding socket ---------------------------------------------------------------------------


def flood_frame(number, seat, rng):
    """Every third frame a well-formed ``act``, the others garbage text or bytes."""
    kind = number % 3
    if kind == 0:
        return json.dumps(
            {
                "type": "act",
                "id": f"{rng.getrandbits(64):016x}",
                "seat": seat,
                "version": rng.randrange(50),
                "action": {"type": "wait"},
            }
        )
    if kind == 1:
        return "".join(rng.choice('{}[]":,xyz\\0') for _ in range(rng.randrange(1, 200)))
    return rng.randbytes(rng.randrange(1, 200))


async def flooder(job):
    """One device's socket sending as fast as it can in each flood window; when the server
    closes it, it connects again after ``reconnect_s`` (0: at once, as a hostile script would;
    play.js waits about a second). Runs in its own process (its CPU is reported)."""
    import websockets

    device, rng = job["device"], random.Random(5)
    url = f"{job['base']}/ws/play/{device['session']}/"
    headers = {"Cookie": f"sw_{device['session']}={device['token']}"}
    out = {
        "connections": 0,
        "frames": 0,
        "closes": {},
        "first_close_s": [],
        "longest_socket_s": [],
        "answers": [],
        "errors": 0,
    }
    answers = [0]

    async def drain(ws):
        try:
            async for _message in ws:
                answers[0] += 1
        except websockets.exceptions.ConnectionClosed:
            pass

    loop = asyncio.get_running_loop()
    for start, stop in job["windows"]:
        await asyncio.sleep(max(0.0, start - time.time()))
        first, lives, answers[0] = None, [], 0
        while time.time() < stop:
            opened = time.time()
            try:
                async with websockets.connect(
                    url,
                    additional_headers=headers,
                    compression=None,
                    ping_interval=None,
                    open_timeout=max(0.1, min(5, stop - time.time())),
                    close_timeout=1,
                    max_queue=None,
                ) as ws:
                    opened = time.time()
                    out["connections"] += 1
                    reader = asyncio.create_task(drain(ws))
                    try:
                        async with asyncio.timeout_at(loop.time() + stop - time.time()):  # the window's end
                            number = 0
                            while True:
                                await ws.send(flood_frame(number, device["seat"], rng))
                                number += 1
                                out["frames"] += 1
                                if number % 16 == 0:
                                    await asyncio.sleep(0)  # let the socket read the server's close
                    except TimeoutError:
                        pass
                    finally:
                        reader.cancel()
                lives.append(time.time() - opened)
            except websockets.exceptions.ConnectionClosed as closed:
                lives.append(time.time() - opened)
                code = closed.rcvd.code if closed.rcvd else None
                out["closes"][str(code)] = out["closes"].get(str(code), 0) + 1
                if code == 4429 and first is None:
                    first = time.time() - start
                await asyncio.sleep(job["reconnect_s"])
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
                out["errors"] += 1
                await asyncio.sleep(0.05)
        out["first_close_s"].append(first)
        out["longest_socket_s"].append(max(lives, default=0.0))
        out["answers"].append(answers[0])
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out["cpu_s"] = usage.ru_utime + usage.ru_stime
    return out


def flood(args, window=10.0, settle=3.0):
    """Steady play with a flooding socket in every other window; the students' p99 compared."""
    plan = live.build_classes(args.students + 1, label="faults")
    device = plan["devices"].pop()  # the flooder holds a seat; its tablemates play on
    interval = args.flood_interval
    server = live.Server(live.server_env(args.db, args.redis, 2, CONN_MAX_AGE=60)).start()
    start_at = time.time() + 6 + len(plan["devices"]) / 100
    calm, floods, at, cycles = [], [], start_at, args.flood_cycles
    for _ in range(cycles):  # calm, flood, calm, flood...: drift in the machine's load hits both
        calm.append((at + settle, at + settle + window))  # the first seconds after a flood settle
        floods.append((at + settle + window, at + settle + 2 * window))
        at += settle + 2 * window
    job = Path(tempfile.mkdtemp(prefix="stormwise-flood-")) / "flooder.json"
    job.write_text(
        json.dumps(
            {
                "base": f"ws://127.0.0.1:{server.port}",
                "device": device,
                "windows": floods,
                "reconnect_s": args.flood_reconnect,
            }
        )
    )
    process = subprocess.Popen([sys.executable, "-m", "benchmarks.faults", "--flooder", str(job)], cwd=live.ROOT)
    marks = {}  # CPU of the server and of the whole machine at every window's edges

    def mark_edges():
        for edge in sorted({t for w in calm + floods for t in w}):
            time.sleep(max(0.0, edge - time.time()))
            marks[edge] = (server.cpu_seconds(), live.machine_busy())

    marker = threading.Thread(target=mark_edges, daemon=True)
    marker.start()
    try:
        record = live.run_clients(f"ws://127.0.0.1:{server.port}", plan, start_at, at, interval, 1, seed=11)
        process.wait(timeout=60)
        marker.join(timeout=5)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        server.stop()
    flooded = json.loads(job.with_suffix(".out.json").read_text())

    def latencies(start, stop):
        return [(a[2] - a[0]) * 1000 for a in record["acts"] if start <= a[0] < stop]

    def cpu(windows):
        """(server CPU in % of one core, whole machine busy %) over these windows."""
        server_s = sum(marks[b][0] - marks[a][0] for a, b in windows)
        busy = sum(marks[b][1][0] - marks[a][1][0] for a, b in windows)
        total = sum(marks[b][1][1] - marks[a][1][1] for a, b in windows)
        return 100 * server_s / (window * len(windows)), 100 * busy / total

    # Only pairs in which the students still played: their games end after ~5 min of 2-s taps.
    pairs = [(c, f) for c, f in zip(calm, floods) if min(len(latencies(*c)), len(latencies(*f))) >= 50]
    calm_p99 = [live.percentile(latencies(*c), 99) for c, _f in pairs]
    flood_p99 = [live.percentile(latencies(*f), 99) for _c, f in pairs]
    calm_all = [v for c, _f in pairs for v in latencies(*c)]
    flood_all = [v for _c, f in pairs for v in latencies(*f)]
    if not pairs:
        return verdict("flood", False, window_pairs_with_play=0)
    # The students' act p99 over all flood windows against all calm ones: the windows alternate,
    # so the machine's drift falls on both, and pooling gives the p99 ~1,500 samples, not ~250.
    ratio = live.percentile(flood_all, 99) / live.percentile(calm_all, 99)
    low, high = bootstrap_pairs([latencies(*c) for c, _f in pairs], [latencies(*f) for _c, f in pairs])
    first = flooded["first_close_s"][0]
    lost, doubled = live.check_log(record["acked"])
    flood_seconds = window * cycles
    (calm_server, calm_busy), (flood_server, flood_busy) = cpu([c for c, _f in pairs]), cpu([f for _c, f in pairs])
    print(
        f"# act p99 per window (ms), calm: {' '.join(f'{v:.0f}' for v in calm_p99)}; flood: "
        f"{' '.join(f'{v:.0f}' for v in flood_p99)}; flood/calm by pair: "
        f"{' '.join(f'{f / c:.2f}' for c, f in zip(calm_p99, flood_p99))}; frames answered to the flooder "
        f"per window: {' '.join(map(str, flooded['answers']))}; its longest socket per window (s): "
        f"{' '.join(f'{v:.1f}' for v in flooded['longest_socket_s'])}",
        flush=True,
    )
    return verdict(
        "flood",
        first is not None and first <= 5 and ratio <= 1.10 and lost == 0 and doubled == 0,
        students=len(plan["devices"]),
        tap_interval_s=interval,
        flooder_reconnects_after_s=args.flood_reconnect,
        windows=f"{cycles} x {window:.0f} s calm + {cycles} x {window:.0f} s flood",
        window_pairs_with_play=len(pairs),
        calm_p99_ms=live.percentile(calm_all, 99),
        flood_p99_ms=live.percentile(flood_all, 99),
        calm_p99_median_ms=statistics.median(calm_p99),
        flood_p99_median_ms=statistics.median(flood_p99),
        p99_ratio=ratio,
        p99_ratio_90pct_ci=f"{low:.2f}-{high:.2f}",
        pairs_worse_by_over_10pct=sum(1 for c, f in zip(calm_p99, flood_p99) if f > 1.1 * c),
        calm_p50_ms=live.percentile(calm_all, 50),
        flood_p50_ms=live.percentile(flood_all, 50),
        acts_per_window=len(calm_all) // len(pairs),
        calm_server_cpu_pct_of_a_core=calm_server,
        flood_server_cpu_pct_of_a_core=flood_server,
        calm_machine_busy_pct=calm_busy,
        flood_machine_busy_pct=flood_busy,
        first_close_4429_after_s=first if first is not None else float("nan"),
        flood_windows_with_4429=sum(1 for f in flooded["first_close_s"] if f is not None),
        flooder_closes=flooded["closes"],
        flooder_connections_per_s=flooded["connections"] / flood_seconds,
        flooder_frames_per_s=flooded["frames"] / flood_seconds,
        flooder_answers_per_s=sum(flooded["answers"]) / flood_seconds,
        flooder_cpu_pct_of_a_core=100 * flooded["cpu_s"] / flood_seconds,
        lost_actions=lost,
        doubled_actions=doubled,
    )


# --- Slow clients and health bursts beside a class -----------------------------------------------


async def slow_machine(job):
    """Hold as many never-finished connections as the server lets this address have, in each
    window; a closed one is opened again after 0.2 s. Records the most held at once."""
    out = {"opened": 0, "closed_by_server": 0, "refused": 0, "most_held": 0}
    held = set()
    base_port = job["port"]

    async def slot(number, stop):
        while time.time() < stop:
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", base_port, local_addr=("127.0.0.2", 0)), timeout=2
                )
            except (OSError, TimeoutError):
                out["refused"] += 1
                await asyncio.sleep(1.0)
                continue
            out["opened"] += 1
            if number % 2:
                writer.write(b"GET /join HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            closing = asyncio.ensure_future(reader.read(1))
            # held: still open a second after it opened (the server closes one past its cap at once)
            done, _ = await asyncio.wait([closing], timeout=min(1.0, max(0.1, stop - time.time())))
            if not done:
                held.add(number)
                out["most_held"] = max(out["most_held"], len(held))
            try:
                await asyncio.wait_for(closing, timeout=max(0.1, stop - time.time()))
                out["closed_by_server"] += 1
            except (OSError, TimeoutError):
                pass
            held.discard(number)
            writer.transport.abort()
            await asyncio.sleep(1.0)

    for start, stop in job["windows"]:
        await asyncio.sleep(max(0.0, start - time.time()))
        await asyncio.gather(*(slot(n, stop) for n in range(job["connections"])))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out["cpu_s"] = usage.ru_utime + usage.ru_stime
    return out


async def health_bursts(job):
    """40 anonymous ``GET /healthz`` at once, every second, in each window; the slowest answer
    of every burst (or None for a failure). Plain asyncio connections, so the burst's own CPU on
    this shared machine is as small as a client's can be (on a school network it is another
    machine's)."""
    port = job["port"]
    request = f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()

    async def get():
        started = time.time()
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 10)
            writer.write(request)
            answer = await asyncio.wait_for(reader.read(), 10)
            writer.close()
            return time.time() - started if answer.startswith(b"HTTP/1.1 200") else None
        except (OSError, TimeoutError):
            return None

    out = {"bursts": [], "failed": 0}
    for start, stop in job["windows"]:
        await asyncio.sleep(max(0.0, start - time.time()))
        while time.time() < stop - 1:
            began = time.time()
            answers = await asyncio.gather(*(get() for _ in range(40)))
            out["failed"] += sum(1 for a in answers if a is None)
            out["bursts"].append(max((a for a in answers if a is not None), default=None))
            await asyncio.sleep(max(0.0, 1 - (time.time() - began)))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out["cpu_s"] = usage.ru_utime + usage.ru_stime
    return out


ATTACKERS = {"slow_clients": slow_machine, "health_burst": health_bursts}


def probe_join(port, windows):
    """``GET /join`` from the class's address every second over all windows: (answers, slowest s,
    failures: not answered 200 within 10 s)."""
    import urllib.request

    answered, slowest, failures = 0, 0.0, 0
    start, stop = windows[0][0], windows[-1][1]
    time.sleep(max(0.0, start - time.time()))
    while time.time() < stop:
        began = time.time()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/join", timeout=10) as answer:
                answer.read()
                ok = answer.status == 200
        except OSError as error:
            ok = False
            print(f"# /join failed after {time.time() - began:.1f} s: {error!r}", flush=True)
        took = time.time() - began
        answered += ok
        failures += not ok
        slowest = max(slowest, took)
        time.sleep(max(0.0, 1 - took))
    return answered, slowest, failures


def beside_play(args, name, window=10.0, settle=3.0, **job):
    """Steady play with ``ATTACKERS[name]`` in every other window (its own process); the students'
    act p99 over those windows against the calm ones, as ``flood`` measures it."""
    plan = live.build_classes(args.students, label="faults")
    server = live.Server(live.server_env(args.db, args.redis, 2, CONN_MAX_AGE=60)).start()
    start_at = time.time() + 6 + len(plan["devices"]) / 100
    calm, faulty, at = [], [], start_at
    for _ in range(args.flood_cycles):
        calm.append((at + settle, at + settle + window))
        faulty.append((at + settle + window, at + settle + 2 * window))
        at += settle + 2 * window
    path = Path(tempfile.mkdtemp(prefix=f"stormwise-{name}-")) / "attacker.json"
    path.write_text(json.dumps({"kind": name, "port": server.port, "windows": faulty, **job}))
    process = subprocess.Popen(
        ["nice", "-n", str(args.attacker_nice), sys.executable, "-m", "benchmarks.faults", "--attacker", str(path)],
        cwd=live.ROOT,
    )
    probe = {}
    prober = threading.Thread(target=lambda: probe.update(join=probe_join(server.port, faulty)), daemon=True)
    prober.start()
    try:
        record = live.run_clients(f"ws://127.0.0.1:{server.port}", plan, start_at, at, 2.0, 1, seed=13)
        process.wait(timeout=120)
        prober.join(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        server.stop()
    attacked = json.loads(path.with_suffix(".out.json").read_text())

    def latencies(start, stop):
        return [(a[2] - a[0]) * 1000 for a in record["acts"] if start <= a[0] < stop]

    pairs = [(c, f) for c, f in zip(calm, faulty) if min(len(latencies(*c)), len(latencies(*f))) >= 50]
    if not pairs:
        return None, attacked, probe.get("join"), record
    calm_all = [v for c, _f in pairs for v in latencies(*c)]
    fault_all = [v for _c, f in pairs for v in latencies(*f)]
    low, high = bootstrap_pairs([latencies(*c) for c, _f in pairs], [latencies(*f) for _c, f in pairs])
    figures = {
        "window_pairs_with_play": len(pairs),
        "calm_p99_ms": live.percentile(calm_all, 99),
        "fault_p99_ms": live.percentile(fault_all, 99),
        "p99_ratio": live.percentile(fault_all, 99) / live.percentile(calm_all, 99),
        "p99_ratio_90pct_ci": f"{low:.2f}-{high:.2f}",
        "calm_p50_ms": live.percentile(calm_all, 50),
        "fault_p50_ms": live.percentile(fault_all, 50),
    }
    return figures, attacked, probe.get("join"), record


def slow_clients(args):
    cap = int(os.environ.get("CONNECTIONS_PER_ADDRESS", "2000"))
    figures, attacked, join, record = beside_play(args, "slow_clients", connections=1200)
    lost, doubled = live.check_log(record["acked"])
    if figures is None:
        return verdict("slow_clients", False, window_pairs_with_play=0)
    answered, slowest, failures = join or (0, float("nan"), 1)
    return verdict(
        "slow_clients",
        figures["p99_ratio"] <= 1.10
        and failures == 0
        and lost == 0
        and doubled == 0
        and attacked["most_held"] <= 2 * cap,
        **figures,
        join_answered=answered,
        join_slowest_s=slowest,
        join_failures=failures,
        slow_connections_opened=attacked["opened"],
        slow_closed_by_server=attacked["closed_by_server"],
        slow_refused=attacked["refused"],
        slow_most_held=attacked["most_held"],
        attacker_cpu_s=attacked["cpu_s"],
        cap_per_worker=cap,
        lost_actions=lost,
        doubled_actions=doubled,
    )


def health_burst(args):
    figures, attacked, join, record = beside_play(args, "health_burst")
    lost, doubled = live.check_log(record["acked"])
    if figures is None:
        return verdict("health_burst", False, window_pairs_with_play=0)
    bursts = [b for b in attacked["bursts"]]
    slowest = max((b for b in bursts if b is not None), default=float("nan"))
    answered, join_slowest, failures = join or (0, float("nan"), 1)
    return verdict(
        "health_burst",
        figures["p99_ratio"] <= 1.10 and attacked["failed"] == 0 and failures == 0 and lost == 0 and doubled == 0,
        **figures,
        bursts=len(bursts),
        healthz_failed=attacked["failed"],
        healthz_slowest_s=slowest,
        attacker_cpu_s=attacked["cpu_s"],
        join_answered=answered,
        join_slowest_s=join_slowest,
        join_failures=failures,
        lost_actions=lost,
        doubled_actions=doubled,
    )


# --- One device's long polls beside a class --------------------------------------------------------


async def poll_burst(port, session, token, since, count, timeout=40.0):
    """``count`` long polls of one device at once, each on its own connection, as a script on the
    school network sends them; (status or None, seconds) of each, waited for up to ``timeout``."""
    from urllib.parse import quote

    from classroom.consumers import token_cookie

    request = (
        f"GET /play/{session}/poll?since={quote(since)} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Cookie: {token_cookie(session)}={token}\r\nConnection: close\r\n\r\n"
    ).encode()

    async def one():
        started = time.time()
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
            writer.write(request)
            answer = await asyncio.wait_for(reader.read(), timeout)
            writer.close()
            return int(answer.split(b" ", 2)[1]), time.time() - started
        except (OSError, TimeoutError, ValueError, IndexError):
            return None, time.time() - started

    return await asyncio.gather(*(one() for _ in range(count)))


def get_poll(base, device, since, timeout=40.0):
    """(status or None, body) of one ``GET /play/<id>/poll`` of ``device``."""
    import urllib.error
    import urllib.request
    from urllib.parse import quote

    from classroom.consumers import token_cookie

    request = urllib.request.Request(
        f"{base}/play/{device['session']}/poll?since={quote(since)}",
        headers={"Cookie": f"{token_cookie(device['session'])}={device['token']}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, None
    except (OSError, ValueError):
        return None, None


def fallback_tablet(base, device, stop):
    """A classmate's tablet on the HTTP fallback, polling as play.js does until ``stop``: how many
    answers, refusals, failures and new screens it had."""
    out = {"answers": 0, "refused": 0, "failed": 0, "changes": 0}
    stamp = ""
    while time.time() < stop:
        status, body = get_poll(base, device, stamp)
        if status == 200:
            out["answers"] += 1
            out["changes"] += body["stamp"] != stamp
            stamp = body["stamp"]
        elif status == 429:
            out["refused"] += 1
            time.sleep(1.0)
        else:
            out["failed"] += 1
            time.sleep(2.0)
    return out


def time_joins(port, start, stop, every=0.1):
    """``GET /join`` from the class's address every ``every`` s from ``start`` to ``stop``: the
    milliseconds of each answered 200, and how many were not."""
    import urllib.request

    took, failed = [], 0
    time.sleep(max(0.0, start - time.time()))
    while time.time() < stop:
        began = time.time()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/join", timeout=10) as answer:
                answer.read()
                ok = answer.status == 200
        except OSError:
            ok = False
        if ok:
            took.append((time.time() - began) * 1000)
        failed += not ok
        time.sleep(max(0.0, every - (time.time() - began)))
    return took, failed


def server_threads(server) -> int:
    total = 0
    for pid in dict.fromkeys([server.process.pid] + server.workers()):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        total += int(next(line.split()[1] for line in status.splitlines() if line.startswith("Threads:")))
    return total


def database_connections() -> int | None:
    """The benchmark database's connections other than this process's (None on SQLite)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
        )
        return cursor.fetchone()[0]


def poll_flood(args, polls=150, seconds=25.0, calm=12.0):
    """A class plays by socket and a classmate's tablet is on the HTTP fallback; after ``calm`` s
    one device opens ``polls`` long polls at once, and play goes on for ``seconds`` more. With
    real services this run then runs itself again in embedded mode (``--embedded``)."""
    name = "poll_flood_embedded" if args.embedded else "poll_flood"
    students, seconds, calm = sized((16, seconds, calm), (6, 8.0, 2.0))
    plan = live.build_classes(students, label="faults-polls")
    flooder, tablet, *playing = plan["devices"]
    workers = 1 if args.embedded else 2
    server = live.Server(live.server_env(args.db, args.redis, workers)).start()
    base = f"http://127.0.0.1:{server.port}"
    start_at = time.time() + 6 + students / 100
    at = start_at + calm
    stop_at = at + seconds
    results, samples = {}, {"threads": [], "connections": []}
    before = {"threads": server_threads(server), "connections": database_connections()}

    def attack():
        time.sleep(max(0.0, at - time.time()))
        status, body = get_poll(base, flooder, "")
        since = body["stamp"] if status == 200 else ""
        results["attack"] = asyncio.run(
            poll_burst(server.port, flooder["session"], flooder["token"], since, polls, timeout=40.0)
        )

    def sample():
        time.sleep(max(0.0, at - time.time()))
        while time.time() < stop_at:
            samples["threads"].append(server_threads(server))
            samples["connections"].append(database_connections())
            time.sleep(0.5)

    def fallback():
        time.sleep(max(0.0, start_at - time.time()))
        results["tablet"] = fallback_tablet(base, tablet, stop_at)

    threads = [
        threading.Thread(target=attack, daemon=True),
        threading.Thread(target=fallback, daemon=True),
        threading.Thread(target=lambda: results.update(calm=time_joins(server.port, start_at, at)), daemon=True),
        threading.Thread(target=lambda: results.update(join=time_joins(server.port, at, stop_at)), daemon=True),
        threading.Thread(target=sample, daemon=True),
    ]
    for thread in threads:
        thread.start()
    try:
        record = live.run_clients(
            f"ws://127.0.0.1:{server.port}", {"devices": playing, "dashboards": []}, start_at, stop_at, 2.0, 1, seed=17
        )
        for thread in threads:
            thread.join(timeout=60)
    finally:
        server.stop()
    attack_answers = results.get("attack") or [(None, 0.0)] * polls
    statuses = [status for status, _s in attack_answers]
    refused_s = [s for status, s in attack_answers if status == 429]
    join_ms, join_failed = results.get("join", ([], 1))
    calm_ms, calm_failed = results.get("calm", ([], 1))
    tablet_out = results.get("tablet") or {"answers": 0, "refused": 0, "failed": 1, "changes": 0}
    lost, doubled = live.check_log(record["acked"])
    connections = [c for c in samples["connections"] if c is not None]
    join_p99 = live.percentile(join_ms, 99) if join_ms else float("nan")
    ok = verdict(
        name,
        statuses.count(None) == 0
        and all(status in (200, 429) for status in statuses)
        and join_failed + calm_failed == 0
        and join_p99 < 250
        and tablet_out["failed"] == 0
        and tablet_out["answers"] > 0
        and lost == 0
        and doubled == 0,
        attack_polls=polls,
        attack_answered_200=statuses.count(200),
        attack_refused_429=statuses.count(429),
        attack_unanswered=statuses.count(None),
        attack_refusal_slowest_s=max(refused_s, default=float("nan")),
        join_calm_p50_ms=live.percentile(calm_ms, 50) if calm_ms else float("nan"),
        join_calm_p99_ms=live.percentile(calm_ms, 99) if calm_ms else float("nan"),
        join_answered=len(join_ms),
        join_failed=join_failed,
        join_p50_ms=live.percentile(join_ms, 50) if join_ms else float("nan"),
        join_p90_ms=live.percentile(join_ms, 90) if join_ms else float("nan"),
        join_p99_ms=join_p99,
        join_max_ms=max(join_ms, default=float("nan")),
        fallback_tablet_answers=tablet_out["answers"],
        fallback_tablet_new_screens=tablet_out["changes"],
        fallback_tablet_refused=tablet_out["refused"],
        fallback_tablet_failed=tablet_out["failed"],
        server_threads_before=before["threads"],
        server_threads_most=max(samples["threads"], default=0),
        db_connections_before="-" if before["connections"] is None else before["connections"],
        db_connections_most=max(connections) if connections else "-",
        acknowledged=len(record["acked"]),
        lost_actions=lost,
        doubled_actions=doubled,
    )
    if args.embedded:
        return ok
    embedded = subprocess.run(
        [sys.executable, "-m", "benchmarks.faults", "--only", "poll_flood", "--embedded"], cwd=live.ROOT
    )
    return ok and embedded.returncode == 0


def bootstrap_pairs(calm, flood, rounds=2000, seed=3):
    """A 90 % interval for p99(flood) / p99(calm) pooled over windows, resampling whole (calm,
    flood) window pairs: the spread between windows, not within one, is what a shared machine varies."""
    rng = random.Random(seed)
    pairs = list(zip(calm, flood))
    ratios = []
    for _ in range(rounds):
        drawn = rng.choices(pairs, k=len(pairs))
        ratios.append(
            live.percentile([v for _c, f in drawn for v in f], 99)
            / live.percentile([v for c, _f in drawn for v in c], 99)
        )
    ratios.sort()
    return ratios[int(0.05 * rounds)], ratios[int(0.95 * rounds)]


EMBEDDED_RUNS = (join_crowd, poll_flood)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=64)
    parser.add_argument("--redis-restart", action="store_true", help="also restart the shared Redis")
    parser.add_argument("--only", help="comma-separated fault names")
    parser.add_argument("--db", default="postgres://postgres@127.0.0.1:5432/stormwise_bench")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/5")
    parser.add_argument(
        "--flood-reconnect",
        type=float,
        default=0.0,
        help="seconds the flooder waits before connecting again once closed (default 0)",
    )
    parser.add_argument(
        "--flood-cycles", type=int, default=6, help="calm/flood window pairs (default 6; the games end after about 10)"
    )
    parser.add_argument(
        "--flood-interval",
        type=float,
        default=2.0,
        help="seconds between one student's taps in the flood run (default 2); with more "
        "students and a longer interval the games last for more window pairs",
    )
    parser.add_argument(
        "--attacker-nice",
        type=int,
        default=19,
        help="niceness of slow_clients' and health_burst's attacker (default 19: it stands for "
        "another machine, so its own CPU must not be taken from the server's cores)",
    )
    parser.add_argument(
        "--embedded",
        action="store_true",
        help="the embedded server (make run): SQLite, the in-memory channel layer, one process; "
        "only poll_flood runs so (it runs itself so after its run with real services)",
    )
    parser.add_argument("--flooder", help=argparse.SUPPRESS)
    parser.add_argument("--attacker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.attacker:
        job = json.loads(Path(args.attacker).read_text())
        out = asyncio.run(ATTACKERS[job["kind"]](job))
        Path(args.attacker).with_suffix(".out.json").write_text(json.dumps(out))
        return
    if args.flooder:
        out = asyncio.run(flooder(json.loads(Path(args.flooder).read_text())))
        Path(args.flooder).with_suffix(".out.json").write_text(json.dumps(out))
        return
    if args.embedded:  # a database file of this run's own, as ``make run``'s is its own
        args.db = f"sqlite:///{Path(tempfile.mkdtemp(prefix='stormwise-faults-')) / 'embedded.sqlite3'}"
        args.redis = ""
    live.setup_django(args.db, args.redis)
    runs = [worker_kill, postgres_refuses, celery_kill, flood, slow_clients, health_burst, join_crowd, poll_flood] + (
        [redis_restart] if args.redis_restart else []
    )
    if args.only:
        runs = [run for run in runs + [redis_restart] if run.__name__ in args.only.split(",")]
    if args.embedded:
        runs = [run for run in runs if run in EMBEDDED_RUNS]
    runs = sized(runs, [flood])
    args.students, args.flood_cycles = sized((args.students, args.flood_cycles), (16, 1))
    results = [run(args) for run in runs]
    verdict_exit(all(results))


if __name__ == "__main__":
    main()
