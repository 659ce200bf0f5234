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
    """Write one report; a failure is recorded on the row (with its reason) and re-raised."""
    from scoring import services

    report = services.build_report(report_id)
    return report.status if report else "gone"
