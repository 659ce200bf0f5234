"""Celery entry points for the debrief: thin, idempotent, and passed ids only.

``acks_late`` and ``reject_on_worker_lost`` are on for every task (config.settings): a worker
killed mid-report gives the task back to the broker, and the rerun replaces the report row.
"""

from celery import shared_task
from django.db import OperationalError

from scoring.queue import enqueue


@shared_task(name="scoring.build_debrief", autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def build_debrief(session_id: int) -> int:
    """Plan one report per student seat plus the class packet, and queue each as its own job."""
    from classroom.models import Session
    from scoring import services

    session = Session.objects.filter(pk=session_id).first()
    if session is None:
        return 0
    reports = services.plan_reports(session)
    for report in reports:
        enqueue(build_report_task, report.pk)
    return len(reports)


@shared_task(name="scoring.build_report", autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def build_report_task(report_id: int) -> str:
    """Write one report's page; its PDF is printed when someone first asks for it
    (``scoring.jobs.ask_for_pdf``). A failure is recorded on the row (with its reason) and
    re-raised."""
    from scoring import services

    report = services.write_page(report_id)
    return report.status if report else "gone"


@shared_task(name="scoring.print_report", autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def print_report_task(report_id: int) -> str:
    """Print a written report as its PDF, asked for by a reader (nothing to do once printed, or
    once rewritten)."""
    from scoring import services

    report = services.print_report(report_id)
    return "printed" if report is not None and report.pdf else "skipped"


@shared_task(name="scoring.print_class", autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def print_class_task(session_id: int, kind: str) -> str:
    """Print one of the class's PDFs (every summary, every full report or every family plan),
    asked for by the teacher (nothing to do once it is printed and up to date)."""
    from scoring import services

    printed = services.print_class(session_id, kind)
    return "printed" if printed is not None else "skipped"
