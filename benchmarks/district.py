"""A district on several hosts: one lesson served by many machines, losing none when one dies.

Builds hosts as Linux network namespaces joined by one virtual switch (a bridge in a namespace
of its own), all on this machine and all torn down at the end, also after a failure:

- ``app1``..``app3``: ``manage.py serve`` and a Celery worker each;
- ``proxy``: Debian's nginx with the site of ``scripts/district/nginx-site.conf`` (WebSocket
  upgrades, round robin: no sticky sessions); installed by ``make nginx`` when missing;
- ``db``: a PostgreSQL cluster of this run's own (``initdb`` in a temporary folder);
- ``redis``: a redis-server of this run's own;
- this machine's own namespace gets one link to the switch: the students (``benchmarks.live``'s
  WebSocket clients) and this harness reach the proxy and the data hosts through it.

Every student connects through the proxy, so one table's tablets and its teacher's dashboard
land on different hosts; the proxy names the host it chose in an ``X-Upstream`` header, which
the students record. Then the faults, each with its figures and a ``PASS``/``FAIL`` line:

- ``host_kill``: every process of one application host killed mid-lesson (``SIGKILL``). Pass:
  every socket it held reconnects through the proxy to another host and has its view within
  10 s, nothing acknowledged is lost or applied twice, every game replays to its state.
- ``redis_cut``: one application host loses its route to Redis for 20 s (a blackhole route on
  both sides: packets vanish, no error comes back) while the proxy still reaches it. Pass: every
  socket on it is closed within 10 s (none stays open and silent), nothing reconnects to it
  while it is cut off, nothing is lost or applied twice, and every game replays once the link
  is back and the host's delayed messages have drained.
- ``postgres_restart``: a fast restart of PostgreSQL. Pass: no tap left unanswered, every
  student still playing has a tap acknowledged within 15 s of PostgreSQL answering again,
  nothing lost or doubled, every game replays.
- ``redis_restart``: Redis stopped (``SHUTDOWN NOSAVE``) for 2 s and started again. Pass as
  for PostgreSQL, within 10 s.
- ``rolling_deploy``: a new release (this tree plus a commit with a migration that adds a
  column) is migrated while the old code serves, then each host is restarted on it in turn.
  Pass: nothing lost or doubled, every socket of a restarted host has its view again within
  10 s, games were played on old and new hosts alike while both ran, every game replays.
- ``celery_two_hosts``: the workers of two hosts (the third's stopped) write a class's reports,
  then print every PDF as its reader asks for it. Pass: every report once, complete with its PDF,
  in one attempt, and both hosts wrote some.
- ``backup_restore``: ``pg_dump`` mid-lesson, ``pg_restore`` into a fresh database, every host
  restarted on it, the lesson resumed. Pass: every game of the backup replays, every student
  has its view again and plays on, nothing acknowledged after the restore is lost or doubled.

    .venv/bin/python -m benchmarks.district             # load (1,000 students) and every fault
    .venv/bin/python -m benchmarks.district --short     # a class of 32: one host killed, one rolling deploy
    .venv/bin/python -m benchmarks.district --only host_kill,redis_cut --students 96

Needs root (namespaces, ``runuser`` to start PostgreSQL as ``postgres``).
"""

from __future__ import annotations

import argparse
import atexit
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from benchmarks import live, sized, verdict_exit
from benchmarks.faults import games_intact, verdict

ROOT = live.ROOT
PY = sys.executable
SITE = ROOT / "scripts" / "district" / "nginx-site.conf"
APP_PORT, PROXY_PORT, PG_PORT, REDIS_PORT = 8000, 80, 5432, 6379
DB_NAME = "stormwise_district"
PREFIX = "swd"  # every namespace of a run is named swd<pid>-<host>: stale ones are found by pid
HOSTS = ("proxy", "db", "redis", "app1", "app2", "app3")
APPS = ("app1", "app2", "app3")
NUMBER = {"proxy": 2, "db": 3, "redis": 4, "app1": 11, "app2": 12, "app3": 13}


def run(*command, check=True, **kwargs):
    return subprocess.run([str(c) for c in command], check=check, capture_output=True, text=True, **kwargs)


def say(text):
    print(f"# {text}", file=sys.stderr, flush=True)


# --- Hosts ----------------------------------------------------------------------------------------


def remove_stale_namespaces():
    """Namespaces of earlier runs whose harness died before tearing down (its pid is gone)."""
    for line in run("ip", "netns", "list", check=False).stdout.splitlines():
        name = line.split()[0] if line.split() else ""
        found = re.fullmatch(rf"{PREFIX}(\d+)-\w+", name)
        if found and not Path(f"/proc/{found.group(1)}").exists():
            kill_namespace(name)
            run("ip", "netns", "del", name, check=False)


def kill_namespace(ns):
    """SIGKILL every process in a namespace: a host that dies at once, whatever it ran."""
    pids = run("ip", "netns", "pids", ns, check=False).stdout.split()
    for pid in pids:
        try:
            os.kill(int(pid), signal.SIGKILL)
        except ProcessLookupError:
            pass
    return len(pids)


def free_subnet():
    """A 10.213.N.0/24 no interface of this machine uses."""
    used = run("ip", "-4", "-o", "addr").stdout
    for n in range(os.getpid() % 200 + 20, 255):
        if f"10.213.{n}." not in used:
            return f"10.213.{n}"
    raise RuntimeError("no free 10.213.N.0/24 subnet")


