"""Shared fixtures: the real services, a real Celery worker, an ASGI server and Chromium."""

import os
import socket
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import thread as pool_threads

import pytest

from tests.ports import free_port

# Debian's build of Chromium's headless shell, the browser Playwright itself runs headless tests in:
# a third less CPU than the full browser for the same lesson (docs/decisions/0011-test-suite-time.md).
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell")


def _reachable(host, port):
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


# Folders whose tests drive browsers, servers and clocks: seconds each, mostly spent waiting
# (the longest first).
WAITING_FOLDERS = ("/tests/district/", "/tests/browser/", "/tests/load/")


def _longest_first(item):
    """``make test`` spreads the suite over several processes, which take tests in this order:
    the whole lessons (``long``) first, then the rest of the waiting tests, then the quick ones,
    so that no process is left running a long test while the others have finished."""
    path = str(item.fspath)
    folder = next((rank for rank, folder in enumerate(WAITING_FOLDERS) if folder in path), len(WAITING_FOLDERS))
    return item.get_closest_marker("long") is None, folder


def _dealt(items, processes):
    """The tests dealt out like cards, in turn, into one share per process, the shares one after
    another. pytest-xdist's ``worksteal`` hands each process one stretch of the list to start
    with, the longer stretches last, and later moves tests from the end of a busy process's
    stretch, never its start; without dealing, the first process would start with every long
    test and run them one after another while the others ran out of work. Dealt shares are at
    most one test apart, the longer ones first: reversed, they are xdist's stretches."""
    return [item for share in reversed(range(processes)) for item in items[share::processes]]


def pytest_collection_modifyitems(session, config, items):
    """Longest first (``_longest_first``), dealt out among the processes of ``make test``
    (``_dealt``); and the suite runs on real PostgreSQL and Redis: stop at once, clearly, if
    either is down.

    Engine tests alone need neither (engines are pure), so a run of only those skips the check.
    """
    from urllib.parse import urlparse

    from django.conf import settings

    items.sort(key=_longest_first)
    processes = getattr(config, "workerinput", {}).get("workercount", 1)
    if processes > 1:
        items[:] = _dealt(items, processes)

    if all("/tests/engines/" in str(item.fspath) for item in items):
        return
    missing = []
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("postgresql") and not _reachable(db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)):
        missing.append(f"PostgreSQL at {db['HOST']}:{db['PORT'] or 5432}")
    redis = urlparse(settings.REDIS_URL)
    if settings.REDIS_URL and not _reachable(redis.hostname, redis.port or 6379):
        missing.append(f"Redis at {redis.hostname}:{redis.port or 6379}")
    if missing:
        pytest.exit(
            "Real services are not answering: "
            + ", ".join(missing)
            + ". Run `make services` (or `make test`, which starts them).",
            returncode=3,
        )


def pytest_sessionfinish(session, exitstatus):
    """In CI a skipped test is a failure: nothing may silently skip a real service."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if os.environ.get("CI") == "true" and skipped and exitstatus == 0:
        reporter.write_line(f"CI: {skipped} test(s) skipped; failing the run.", red=True)
        session.exitstatus = 1


def _celery_worker():
    """A real Celery worker (threads pool) consuming from the real Redis broker, as a context."""
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    return start_worker(
        app, pool="threads", concurrency=2, perform_ping_check=False, shutdown_timeout=10, loglevel="WARNING"
    )


@pytest.fixture
def celery_worker(transactional_db):
    """A real Celery worker (threads pool) consuming from the real Redis broker."""
    with _celery_worker() as worker:
        yield worker


@pytest.fixture(scope="module")
def module_worker(django_db_setup, django_db_blocker):
    """For a module whose tests share what a real worker wrote once (a finished lesson with its
    reports): one worker for the module, the database open to the module's fixtures, and the
    database flushed when the module is done. Its tests reach the shared data through a fixture
    that opens the database to them as well (``django_db_blocker.unblock()``): their writes are
    committed at once, where the worker sees them, and each test leaves the data as it found it."""
    from django.core.management import call_command

    with django_db_blocker.unblock():
        try:
            with _celery_worker() as worker:
                yield worker
        finally:
            call_command("flush", interactive=False, verbosity=0)


class _ServerThread(threading.Thread):
    def __init__(self, port):
        super().__init__(daemon=True)
        import uvicorn

        from classroom.consumers import WS_MAX_BYTES
        from config.asgi import LOOPS, routes
        from config.lifespan import LifespanApp

        # The production app's routes and background loops, without a serving process's own
        # start: the test runner keeps Python's collector and opens database connections only
        # as the tests' taps need them.
        application = LifespanApp(routes, loops=LOOPS)
        config = uvicorn.Config(
            application,
            host="127.0.0.1",
            port=port,
            lifespan="on",
            ws_per_message_deflate=False,
            ws_max_size=WS_MAX_BYTES,
            log_level="warning",
        )
        self.server = uvicorn.Server(config)

    def run(self):
        self.server.run()


class PrivateRedis:
    """A real Redis of one test's own, on a free loopback port, which the test may stop and start
    without touching the Redis every other test shares."""

    def __init__(self):
        self.port = free_port()
        self.url, self.process = f"redis://127.0.0.1:{self.port}/0", None

    def start(self):
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the private Redis did not start")

    def stop(self):
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def private_redis(settings):
    """The channel layer on a Redis of the test's own, which it may stop and start."""
    redis = PrivateRedis()
    redis.start()
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "classroom.fast.redis_layer.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [redis.url], "prefix": "private"},
        }
    }
    yield redis
    redis.stop()


