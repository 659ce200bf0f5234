"""Debrief figures for a finished 32-student evacuation session (8 tables of 4).

Runs on the embedded settings (SQLite in a temporary directory, no Redis), so it needs no
services: ``.venv/bin/python -m benchmarks.debrief`` (``--keep DIR`` keeps the database there).

- ``debrief_page_class_of_32_s``: GET of the class debrief page by its teacher (move log read,
  analysis, facts, template), median of 5 after one warm-up.
- ``report_pages_class_of_32_s``: every report page of the session - 32 student pages with
  charts and counterfactuals (40 paired futures per decision, 100 where 40 do not settle it;
  see ``scenarios.evacuation.counterfactuals``), plus the class packet - from the end of the
  lesson until the last is stored and a student can read it, and ``report_pages_class_of_32_cpu_s``,
  the CPU seconds the workers took: the work every lesson's end asks of the server;
- ``report_class_of_32_s``: the same until the last PDF is stored too, when every reader asks for
  their PDF as soon as the pages are written (the most a class can ask; PDFs are printed when
  asked for, see docs/decisions/0015), and ``report_class_of_32_cpu_s``, the CPU for all of it.

The jobs are written as Celery writes them: ``--workers N`` warmed worker processes (default:
the machine's cores, as ``celery worker`` runs by default), each taking the next job from one
queue when it has finished one (prefetch 1). About three fifths of a report's time is printing
its PDF (WeasyPrint), a quarter of that drawing the SVG charts; counterfactuals are about an
eighth.
"""

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import sized


def main():
    keep = sys.argv[sys.argv.index("--keep") + 1] if "--keep" in sys.argv else None
    folder = Path(keep or tempfile.mkdtemp(prefix="stormwise-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    os.environ.pop("REDIS_URL", None)
    os.environ.pop("DATABASE_URL", None)  # the embedded set-up, with its data in the temp folder
    os.environ["DATA_DIR"] = str(folder)
    os.environ["MEDIA_ROOT"] = str(folder / "media")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    session = finished_session()

    from django.test import Client
    from django.urls import reverse

    client = Client(HTTP_HOST="localhost")  # a name the embedded server answers to (ALLOWED_HOSTS)
    client.force_login(session.teacher)
    url = reverse("scoring:session_debrief", args=[session.pk])
    assert client.get(url).status_code == 200
    times = []
    for _ in range(5):
        started = time.perf_counter()
        client.get(url)
        times.append(time.perf_counter() - started)
    print(f"debrief_page_class_of_32_s: {statistics.median(times):.3f} s")

    from scoring import services

    workers = int(sys.argv[sys.argv.index("--workers") + 1]) if "--workers" in sys.argv else os.cpu_count() or 1
    reports = services.plan_reports(session)
    (pages_s, pages_cpu_s), (pdfs_s, pdfs_cpu_s) = write_reports([report.pk for report in reports], workers)
    plural = "s" if workers > 1 else ""
    # The CPU the workers took for the reports (not their warm-up), whatever else the machine
    # was doing: on a busy machine the wall clock mostly measures the other processes.
    print(f"report_pages_class_of_32_s: {pages_s:.1f} s ({workers} worker{plural})")
    print(f"report_pages_class_of_32_cpu_s: {pages_cpu_s:.1f} s")
    print(f"report_class_of_32_s: {pages_s + pdfs_s:.1f} s ({workers} worker{plural})")
    print(f"report_class_of_32_cpu_s: {pages_cpu_s + pdfs_cpu_s:.1f} s")
    if keep:
        print(f"# kept {folder} (teacher {session.teacher.email}, session {session.pk})", file=sys.stderr)


def write_reports(report_ids, workers):
    """Write every report as the report jobs do, with ``workers`` processes that were started
    (and warmed, as ``config.celery`` warms Celery's) before the lesson ended: each takes the next
    job from one queue when it has finished one. Once every page is stored, every PDF is asked for.

    Returns (seconds, CPU seconds) for the pages, from the end of the lesson, and for the PDFs,
    from the moment they were asked for."""
    import multiprocessing

    from django.db import connections

    context = multiprocessing.get_context("fork")
    connections.close_all()  # each process opens its own
    jobs, done, ready = context.Queue(), context.Queue(), context.Queue()
    processes = [context.Process(target=_worker, args=(jobs, done, ready)) for _ in range(workers)]
    for process in processes:
        process.start()
    for _ in processes:
        ready.get()
    figures = []
    for kind in ("page", "pdf"):
        started = time.perf_counter()
        for report_id in report_ids:
            jobs.put((kind, report_id))
        cpu_s = sum(done.get() for _ in report_ids)
        figures.append((time.perf_counter() - started, cpu_s))
    for _ in processes:
        jobs.put(None)
    for process in processes:
        process.join()
        assert process.exitcode == 0, process.exitcode
    return figures


def _worker(jobs, done, ready):
    """Take jobs until told to stop; put the CPU seconds each one took."""
    from scoring import reports, services

    reports.warm()
    ready.put(True)
    while (job := jobs.get()) is not None:
        kind, report_id = job
        began = time.process_time()
        if kind == "page":
            services.write_page(report_id)
        else:
            services.print_report(report_id)
        done.put(time.process_time() - began)


def finished_session():
    """32 students at 8 tables, each seat played to the end by a household policy, then ended."""
    from unittest import mock

    from classroom import services
    from classroom.models import Teacher
    from games import services as games
    from games.models import Game
    from scenarios.evacuation import bots

    teacher = Teacher.objects.create_user(email=f"bench{time.time_ns()}@school.test")
    session = services.create_session(teacher=teacher, scenario="evacuation", seed=2024, title="Bench class")
    for i in range(sized(32, 4)):
        services.join(session=session, nickname=f"Student{i:02d}")
    services.start(session=session)
    policies = ["cautious", "last_minute", "bank_farming", "random"]
    for table in session.tables.select_related("game"):
        engine = games.engine_for(table.game)
        for _ in range(5000):
            state = engine.load(Game.objects.get(pk=table.game_id).state)
            if engine.finished(state):
                break
            for seat in engine.to_act(state):
                state = engine.load(Game.objects.get(pk=table.game_id).state)
                if engine.finished(state) or seat not in engine.to_act(state):
                    continue
                policy = bots.BOTS[policies[(seat + table.number) % 4]]
                games.submit(game_id=table.game_id, seat=seat, action=policy(state, seat))
    with mock.patch("scoring.jobs.queue_debrief"):
        services.end(session=session)
    return session


if __name__ == "__main__":
    main()
