"""A Celery worker killed mid-report: the report is written once a new worker starts, exactly once.

Runs real ``celery -A config worker`` processes (solo pool, so SIGKILL stops the task itself)
against the real Redis broker and this test's database, kills the first one with SIGKILL while
a report job is running, starts a second, and checks the result.
"""

import os
import signal
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection

from benchmarks.faults import wait_for
from classroom import services as classroom
from scoring.models import Report
from tests.factories import started_session
from tests.scoring.conftest import play_as_students
from tests.scoring.test_reports import print_every_pdf


def database_url() -> str:
    db = connection.settings_dict
    user = quote(db["USER"] or "")
    password = f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else ""
    return f"postgresql://{user}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def start_worker(name: str, log: Path) -> subprocess.Popen:
    env = dict(
        os.environ,
        DATABASE_URL=database_url(),
        REDIS_URL=settings.REDIS_URL,
        DJANGO_SETTINGS_MODULE="tests.scoring.worker_settings",
        TASK_MODE="redis",
    )
    celery = Path(sys.executable).with_name("celery")
    return subprocess.Popen(
        [
            str(celery),
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "-n",
            f"{name}@%h",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--loglevel=INFO",
        ],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop(worker: subprocess.Popen, sig=signal.SIGTERM) -> None:
    if worker.poll() is None:
        os.killpg(worker.pid, sig)
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


def wait_until(check, timeout, what):
    found = wait_for(check, timeout)
    if not found:
        raise AssertionError(f"timed out after {timeout} s waiting for {what}")
    return found


def test_a_report_interrupted_by_a_killed_worker_is_written_once_by_the_next(transactional_db, tmp_path):
    """SIGKILL during a report leaves no half report; a new worker writes it, one row per report."""
    if not settings.REDIS_URL:
        pytest.skip("needs the Redis broker")
    session, _devices = started_session(students=2)
    play_as_students(session)
    first = start_worker("killed", tmp_path / "killed.log")
    try:
        classroom.end(session=session)  # queues the debrief on Redis at once (no transaction open)
        running = wait_until(
            lambda: Report.objects.filter(session=session, status=Report.Status.RUNNING, progress__gte=5).first(),
            timeout=40,
            what="a report job to start on the first worker",
        )
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
    finally:
        stop(first, signal.SIGKILL)
    killed = Report.objects.get(pk=running.pk)
    assert killed.status == Report.Status.RUNNING and not killed.html, "a killed job left a half report"
    second = start_worker("restarted", tmp_path / "restarted.log")
    try:
        try:
            wait_until(
                lambda: not Report.objects.filter(session=session).exclude(status=Report.Status.DONE).exists(),
                timeout=40,
                what="every report to be written by the second worker",
            )
            print_every_pdf(session, timeout=40)  # as each reader opens the PDF link
        except AssertionError as error:
            rows = list(Report.objects.filter(session=session).values_list("pk", "status", "attempts", "step"))
            raise AssertionError(
                f"{error}; reports {rows}; killed {running.pk}; worker log: "
                f"{(tmp_path / 'restarted.log').read_text(errors='replace')[-1500:]}"
            ) from None
    finally:
        stop(second)
    reports = Report.objects.filter(session=session)
    assert reports.filter(kind=Report.Kind.STUDENT).count() == 2 and reports.filter(kind=Report.Kind.CLASS).count() == 1
    killed.refresh_from_db()
    assert killed.attempts >= 2, "the interrupted job ran again"
    assert killed.html.startswith("<!doctype html>") and bytes(killed.pdf).startswith(b"%PDF")