@pytest.fixture(scope="session", autouse=True)
def _facts_after_every_flush():
    """The facts the data migration loads belong to the database every test starts from. A
    transactional test ends by flushing the tables (pytest-django does as Django's
    ``TransactionTestCase``); the test database's flush keeps the facts' rows
    (``tests/db/postgresql``), and one that truncates drops them. Either way the tests after it in
    the same process must find them as the migration loaded them, whatever a test changed or
    deleted: pytest-django runs the other database tests first for that reason, an order this
    suite's own (``_longest_first``, then xdist's shares and steals) does not keep. So every
    flush makes them match their files again (``load_facts``: one statement)."""
    from django.db.models.signals import post_migrate

    def restore(sender, **kwargs):
        if sender.name != "scoring":
            return
        from scoring.models import Fact
        from scoring.outcomes import load_facts

        load_facts(Fact)

    post_migrate.connect(restore, dispatch_uid="tests-facts-after-every-flush")
    yield
    post_migrate.disconnect(dispatch_uid="tests-facts-after-every-flush")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, let go of by every connection before it is dropped: a
    worker thread of a socket's test keeps the connection it last used, and PostgreSQL waits 5 s
    for it before refusing to drop the database (a warning, and the database left behind). The
    connection that ends them is closed too: pytest-django closes the one it made the database
    with, which need not be this one (a run of a few browser tests was refused by it)."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    connection.close()


@pytest.fixture(autouse=True)
def _english_afterwards():
    """A request's language stays active in the test thread: every test starts in English."""
    yield
    from django.utils import translation

    translation.activate("en")


@pytest.fixture(autouse=True)
def _close_live_connections():
    """Sockets' taps use async connections pooled per event loop (games/pgpool.py); each test's
    loops end with it, so close what they left before the test database is dropped."""
    yield
    from games import pgpool

    pgpool.close_all()


@pytest.fixture
def asgi_server(transactional_db, settings):
    """The real ASGI app (HTTP + WebSocket) served by uvicorn on a free loopback port."""
    port = free_port()
    settings.PUBLIC_BASE_URL = f"http://127.0.0.1:{port}"
    thread = _ServerThread(port)
    thread.start()
    deadline = time.monotonic() + 15
    while not thread.server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("The ASGI test server did not start.")
        time.sleep(0.05)
    yield settings.PUBLIC_BASE_URL
    thread.server.should_exit = True
    # No graceful-shutdown timeout: a socket's task cancelled in the middle of a thread-sensitive
    # call leaves that call running in the process's one thread for such calls, where it can wait
    # for this stopped loop for ever and stall every later server of the process.
    thread.join(timeout=120)  # a loaded machine can take a minute to close its last sockets
    # A server still running would go on sweeping the database with its loops (bots, timers)
    # while the next test runs, and play that test's bot seats.
    assert not thread.is_alive(), "the test's ASGI server did not stop"
    _wait_for_other_sessions_to_finish()