class Process:
    """A command run inside a host's namespace, in its own process group, logging to a file."""

    def __init__(self, ns, command, log, env=None, cwd=ROOT):
        self.log = log
        with open(log, "ab") as out:
            self.popen = subprocess.Popen(
                ["ip", "netns", "exec", ns, *map(str, command)],
                cwd=cwd,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def alive(self):
        return self.popen.poll() is None

    def stop(self, sig=signal.SIGTERM, timeout=20):
        if not self.alive():
            return
        try:
            os.killpg(self.popen.pid, sig)
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait(timeout=5)
        except ProcessLookupError:
            pass


class District:
    """The namespaces, the data hosts, the application hosts and the proxy of one run."""

    def __init__(self, workers=1, celery_concurrency=1):
        self.tag = f"{PREFIX}{os.getpid()}"
        self.dir = Path(tempfile.mkdtemp(prefix="stormwise-district-"))
        self.dir.chmod(0o755)  # PostgreSQL runs as ``postgres`` and must reach its folder
        self.subnet = free_subnet()
        self.addr = {host: f"{self.subnet}.{NUMBER[host]}" for host in HOSTS}
        self.addr["root"] = f"{self.subnet}.1"
        self.workers, self.celery_concurrency = workers, celery_concurrency
        self.secret = live.SECRET  # the key this process signs the dashboards' cookies with
        self.database = DB_NAME
        self.release = {host: ROOT for host in APPS}  # the code each application host runs
        self.apps: dict[str, dict[str, Process]] = {}
        self.postgres = self.redis = self.nginx = None
        self.namespaces: list[str] = []

    def ns(self, host):
        return f"{self.tag}-{host}"

    @property
    def db_url(self):
        return f"postgres://postgres@{self.addr['db']}:{PG_PORT}/{self.database}"

    @property
    def redis_url(self):
        return f"redis://{self.addr['redis']}:{REDIS_PORT}/0"

    @property
    def base(self):
        return f"ws://{self.addr['proxy']}:{PROXY_PORT}"

    def host_of(self, upstream):
        """The host name for a proxy's upstream address (``10.213.N.11:8000`` -> ``app1``)."""
        if not upstream:
            return None
        address = upstream.split(",")[-1].strip().rsplit(":", 1)[0]
        return next((h for h in APPS if self.addr[h] == address), upstream)

    # Network ---------------------------------------------------------------------------------------

    def wire(self):
        """One switch (a bridge in its own namespace), a link to it from every host and from here."""
        lan = self.ns("lan")
        for host in ("lan", *HOSTS):
            run("ip", "netns", "add", self.ns(host))
            self.namespaces.append(self.ns(host))
            run("ip", "-n", self.ns(host), "link", "set", "lo", "up")
        run("ip", "-n", lan, "link", "add", "br0", "type", "bridge")
        run("ip", "-n", lan, "link", "set", "br0", "up")
        for host in HOSTS:
            run(
                "ip",
                "-n",
                lan,
                "link",
                "add",
                f"v-{host}",
                "type",
                "veth",
                "peer",
                "name",
                "eth0",
                "netns",
                self.ns(host),
            )
            run("ip", "-n", lan, "link", "set", f"v-{host}", "master", "br0", "up")
            run("ip", "-n", self.ns(host), "addr", "add", f"{self.addr[host]}/24", "dev", "eth0")
            run("ip", "-n", self.ns(host), "link", "set", "eth0", "up")
        run("ip", "link", "add", self.tag, "type", "veth", "peer", "name", "v-root", "netns", lan)
        run("ip", "-n", lan, "link", "set", "v-root", "master", "br0", "up")
        run("ip", "addr", "add", f"{self.addr['root']}/24", "dev", self.tag)
        run("ip", "link", "set", self.tag, "up")

    def cut(self, host, other):
        """Blackhole routes both ways between two hosts: their packets vanish, nothing answers."""
        run("ip", "-n", self.ns(host), "route", "add", "blackhole", f"{self.addr[other]}/32")
        run("ip", "-n", self.ns(other), "route", "add", "blackhole", f"{self.addr[host]}/32")

    def mend(self, host, other):
        run("ip", "-n", self.ns(host), "route", "del", "blackhole", f"{self.addr[other]}/32", check=False)
        run("ip", "-n", self.ns(other), "route", "del", "blackhole", f"{self.addr[host]}/32", check=False)

    # Data hosts ------------------------------------------------------------------------------------

    def start_postgres(self, timeout=60):
        data = self.dir / "pg"
        if not data.exists():
            data.mkdir()
            shutil.chown(data, "postgres", "postgres")
            initdb = shutil.which("initdb") or "/usr/lib/postgresql/15/bin/initdb"
            run(
                "runuser",
                "-u",
                "postgres",
                "--",
                initdb,
                "-D",
                data,
                "-U",
                "postgres",
                "-A",
                "trust",
                "--no-sync",
                "-E",
                "UTF8",
            )
            with open(data / "pg_hba.conf", "a") as hba:  # the hosts on this run's switch
                hba.write(f"host all all {self.subnet}.0/24 trust\n")
        postgres = Path(os.path.realpath(shutil.which("initdb") or "/usr/lib/postgresql/15/bin/initdb")).with_name(
            "postgres"
        )
        self.postgres = Process(
            self.ns("db"),
            [
                "runuser",
                "-u",
                "postgres",
                "--",
                postgres,
                "-D",
                data,
                "-c",
                f"listen_addresses={self.addr['db']}",
                "-c",
                f"port={PG_PORT}",
                "-c",
                f"unix_socket_directories={data}",
                "-c",
                "max_connections=300",
                "-c",
                "shared_buffers=128MB",
            ],
            self.dir / "postgres.log",
        )
        self.wait_for(
            lambda: run("pg_isready", "-q", "-h", self.addr["db"], "-p", PG_PORT, check=False).returncode == 0,
            timeout,
            "PostgreSQL",
        )

    def stop_postgres(self):
        """A fast shutdown (``SIGINT`` to the postmaster): sessions are ended, data kept."""
        pid = int((self.dir / "pg" / "postmaster.pid").read_text().split()[0])
        os.kill(pid, signal.SIGINT)
        self.postgres.popen.wait(timeout=60)

    def psql(self, sql, database="postgres"):
        return run("psql", "-h", self.addr["db"], "-p", PG_PORT, "-U", "postgres", "-d", database, "-qAt", "-c", sql)

    def start_redis(self, timeout=20):
        self.redis = Process(
            self.ns("redis"),
            [
                "redis-server",
                "--bind",
                self.addr["redis"],
                "--port",
                REDIS_PORT,
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                self.dir,
                "--protected-mode",
                "no",
            ],
            self.dir / "redis.log",
        )
        self.wait_for(lambda: self.redis_ping(), timeout, "Redis")

    def redis_ping(self):
        return (
            run("redis-cli", "-h", self.addr["redis"], "-p", REDIS_PORT, "ping", check=False).stdout.strip() == "PONG"
        )

    def stop_redis(self):
        run("redis-cli", "-h", self.addr["redis"], "-p", REDIS_PORT, "shutdown", "nosave", check=False)
        self.redis.popen.wait(timeout=20)

    # Application hosts -----------------------------------------------------------------------------

    def env(self, **extra):
        return live.server_env(
            self.db_url,
            self.redis_url,
            self.workers,
            CONN_MAX_AGE=60,
            BOT_STEP_SECONDS=1.0,
            SECRET_KEY=self.secret,
            TRUSTED_PROXIES=self.addr["proxy"],
            **extra,
        )

    def start_app(self, host, wait=True):
        code = self.release[host]
        env = self.env(HOST=self.addr[host], PORT=APP_PORT)
        serve = Process(
            self.ns(host),
            [PY, "manage.py", "serve", "--host", self.addr[host], "--port", APP_PORT],
            self.dir / f"{host}-serve.log",
            env=env,
            cwd=code,
        )
        self.apps[host] = {"serve": serve}
        self.start_worker(host)
        if wait:
            self.wait_healthy(host)

    def start_worker(self, host):
        self.apps[host]["worker"] = Process(
            self.ns(host),
            [
                Path(PY).with_name("celery"),
                "-A",
                "config",
                "worker",
                "--concurrency",
                self.celery_concurrency,
                "-n",
                f"{host}@%h",
                "--loglevel",
                "INFO",
            ],
            self.dir / f"{host}-celery.log",
            env=self.env(),
            cwd=self.release[host],
        )

    def wait_healthy(self, host, timeout=240):  # a start took 90 s and more with the cores shared
        url = f"http://{self.addr[host]}:{APP_PORT}/healthz"

        def healthy():
            if not self.apps[host]["serve"].alive():
                raise RuntimeError(f"{host}'s server exited; see {self.dir / f'{host}-serve.log'}")
            try:
                with urllib.request.urlopen(url, timeout=2) as answer:
                    return answer.status == 200
            except OSError:
                return False

        self.wait_for(healthy, timeout, f"{host}'s server")

    def stop_app(self, host):
        """As systemd stops a unit: SIGTERM, the server closes its sockets, the worker finishes its task."""
        for process in self.apps.get(host, {}).values():
            process.stop()

    def start_proxy(self):
        if not shutil.which("nginx"):
            say("nginx is missing: make nginx")
            subprocess.run(["make", "-s", "nginx"], cwd=ROOT, check=True)
        site = render_site(
            SITE.read_text(), [f"{self.addr[h]}:{APP_PORT}" for h in APPS], PROXY_PORT, unlimited=[self.addr["root"]]
        )
        folder = self.dir / "nginx"
        folder.mkdir(exist_ok=True)
        (folder / "stormwise.conf").write_text(site)
        temp = {kind: folder / kind for kind in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
        (folder / "nginx.conf").write_text(
            f"worker_processes 1;\nworker_rlimit_nofile 20000;\npid {folder / 'nginx.pid'};\n"
            f"error_log {self.dir / 'nginx-error.log'} warn;\nevents {{ worker_connections 8192; }}\n"
            "http {\n  log_format upstreams '$msec $status $upstream_addr $upstream_status $request_time $request';\n"
            f"  access_log {self.dir / 'nginx-access.log'} upstreams;\n"
            + "".join(
                f"  {kind}_temp_path {path};\n" if kind != "body" else f"  client_body_temp_path {path};\n"
                for kind, path in temp.items()
            )
            # The harness only: which server took each request, so the students can count the spread.
            + f"  add_header {live.UPSTREAM_HEADER} $upstream_addr always;\n"
            + f"  include {folder / 'stormwise.conf'};\n}}\n"
        )
        run("nginx", "-t", "-c", folder / "nginx.conf")
        self.nginx = Process(
            self.ns("proxy"), ["nginx", "-c", folder / "nginx.conf", "-g", "daemon off;"], self.dir / "nginx.log"
        )
        url = f"http://{self.addr['proxy']}:{PROXY_PORT}/healthz"

        def answers():
            try:
                with urllib.request.urlopen(url, timeout=2) as answer:
                    return answer.status == 200
            except OSError:
                return False

        self.wait_for(answers, 30, "nginx")

    # Whole district --------------------------------------------------------------------------------

    def up(self):
        remove_stale_namespaces()
        self.wire()
        self.start_postgres()
        self.psql(f'CREATE DATABASE "{self.database}"')
        self.start_redis()
        live.setup_django(self.db_url, self.redis_url)  # this process: migrated, for set-up and checks
        os.environ["SECRET_KEY"] = self.secret
        for host in APPS:
            self.start_app(host, wait=False)
        for host in APPS:
            self.wait_healthy(host)
        self.start_proxy()
        say(
            f"district up: proxy {self.addr['proxy']}, hosts {', '.join(self.addr[h] for h in APPS)}, "
            f"PostgreSQL {self.addr['db']}, Redis {self.addr['redis']}; logs in {self.dir}"
        )
        return self

    def down(self):
        """Everything this run started, also after a failure: processes, namespaces, folders."""
        for host in APPS:
            for process in self.apps.get(host, {}).values():
                process.stop(signal.SIGKILL, timeout=5)
        for process in (self.nginx, self.redis, self.postgres):
            if process is not None:
                process.stop(signal.SIGKILL, timeout=5)
        for ns in self.namespaces:
            kill_namespace(ns)
        for ns in reversed(self.namespaces):
            run("ip", "netns", "del", ns, check=False)
        run("ip", "link", "del", self.tag, check=False)
        self.namespaces = []
        if not os.environ.get("DISTRICT_KEEP"):
            shutil.rmtree(self.dir, ignore_errors=True)

    @staticmethod
    def wait_for(check, timeout, what):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if check():
                return
            time.sleep(0.2)
        raise RuntimeError(f"{what} did not come up within {timeout} s")


def render_site(site, servers, port, unlimited=()):
    """The README's nginx site with this run's servers and port (the lines marked ``# hosts``), and
    the ``unlimited`` addresses that may hold any number of connections (the harness's students
    all come from the one address a school of a thousand would have)."""
    upstream = "".join(f"    server {server} max_fails=0;  # host\n" for server in servers)
    site = re.sub(r"(?m)^    server \S+ .*# host\n", "", site)
    site = site.replace("    # hosts\n", "    # hosts\n" + upstream)
    marker = "    # unlimited addresses"
    site = site.replace(marker, "".join(f"    {address} 1;\n" for address in unlimited) + marker)
    return re.sub(r"listen \d+;", f"listen {port};", site)


# --- Playing under a fault --------------------------------------------------------------------------


def play(district, plan, seconds, fault=None, at=8.0, interval=2.0, processes=1, after=None):
    """Students (and dashboards) play through the proxy for ``seconds``; ``fault()`` is called
    ``at`` seconds in. With ``after``, they stop ``after`` seconds once the fault is over, if
    that comes first (``seconds`` is then the longest a slow fault may take). Returns the merged
    record and the fault's start and end times."""
    start_at = time.time() + 5 + len(plan["devices"]) / 80
    stop_at = start_at + seconds
    times = {}
    end = district.dir / f"play-{start_at:.0f}.end" if after is not None else None

    def fire():
        times["t0"] = time.time()
        try:
            times["result"] = fault()
        except BaseException as error:  # noqa: BLE001 - raised again in the caller's thread
            times["error"] = error
        times["t1"] = time.time()
        if end:
            end.write_text(json.dumps(times["t1"] + after))

    timer = threading.Timer(max(0.0, start_at + at - time.time()), fire) if fault else None
    if timer:
        timer.start()
    try:
        record = live.run_clients(
            district.base, plan, start_at, stop_at, interval, processes, seed=int(at * 10), end=end
        )
    finally:
        if timer:
            timer.cancel()
            timer.join()
    if "error" in times:
        raise times["error"]
    if os.environ.get("DISTRICT_DUMP"):  # every socket, drop and act, to look at afterwards
        Path(os.environ["DISTRICT_DUMP"]).write_text(json.dumps(dict(record, fault=[times.get("t0"), times.get("t1")])))
    return record, times.get("t0"), times.get("t1"), times.get("result")


def lost_and_doubled(acked, using="default"):
    from benchmarks.live import check_log

    return check_log(acked, using=using)


def playing(plan, using="default"):
    """(game, seat) of every student whose game is not over."""
    from games.models import Game

    finished = set(
        Game.objects.using(using)
        .filter(pk__in={d["game"] for d in plan["devices"]}, status="finished")
        .values_list("pk", flat=True)
    )
    return {(d["game"], d["seat"]) for d in plan["devices"] if d["game"] not in finished}


def resumed_after(record, plan, since, using="default"):
    """Seconds from ``since`` until each student still playing had a tap acknowledged with its view."""
    first = {}
    for _sent_at, _ok_at, view_at, game, _version, _replayed, _first_sent, seat in record["acts"]:
        if view_at >= since:
            first[(game, seat)] = min(first.get((game, seat), view_at), view_at)
    return sorted(first[key] - since if key in first else float("inf") for key in playing(plan, using))


def socket_hosts(district, record):
    """(game, seat) -> the host of its latest socket before each moment: a function of time."""
    by_seat = {}
    for at, game, seat, upstream in sorted(record["sockets"]):
        by_seat.setdefault((game, seat), []).append((at, district.host_of(upstream)))

    def at(moment):
        hosts = {}
        for key, seen in by_seat.items():
            before = [host for when, host in seen if when <= moment]
            if before:
                hosts[key] = before[-1]
        return hosts

    return at


def reconnections(district, record, victim, t0, t1=None, since=None):
    """Sockets of ``victim`` dropped between ``t0`` and ``t1``: (drops, seconds until each had its
    view again, from ``since`` or else from its own drop, and how many came back elsewhere)."""
    drops = [
        d
        for d in record["drops"]
        if d[0] >= t0 - 0.5 and (t1 is None or d[0] <= t1) and district.host_of(d[4]) == victim
    ]
    again = {
        (game, seat, dropped_at): (again_at, district.host_of(upstream))
        for dropped_at, again_at, game, seat, upstream in record["resyncs"]
    }
    waits, elsewhere = [], 0
    for dropped_at, _error, game, seat, _upstream in drops:
        back = again.get((game, seat, dropped_at))
        waits.append(back[0] - (since or dropped_at) if back else float("inf"))
        elsewhere += bool(back and back[1] != victim)
    return drops, sorted(waits), elsewhere


def common(district, record, plan):
    lost, doubled = lost_and_doubled(record["acked"])
    return lost, doubled, games_intact(plan)


# --- Load ----------------------------------------------------------------------------------------


def load(district, args):
    """1,000 students (by default) at 200 actions/s through the proxy: latency, loss, spread."""
    plan = live.build_classes(args.students, label="district-load")
    say(f"{args.students} students in {len(plan['dashboards'])} classes")
    # The window opens once every student has connected and had its first view (benchmarks.live).
    record = live.run_clients(
        district.base, plan, None, args.seconds, args.students / args.rate, 2 if args.students > 300 else 1
    )
    start_at, stop_at = record["window"]
    figures = live.summarise(record, plan, start_at, stop_at, prefix="district_")
    lost, doubled = lost_and_doubled(record["acked"])
    figures["district_lost_actions"] = (lost, "actions")
    figures["district_doubled_actions"] = (doubled, "actions")
    figures["district_ws_students"] = (len({(g, s) for _at, g, s, _h in record["sockets"]}), "sockets")
    spread = {}
    for _at, _game, _seat, upstream in record["sockets"]:
        spread[district.host_of(upstream)] = spread.get(district.host_of(upstream), 0) + 1
    for host in APPS:
        figures[f"district_sockets_{host}"] = (spread.get(host, 0), "sockets")
    # A table spans hosts when its four tablets and its teacher's dashboard are not all on one.
    by_table, boards = {}, {}
    for _at, session, upstream in record["dashboard_sockets"]:
        boards[session] = district.host_of(upstream)
    session_of = {d["game"]: d["session"] for d in plan["devices"]}
    for _at, game, _seat, upstream in record["sockets"]:
        by_table.setdefault(game, set()).add(district.host_of(upstream))
    spanning = sum(1 for game, hosts in by_table.items() if len(hosts | {boards.get(session_of[game])}) > 1)
    figures["district_tables_across_hosts_pct"] = (100.0 * spanning / max(1, len(by_table)), "%")
    figures["district_machine_load_average"] = (os.getloadavg()[0], "runnable")  # others on the cores too?
    live.show(figures)
    say(f"refused {record['refused']}, drops {len(record['drops'])}, client CPU {record['cpu_seconds']:.0f} s")
    return figures


# --- Faults --------------------------------------------------------------------------------------


def host_kill(district, args, victim="app2"):
    plan = live.build_classes(args.fault_students, label="district-kill")
    record, t0, _t1, killed = play(district, plan, 30, lambda: kill_namespace(district.ns(victim)))
    held = len([1 for key, host in socket_hosts(district, record)(t0).items() if host == victim])
    drops, waits, elsewhere = reconnections(district, record, victim, t0, since=t0)
    lost, doubled, bad = common(district, record, plan)
    district.start_app(victim)  # the host comes back for the next runs
    worst = max(waits, default=float("nan"))
    ok = len(drops) >= held > 0 and elsewhere == len(drops) and worst <= 10 and lost == 0 and doubled == 0 and bad == 0
    return verdict(
        "host_kill",
        ok,
        students=len(plan["devices"]),
        processes_killed=killed,
        sockets_on_host=held,
        sockets_dropped=len(drops),
        reconnected_elsewhere=elsewhere,
        resync_p50_s=live.percentile(waits, 50),
        resync_max_s=worst,
        acknowledged=len(record["acked"]),
        lost_actions=lost,
        doubled_actions=doubled,
        games_not_replaying=bad,
    )


def redis_cut(district, args, victim="app1", seconds=20.0):
    plan = live.build_classes(args.fault_students, label="district-cut")

    def fault():
        district.cut(victim, "redis")
        time.sleep(seconds)
        district.mend(victim, "redis")

    record, t0, t1, _ = play(district, plan, 8 + seconds + 17, fault)
    held = {key for key, host in socket_hosts(district, record)(t0).items() if host == victim}
    drops, waits, elsewhere = reconnections(district, record, victim, t0, t0 + seconds, since=t0)
    closed_after = sorted(d[0] - t0 for d in drops)
    closed = {(d[2], d[3]) for d in drops if d[0] - t0 <= 10}
    silent = len(held - closed)
    onto_cut = sum(
        1
        for at, _g, _s, upstream in record["sockets"]
        if t0 + 1 <= at <= t1 - 1 and district.host_of(upstream) == victim
    )
    acked_there = sum(
        1
        for act, host in zip(record["acts"], _acked_acts_hosts(record))
        if t0 <= act[1] <= t1 and district.host_of(host) == victim
    )
    time.sleep(5)  # the host's publishes held while cut off drain once the route is back
    lost, doubled, bad = common(district, record, plan)
    ok = held and silent == 0 and onto_cut == 0 and lost == 0 and doubled == 0 and bad == 0
    return verdict(
        "redis_cut",
        bool(ok),
        students=len(plan["devices"]),
        cut_s=t1 - t0,
        sockets_on_host=len(held),
        closed_within_10s=len(closed & held),
        silent_sockets=silent,
        closed_p50_s=live.percentile(closed_after, 50),
        closed_max_s=max(closed_after, default=float("nan")),
        resync_p50_s=live.percentile(waits, 50),
        resync_max_s=max(waits, default=float("nan")),
        reconnected_elsewhere=elsewhere,
        sockets_opened_on_cut_host=onto_cut,
        acknowledged_by_cut_host_while_cut=acked_there,
        acknowledged=len(record["acked"]),
        lost_actions=lost,
        doubled_actions=doubled,
        games_not_replaying=bad,
    )


def restart_fault(name, district, args, stop, start, within):
    plan = live.build_classes(args.fault_students, label=f"district-{name}")

    def fault():
        began = time.time()
        stop()
        time.sleep(2)
        start()
        return time.time() - began

    record, t0, t1, down = play(district, plan, 35, fault)
    from django.db import connections

    connections.close_all()  # this harness's own connection did not outlive a PostgreSQL restart
    waits = resumed_after(record, plan, t1)
    lost, doubled, bad = common(district, record, plan)
    resumed = sum(1 for w in waits if w <= within)
    ok = resumed == len(waits) and record["timeouts"] == 0 and lost == 0 and doubled == 0 and bad == 0
    return verdict(
        name,
        ok,
        students=len(plan["devices"]),
        down_s=down,
        students_playing=len(waits),
        resumed_within_s=f"{resumed} in {within} s",
        resume_p50_s=live.percentile(waits, 50),
        resume_max_s=max(waits, default=float("nan")),
        sockets_dropped=len([d for d in record["drops"] if d[0] >= t0]),
        unanswered_taps=record["timeouts"],
        refused_unavailable=record["refused"].get("unavailable", 0),
        acknowledged=len(record["acked"]),
        lost_actions=lost,
        doubled_actions=doubled,
        games_not_replaying=bad,
    )


def postgres_restart(district, args):
    return restart_fault("postgres_restart", district, args, district.stop_postgres, district.start_postgres, 15)


def redis_restart(district, args):
    return restart_fault("redis_restart", district, args, district.stop_redis, district.start_redis, 10)


# --- A rolling deploy ------------------------------------------------------------------------------

PROBE_FIELD = "upgrade_note"
PAUSE_SECONDS = 8


def new_release(district):
    """This tree as a new commit that adds a nullable column to ``Game`` with its migration:
    the kind of change a release may bring while older servers still run (they never name it)."""
    folder = district.dir / "release"
    files = run("git", "ls-files", "-co", "--exclude-standard", cwd=ROOT).stdout.splitlines()
    for name in files:
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    models = folder / "games" / "models.py"
    text = models.read_text()
    anchor = re.search(r"(?m)^class Game\(models\.Model\):\n(    \"\"\"[\s\S]*?\"\"\"\n)?", text)
    text = (
        text[: anchor.end()]
        + f"    {PROBE_FIELD} = models.CharField(max_length=80, null=True, blank=True)\n"
        + text[anchor.end() :]
    )
    models.write_text(text)
    migrations = sorted(p.stem for p in (folder / "games" / "migrations").glob("[0-9]*.py"))
    number = int(migrations[-1][:4]) + 1
    (folder / "games" / "migrations" / f"{number:04d}_game_{PROBE_FIELD}.py").write_text(
        "from django.db import migrations, models\n\n\n"
        "class Migration(migrations.Migration):\n"
        f'    dependencies = [("games", "{migrations[-1]}")]\n'
        f'    operations = [migrations.AddField("game", "{PROBE_FIELD}",\n'
        "                                      models.CharField(max_length=80, null=True, blank=True))]\n"
    )
    git = ["git", "-C", folder, "-c", "user.name=district", "-c", "user.email=district@localhost"]
    run(*git, "init", "-q")
    run(*git, "add", "-A")
    run(*git, "commit", "-q", "-m", "A release with a migration")
    return folder, run(*git, "rev-parse", "--short", "HEAD").stdout.strip()


def rolling_deploy(district, args):
    plan = live.build_classes(args.fault_students, label="district-deploy")
    folder, commit = new_release(district)
    marks = {}

    def deploy():
        began = time.time()
        run(PY, "manage.py", "migrate", "--noinput", cwd=folder, env=district.env())
        marks["migrated"] = time.time() - began
        for host in APPS:
            say(f"deploying {host}")
            marks[f"{host}_stop"] = time.time()
            district.stop_app(host)
            marks[f"{host}_down"] = time.time()
            district.release[host] = folder
            district.start_app(host)
            marks[f"{host}_up"] = time.time()
            time.sleep(PAUSE_SECONDS)  # taking sockets again (the proxy retries a failed host after 5 s)

    # the students play on for 20 s once the last host is back: long enough for its tablets to
    # return and for new code to answer after old; 40 s a host is the slowest restart allowed
    record, t0, t1, _ = play(district, plan, 8 + 3 * (PAUSE_SECONDS + 40), deploy, interval=2.0, after=20)
    stop_at = record["window"][1]
    # Only restarts that ended while the students still played count (a slow machine fails here).
    restarts = [
        (marks[f"{h}_stop"], marks[f"{h}_up"], h)
        for h in APPS
        if f"{h}_up" in marks and marks[f"{h}_up"] + 5 <= stop_at
    ]
    waits, dropped, elsewhere = [], 0, 0
    for stopped, up, host in restarts:
        drops, host_waits, moved = reconnections(district, record, host, stopped, up)
        dropped += len(drops)
        elsewhere += moved
        waits += host_waits

    # Each move is worked out from the state the move before it saved: count the moves applied
    # by new code right after a move of old code, and the other way round.
    def release(host, at):
        name = district.host_of(host)
        return "new" if any(h == name and up <= at for _s, up, h in restarts) else "old"

    by_game = {}
    for act, host in zip(record["acts"], _acked_acts_hosts(record)):
        if host and act[5] is False:  # applied now, not a replayed answer
            by_game.setdefault(act[3], []).append((act[4], release(host, act[1])))
    handoffs = {("old", "new"): 0, ("new", "old"): 0}
    for moves in by_game.values():
        moves.sort()
        for (_v, before), (_w, after) in itertools.pairwise(moves):
            if before != after:
                handoffs[(before, after)] += 1
    lost, doubled, bad = common(district, record, plan)
    from games.models import Game

    column = PROBE_FIELD in {f.name for f in Game._meta.get_fields()} or bool(
        district.psql(
            f"SELECT 1 FROM information_schema.columns WHERE table_name='games_game' AND column_name='{PROBE_FIELD}'",
            district.database,
        ).stdout.strip()
    )
    worst = max(waits, default=float("nan"))
    ok = (
        len(restarts) == len(APPS)
        and column
        and min(handoffs.values()) > 0
        and worst <= 10
        and lost == 0
        and doubled == 0
        and bad == 0
    )
    return verdict(
        "rolling_deploy",
        ok,
        students=len(plan["devices"]),
        new_commit=commit,
        migrate_s=marks.get("migrated", float("nan")),
        hosts_restarted_during_play=len(restarts),
        stop_s_max=max((marks[f"{h}_down"] - marks[f"{h}_stop"] for *_x, h in restarts), default=float("nan")),
        start_s_max=max((marks[f"{h}_up"] - marks[f"{h}_down"] for *_x, h in restarts), default=float("nan")),
        deploy_s=t1 - t0,
        sockets_dropped=dropped,
        reconnected_elsewhere=elsewhere,
        resync_p50_s=live.percentile(waits, 50),
        resync_max_s=worst,
        new_code_moves_after_old=handoffs[("old", "new")],
        old_code_moves_after_new=handoffs[("new", "old")],
        acknowledged=len(record["acked"]),
        lost_actions=lost,
        doubled_actions=doubled,
        games_not_replaying=bad,
    )


def _acked_acts_hosts(record):
    """The host that acknowledged each act of ``record["acts"]`` (acts and acks are appended together)."""
    return record["acked_hosts"] if len(record["acked_hosts"]) == len(record["acts"]) else [None] * len(record["acts"])


# --- Celery on two hosts ---------------------------------------------------------------------------


def celery_two_hosts(district, args, students=16):
    from classroom import services
    from classroom.models import Session
    from scoring import jobs
    from scoring.models import Report
    from scoring.services import job_status

    idle = "app3"
    district.apps[idle]["worker"].stop()
    plan = live.build_classes(students, label="district-celery")
    session = Session.objects.get(pk=plan["devices"][0]["session"])
    wanted = students + 1  # one per student, and the class packet
    logs = {h: (district.dir / f"{h}-celery.log").read_text(errors="replace").count("succeeded in") for h in APPS}
    began = time.time()
    services.finish_with_bots(session=session)
    deadline = time.time() + 240
    while time.time() < deadline:
        status = job_status(session)  # every page written, and every PDF printed as its reader asks
        if status["total"] >= wanted and status["printed"] + status["failed"] == status["total"]:
            break
        for report in Report.objects.filter(session=session, status=Report.Status.DONE, pdf=b""):
            jobs.ask_for_pdf(report=report)  # asked again within a minute: nothing more queued
        time.sleep(0.5)
    took = time.time() - began
    time.sleep(1)
    wrote = {
        h: (district.dir / f"{h}-celery.log").read_text(errors="replace").count("succeeded in") - logs[h] for h in APPS
    }
    reports = list(Report.objects.filter(session=session))
    keys = [(r.kind, r.seat_id) for r in reports]
    complete = [
        r
        for r in reports
        if r.status == Report.Status.DONE and r.html.startswith("<!doctype html>") and bytes(r.pdf).startswith(b"%PDF")
    ]
    twice = sum(1 for r in reports if r.attempts != 1)
    district.start_worker(idle)
    ok = (
        len(reports) == wanted
        and len(set(keys)) == len(keys)
        and len(complete) == wanted
        and twice == 0
        and wrote["app1"] > 0
        and wrote["app2"] > 0
        and wrote[idle] == 0
    )
    return verdict(
        "celery_two_hosts",
        ok,
        reports=len(reports),
        expected=wanted,
        complete=len(complete),
        duplicates=len(keys) - len(set(keys)),
        written_more_than_once=twice,
        tasks_app1=wrote["app1"],
        tasks_app2=wrote["app2"],
        tasks_stopped_host=wrote[idle],
        all_written_s=took,
    )


# --- Backup and restore ----------------------------------------------------------------------------


def backup_restore(district, args):
    from django.db import connections

    from games.models import Game

    plan = live.build_classes(args.fault_students, label="district-backup")
    dump = district.dir / "backup.dump"
    marks = {}

    def backup():
        began = time.time()
        run("pg_dump", "-h", district.addr["db"], "-p", PG_PORT, "-U", "postgres", "-Fc", "-f", dump, district.database)
        marks["dump_s"] = time.time() - began

    play(district, plan, 15, backup)
    restored = f"{DB_NAME}_restored"
    began = time.time()
    district.psql(f'DROP DATABASE IF EXISTS "{restored}"')
    district.psql(f'CREATE DATABASE "{restored}"')
    run("pg_restore", "-h", district.addr["db"], "-p", PG_PORT, "-U", "postgres", "-d", restored, "--no-owner", dump)
    restore_s = time.time() - began
    connections.databases["restored"] = dict(connections.databases["default"], NAME=restored)
    games = {d["game"] for d in plan["devices"]}
    at_backup = dict(Game.objects.using("restored").filter(pk__in=games).values_list("pk", "version"))
    bad_backup = games_intact(plan, using="restored")
    # Disaster recovery: every host restarted on the restored database, the lesson resumed.
    district.database = restored
    for host in APPS:
        district.stop_app(host)
    for host in APPS:
        district.start_app(host, wait=False)
    for host in APPS:
        district.wait_healthy(host)
    record, *_ = play(district, plan, 15)
    back = {(g, s) for _at, g, s, _h in record["sockets"]}
    went_on = {(a[3], a[7]) for a in record["acts"]}
    lost, doubled = lost_and_doubled(record["acked"], using="restored")
    bad = games_intact(plan, using="restored")
    after = dict(Game.objects.using("restored").filter(pk__in=games).values_list("pk", "version"))
    moved_on = sum(1 for g in games if after.get(g, 0) > at_backup.get(g, 0))
    still = playing(plan, "restored")
    ok = (
        len(at_backup) == len(games)
        and bad_backup == 0
        and len(back) == len(plan["devices"])
        and still <= went_on
        and moved_on > 0
        and lost == 0
        and doubled == 0
        and bad == 0
    )
    return verdict(
        "backup_restore",
        ok,
        students=len(plan["devices"]),
        dump_s=marks.get("dump_s", float("nan")),
        dump_kb=dump.stat().st_size // 1024,
        restore_s=restore_s,
        games_in_backup=len(at_backup),
        backup_games_not_replaying=bad_backup,
        students_back=len(back),
        students_playing_on=len(went_on),
        games_moved_on=moved_on,
        acknowledged=len(record["acked"]),
        lost_actions=lost,
        doubled_actions=doubled,
        games_not_replaying=bad,
    )


FAULTS = {
    "host_kill": host_kill,
    "redis_cut": redis_cut,
    "postgres_restart": postgres_restart,
    "redis_restart": redis_restart,
    "celery_two_hosts": celery_two_hosts,
    "rolling_deploy": rolling_deploy,
    "backup_restore": backup_restore,
}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=1000, help="students of the load run")
    parser.add_argument("--rate", type=float, default=200, help="actions/s the load run offers")
    parser.add_argument("--seconds", type=float, default=60, help="measured seconds of the load run")
    parser.add_argument("--fault-students", type=int, default=96, help="students of each fault run")
    parser.add_argument("--only", help="comma-separated: load and/or fault names")
    parser.add_argument(
        "--short",
        action="store_true",
        help="a class of 32: one host killed, one rolling deploy (the test suite's version)",
    )
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        sys.exit("benchmarks.district needs root: it creates network namespaces.")
    names = ["load", *FAULTS]
    if args.short:
        args.fault_students, names = 32, ["host_kill", "rolling_deploy"]
    if args.only:
        names = [name for name in args.only.split(",") if name == "load" or name in FAULTS]
    names = sized(names, ["load"])
    args.students, args.seconds = sized((args.students, args.seconds), (32, 3))
    district = District()
    atexit.register(district.down)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: sys.exit(1))  # through the finally below
    results = []
    try:
        district.up()
        print(f"district_commit: {run('git', 'rev-parse', '--short', 'HEAD', cwd=ROOT, check=False).stdout.strip()}")
        for name in names:
            say(f"{name}...")
            try:
                if name == "load":
                    load(district, args)
                else:
                    results.append(FAULTS[name](district, args))
            except Exception as error:  # noqa: BLE001 - one run failing still reports the others
                say(f"{name} could not finish: {type(error).__name__}: {error}")
                results.append(verdict(name, False, error=type(error).__name__))
    finally:
        district.down()
    verdict_exit(all(results))


if __name__ == "__main__":
    main()
