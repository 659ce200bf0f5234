import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import redis

ROOT = Path(__file__).resolve().parent.parent


def _healthz(url, cookie=""):
    request = urllib.request.Request(f"{url}/healthz", headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, json.load(response)


def test_healthz_reports_real_services(asgi_server, celery_worker):
    """/healthz, served over ASGI, tells staff it runs on PostgreSQL, the Redis layer and Celery,
    each answering; anyone else learns only that it is well."""
    from django.test import Client

    from classroom.models import Teacher

    assert _healthz(asgi_server) == (200, {"ok": True})
    for staff in (False, True):
        teacher = Teacher.objects.create_user(email=f"staff-{staff}@school.test", is_staff=staff)
        browser = Client()
        browser.force_login(teacher)
        status, report = _healthz(asgi_server, f"sessionid={browser.cookies['sessionid'].value}")
        if not staff:
            assert (status, report) == (200, {"ok": True})
    assert status == 200, report
    assert report["database"]["engine"] == "postgresql" and report["database"]["ok"]
    assert report["channel_layer"]["backend"] == "RedisPubSubChannelLayer" and report["channel_layer"]["ok"]
    assert report["tasks"]["mode"] == "redis" and report["tasks"]["ok"]
    assert "1 worker(s) answered" in report["tasks"]["detail"]


def test_health_rounds_leave_no_channel_subscribed(asgi_server):
    """Each round of checks asks the channel layer to carry one message to a channel of its own;
    once the round is over, Redis no longer counts that channel among the process's (a poller
    every few seconds would otherwise add thousands a day, for good)."""
    from django.conf import settings
    from django.test import Client

    from classroom.models import Teacher

    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]
    redis_client = redis.Redis.from_url(settings.REDIS_URL)

    def subscribed():
        return len(redis_client.pubsub_channels(f"{prefix}specific.*"))

    teacher = Teacher.objects.create_user(email="staff@school.test", is_staff=True)
    browser = Client()
    browser.force_login(teacher)
    before = subscribed()
    for _ in range(5):  # staff get a fresh round each time
        status, report = _healthz(asgi_server, f"sessionid={browser.cookies['sessionid'].value}")
        assert status == 200 and report["channel_layer"]["ok"], report
    deadline = time.monotonic() + 10  # a channel is let go of without waiting for Redis to confirm
    while subscribed() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert subscribed() <= before


def test_anonymous_health_answers_still_keep_the_hosts_rule(asgi_server, settings):
    """Once a round is held, anonymous callers are answered before Django, but a host the
    install does not serve is still refused, and HEAD answers without a body."""
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]  # the test settings allow every host
    assert _healthz(asgi_server) == (200, {"ok": True})
    response = urllib.request.urlopen(urllib.request.Request(f"{asgi_server}/healthz", method="HEAD"), timeout=10)
    assert (response.status, response.read(), response.headers["Cache-Control"]) == (200, b"", "no-store")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(
            urllib.request.Request(f"{asgi_server}/healthz", headers={"Host": "evil.example"}), timeout=10
        )
    assert refused.value.code == 400


def _manage(*args, **env):
    full_env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DATABASE_URL",
            "REDIS_URL",
            "DJANGO_SETTINGS_MODULE",
            "SECRET_KEY",
            "DEBUG",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        }
    }
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=120
    )