def _wait_for_other_sessions_to_finish(seconds=20, quiet=0.5):
    """A stopped server's last database work (a sweep cancelled mid-way goes on in its worker
    thread) finishes before the test's tables are emptied: emptying them while it writes is a
    deadlock. Such a sweep is idle for a moment between its statements, so the database must be
    quiet for ``quiet`` seconds in a row, not at one look (or, past ``seconds``, at least idle)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + seconds
    quiet_since = None
    with connection.cursor() as cursor:
        while True:
            cursor.execute(
                "SELECT query FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND state <> 'idle'"
            )
            busy = [row[0] for row in cursor.fetchall()]
            now = time.monotonic()
            if busy:
                quiet_since = None
            elif quiet_since is None:
                quiet_since = now
            elif now - quiet_since >= quiet:
                return
            if now > deadline:
                if busy:
                    raise AssertionError(f"database work still running after the server stopped: {busy}")
                return  # idle now, if never for long: a report being written beside the test, say
            time.sleep(0.05)


class _Chromium:
    """One headless Debian Chromium per process, driven by Playwright (it cannot download its own
    browsers here), kept while browser tests follow one another and closed before any other test.

    Playwright's sync API keeps an event loop in the test thread while it runs, and an ORM call
    on a thread with a running loop fails (as it must in production). So the browser stops
    before a test that does not ask for it, and the ORM calls browser tests make around it are
    allowed for as long as it runs. Starting it once per module instead cost a Chromium and a
    Playwright driver for every module's share of each process: 63 starts in ``make test``'s four
    processes, about half a core-second each (docs/decisions/0011-test-suite-time.md)."""

    def __init__(self):
        self.playwright = self.browser = None

    def get(self):
        if self.browser is None:
            from playwright.sync_api import expect, sync_playwright

            if not os.path.exists(CHROMIUM):
                pytest.fail(f"Chromium not found at {CHROMIUM}: run `make browser`.")
            # What a page shows may take this long to appear while `make test` runs four processes,
            # each with its browser, servers and worker, on two cores (a load of 12 is usual): a
            # push seen in a second when served came after more than 10 s in a clean-clone run.
            expect.set_options(timeout=20_000)
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
            self.playwright = sync_playwright().start()
            self.browser = self.playwright.chromium.launch(
                executable_path=CHROMIUM,
                headless=True,
                args=[
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--disable-quic",
                    "--no-first-run",
                ],
            )
        return self.browser

    def stop(self):
        if self.playwright is None:
            return
        try:
            if self.browser is not None:
                self.browser.close()
            self.playwright.stop()
        finally:
            self.playwright = self.browser = None
            del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


_chromium = _Chromium()


@pytest.fixture
def browser():
    """The process's Chromium (``_Chromium``). Whatever a test opens in it, it leaves closed: the
    next test finds no page of this one still talking to a server that has gone."""
    browser = _chromium.get()
    before = set(browser.contexts)
    yield browser
    for context in set(browser.contexts) - before:
        context.close()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """A test that does not drive the browser, and every fixture it uses, runs on a thread
    without Playwright's event loop."""
    if "browser" not in item.fixturenames:
        _chromium.stop()


@pytest.fixture(scope="session", autouse=True)
def _browser_closed_at_the_end():
    yield
    _chromium.stop()


TABLET = {"width": 768, "height": 1024}


@pytest.fixture
def page(browser, asgi_server):
    """A fresh browser context at tablet size, so cookies never leak between tests."""
    context = browser.new_context(viewport=TABLET, base_url=asgi_server)
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


_helper = None


def in_thread(fn, *args, **kwargs):
    """Call ``fn`` on the process's helper thread: for service calls from browser tests, whose
    thread holds Playwright's event loop (the services' after-commit broadcasts use
    ``async_to_sync``). One thread for every call, so its database connection is opened once,
    not once a call: a lesson's tapping asks the database a few hundred times."""
    global _helper
    if _helper is None:
        _helper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="in-thread")
    return _helper.submit(_as_if_fresh, fn, *args, **kwargs).result()


def _as_if_fresh(fn, *args, **kwargs):
    """``fn`` on the helper thread, which a call leaves in the default language, as it found it."""
    from django.utils import translation

    try:
        return fn(*args, **kwargs)
    finally:
        translation.deactivate()


@pytest.fixture(autouse=True)
def _helper_connection_closed():
    """The helper thread's connection is closed after each test, as a request's is, so nothing
    of one test's database session (or a connection the test database's teardown ended) is
    carried into the next."""
    yield
    if _helper is not None:
        from django.db import connections

        _helper.submit(connections.close_all).result()


def pytest_unconfigure(config):
    """Let the daemon threads the tests started finish before the interpreter tears itself down:
    a daemon thread still inside a native library (libpq, pango, OpenSSL) while modules are
    finalized can read freed memory. (Other threads, such as idle pool workers, the interpreter
    joins by itself first.) Any still alive after its grace is named, so that an abort at exit
    points at its cause (``make test`` runs with ``PYTHONFAULTHANDLER=1``).

    Not the workers of thread pools (a pool started from a daemon thread, such as the in-process
    server's, has daemon workers): idle, they wait for work for ever, and the interpreter wakes
    and joins them itself at exit. Waiting for them here held every xdist worker the whole grace,
    past the 5 s xdist gives a worker to exit before it interrupts it."""
    pooled = set(pool_threads._threads_queues)  # the interpreter's own list of pool workers
    leftover = [t for t in threading.enumerate() if t.daemon and t is not threading.main_thread() and t not in pooled]
    deadline = time.monotonic() + 5
    for thread in leftover:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
    alive = [t.name for t in leftover if t.is_alive()]
    if alive:
        print(f"Daemon threads still running at exit: {', '.join(alive)}")
