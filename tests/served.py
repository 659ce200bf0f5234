"""``manage.py serve`` as production starts it (uvicorn, its own workers), on the test database
and Redis, for tests about what the server process itself does: connections, signals, bursts."""

import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from tests.ports import free_port

ROOT = Path(__file__).resolve().parent.parent


class Served:
    """One ``manage.py serve`` in its own process group, stopped for certain by ``stop``."""

    def __init__(self, workers=1, preexec_fn=None, **env):
        from django.conf import settings

        db = settings.DATABASES["default"]
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE"}}
        self.env.update(
            DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            DJANGO_SETTINGS_MODULE="config.settings",
            DEBUG="0",
            ALLOWED_HOSTS="*",
            SECURE_SSL_REDIRECT="0",
            WEB_CONCURRENCY=str(workers),
            PGAPPNAME=f"served-{self.port}",  # libpq's: names this server's connections in PostgreSQL
            **{k: str(v) for k, v in env.items()},
        )
        self.preexec_fn = preexec_fn
        self.log = tempfile.NamedTemporaryFile(prefix="stormwise-served-", suffix=".log", delete=False).name
        self.process = None

    def start(self, timeout=60):
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=self.preexec_fn,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return self
            try:
                with urllib.request.urlopen(f"{self.base}/join", timeout=2) as answer:
                    if answer.status == 200:
                        time.sleep(0.5 * int(self.env["WEB_CONCURRENCY"]))  # the other workers
                        return self
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"serve did not answer within {timeout} s:\n{self.output()}")

    def database_connections(self) -> int:
        """How many PostgreSQL connections this server's processes hold now."""
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [self.env["PGAPPNAME"]])
            return cursor.fetchone()[0]

    def output(self) -> str:
        return Path(self.log).read_text(errors="replace")

    def terminate(self, timeout) -> float | None:
        """SIGTERM, as a service manager stops it; the seconds it took to exit, or None."""
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        return time.monotonic() - started

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait(timeout=10)