def test_production_settings_pass_deploy_check():
    """With DEBUG off, a secret key and host names, `check --deploy` has no warnings."""
    import secrets

    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(48),
        ALLOWED_HOSTS="stormwise.example.org",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_secret_key():
    """Real-services mode never falls back to a built-in secret key."""
    result = _manage("check", DEBUG="0", DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres")
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_embedded_mode_is_sqlite_memory_layer_and_thread_tasks(tmp_path):
    """With no environment, the app runs on SQLite (WAL), the in-memory layer and a task thread."""
    code = (
        "import django,json;django.setup();from django.conf import settings as s;"
        "from django.db import connection as c;c.ensure_connection();"
        "cur=c.cursor();cur.execute('PRAGMA journal_mode');"
        "print(json.dumps([s.DATABASES['default']['ENGINE'],s.CHANNEL_LAYERS['default']['BACKEND'],s.TASK_MODE,cur.fetchone()[0]]))"
    )
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY"}}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DATA_DIR=str(tmp_path))
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    engine, layer, mode, journal = eval(result.stdout.strip().splitlines()[-1].replace("true", "True"))
    assert engine.endswith("sqlite3") and layer.endswith("InMemoryChannelLayer") and mode == "thread"
    assert journal == "wal"


# --- A burst of health checks, a broker that does not answer, SIGTERM -------------------------------


def _timed_get(url, timeout=10):
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, json.load(response), time.monotonic() - started
    except urllib.error.HTTPError as error:
        return error.code, None, time.monotonic() - started
    except OSError as error:
        return type(error).__name__, None, time.monotonic() - started


def _teacher_cookies(teacher):
    from django.test import Client

    browser = Client()
    browser.force_login(teacher)
    return browser.cookies["sessionid"].value


def _post_command(base, session, sessionid, command, timeout=10):
    """The teacher's button, as the session page posts it (with its CSRF cookie and token)."""
    import http.cookiejar

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    headers = {"Cookie": f"sessionid={sessionid}"}
    with opener.open(urllib.request.Request(f"{base}/sessions/{session.pk}/", headers=headers), timeout=timeout):
        pass
    csrf = next(c.value for c in jar if c.name == "csrftoken")
    request = urllib.request.Request(
        f"{base}/sessions/{session.pk}/do/{command}",
        data=b"",
        method="POST",
        headers={
            "Cookie": f"sessionid={sessionid}; csrftoken={csrf}",
            "X-CSRFToken": csrf,
            "Accept": "application/json",
            "Referer": f"{base}/sessions/{session.pk}/",
        },
    )
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.load(response), time.monotonic() - started


def test_a_burst_of_anonymous_health_checks_costs_the_class_nothing(transactional_db):
    """40 anonymous /healthz at once on two workers are all answered at once, a later one too; the
    teacher's "End now" is answered and queues the reports; SIGTERM stops the server even while a
    tablet's long-poll is waiting."""
    from classroom import selectors
    from tests.factories import started_session
    from tests.served import Served

    session, devices = started_session(students=2)
    broker = redis.Redis.from_url(os.environ["REDIS_URL"])
    server = Served(workers=2).start()
    try:
        with ThreadPoolExecutor(max_workers=40) as pool:
            burst = list(pool.map(lambda _i: _timed_get(f"{server.base}/healthz"), range(40)))
        assert all(status == 200 and body == {"ok": True} for status, body, _s in burst), burst
        assert max(seconds for *_rest, seconds in burst) < 3.0, sorted(s for *_r, s in burst)[-5:]
        status, body, seconds = _timed_get(f"{server.base}/healthz")
        assert (status, body) == (200, {"ok": True}) and seconds < 1.0

        answer, seconds = _post_command(server.base, session, _teacher_cookies(session.teacher), "end-now")
        assert answer == {"ok": True, "status": "ended"} and seconds < 5.0
        mine = [
            raw
            for raw in broker.lrange("celery", 0, -1)
            if json.loads(raw)["headers"]["task"] == "scoring.build_debrief"
            and json.loads(raw)["headers"]["argsrepr"] == f"({session.pk},)"
        ]
        for raw in mine:  # no worker here: take the message back
            broker.lrem("celery", 0, raw)
        assert mine, "the debrief was never queued"

        stamp = selectors.device_state(devices[1][0])["stamp"]  # the ended lesson's: nothing newer comes
        cookie = f"sw_{session.pk}={devices[1][1]}"
        poll = threading.Thread(
            target=lambda: _timed_get(
                urllib.request.Request(
                    f"{server.base}/play/{session.pk}/poll?since={stamp}", headers={"Cookie": cookie}
                ),
                timeout=30,
            )
        )
        poll.start()
        time.sleep(1.0)
        took = server.terminate(timeout=12)
        assert took is not None and took < 12, f"still running after SIGTERM:\n{server.output()[-2000:]}"
        poll.join(timeout=30)
    finally:
        server.stop()


class SilentBroker:
    """A loopback port that takes connections and never says a word: a broker that hangs."""

    def __init__(self):
        import socket

        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.url = f"redis://127.0.0.1:{self.listener.getsockname()[1]}/0"

    def close(self):
        self.listener.close()


@pytest.fixture
def silent_broker():
    from config.celery import app

    broker, before = SilentBroker(), app.conf.broker_url
    app.conf.broker_url = broker.url
    app._pool = None
    app.amqp._producer_pool = None
    yield broker
    broker.close()
    app.conf.broker_url = before
    app._pool = None
    app.amqp._producer_pool = None


def test_ending_a_lesson_never_waits_for_a_broker_that_hangs(transactional_db, silent_broker):
    """ "End now" answers within a few seconds though the broker takes the connection and never
    answers; the debrief is kept and the sweep sends it once the broker is back."""
    from django.test import Client

    from config.celery import app
    from scoring import queue
    from tests.factories import started_session

    session, _devices = started_session(students=2)
    browser = Client()
    browser.force_login(session.teacher)
    answers = []
    ending = threading.Thread(
        target=lambda: answers.append(
            browser.post(f"/sessions/{session.pk}/do/end-now", HTTP_ACCEPT="application/json")
        ),
        daemon=True,
    )
    started = time.monotonic()
    ending.start()
    ending.join(timeout=15)
    assert answers and answers[0].status_code == 200, "End now waited for the broker"
    assert time.monotonic() - started < 10
    assert queue.unsent() == 1

    broker = redis.Redis.from_url(os.environ["REDIS_URL"])
    app.conf.broker_url = os.environ["REDIS_URL"]
    app._pool = None
    app.amqp._producer_pool = None
    assert queue.send_unsent() == 1 and queue.unsent() == 0
    mine = [
        raw for raw in broker.lrange("celery", 0, -1) if json.loads(raw)["headers"]["argsrepr"] == f"({session.pk},)"
    ]
    for raw in mine:
        broker.lrem("celery", 0, raw)
    assert len(mine) == 1
