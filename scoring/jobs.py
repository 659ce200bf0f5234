"""Report jobs: queueing them after commit and the teacher's rebuild and retry buttons.

The one module that starts background work (``scoring.queue.enqueue``); the Celery tasks it
queues (``scoring.tasks``) call ``scoring.services`` to do it, so the imports run one way:
views → jobs → tasks → services → reports → selectors.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from classroom.models import Session
from scoring import services, tasks
from scoring.models import Report
from scoring.queue import enqueue
from scoring.services import mark


def queue_debrief(*, session_id: int) -> None:
    """Queue the session's report jobs after commit."""
    enqueue(tasks.build_debrief, session_id)


def debrief_when_ended(sender, *, session_id: int, **_kwargs) -> None:
    """``classroom.signals.session_ended``: the session's debrief starts."""
    queue_debrief(session_id=session_id)


def resume_when_serving(sender, **_kwargs) -> int:
    """``classroom.signals.serving``: the embedded server takes up what its last run left."""
    return resume_unfinished()


def resume_unfinished() -> int:
    """Embedded mode: queue again the reports the last server process left queued or running.

    There the jobs run on a background thread of the server process, so stopping the server (a
    laptop closed after the lesson) loses the jobs, and their rows would say "Queued" for ever.
    Each rerun replaces its row, so a report queued twice is still written once. With Celery
    the broker keeps unfinished jobs (late acknowledgement), so nothing is needed. A PDF whose
    printing was lost is asked for again by its reader's waiting page (``ask_for_pdf``). Returns
    how many were queued."""
    if settings.TASK_MODE != "thread":
        return 0
    ids = list(
        Report.objects.filter(status__in=[Report.Status.QUEUED, Report.Status.RUNNING]).values_list("pk", flat=True)
    )
    for report_id in ids:
        enqueue(tasks.build_report_task, report_id)
    return len(ids)


# A report's PDF is printed when a reader first asks for it: most reports are read on the tablet
# and never printed. Asking again within this many seconds queues nothing more, so a waiting page
# that refreshes, or a student pressing again, prints it once; after it, a print lost with its
# worker or its server is asked for again.
PDF_ASK_SECONDS = 60


def ask_for_pdf(*, report: Report) -> bool:
    """Queue the printing of a written report's PDF, unless it was asked for in the last
    ``PDF_ASK_SECONDS`` (False). A rewritten report is a new page, asked for afresh."""
    if report.status != Report.Status.DONE or report.pdf:
        return False
    if not cache.add(f"pdf-asked:{report.pk}:{report.finished_at.timestamp()}", 1, timeout=PDF_ASK_SECONDS):
        return False
    enqueue(tasks.print_report_task, report.pk)
    return True


def ask_for_class_pdf(*, session: Session, kind: str) -> bool:
    """Queue the printing of one of the class's PDFs (``scoring.models.ClassPrint``), unless it
    is printed and up to date, cannot be printed yet (reports still being written), or was asked
    for in the last ``PDF_ASK_SECONDS`` (False each time)."""
    source = services.class_print_source(session, kind)
    if not source or services.class_print(session, kind) is not None:
        return False
    if not cache.add(f"class-pdf-asked:{session.pk}:{kind}:{source}", 1, timeout=PDF_ASK_SECONDS):
        return False
    enqueue(tasks.print_class_task, session.pk, kind)
    return True


# Rebuilding every report of a session, or retrying one, starts real work (charts, PDFs) on the
# report worker; a teacher clicking again, or a script, must not be able to queue it over and over.
BUILDS_PER_HOUR = {"rebuild": 6, "retry": 60}


def _building(reports) -> bool:
    return reports.filter(status__in=[Report.Status.QUEUED, Report.Status.RUNNING]).exists()


def _within_hourly_limit(kind: str, session_id: int) -> bool:
    from django.core.cache import cache

    key = f"builds:{kind}:{session_id}:{int(timezone.now().timestamp() // 3600)}"
    if cache.add(key, 1, timeout=3600):
        return True
    return cache.incr(key) <= BUILDS_PER_HOUR[kind]


def request_rebuild(*, session: Session) -> bool:
    """The teacher's "write every report again": ignored (False) while the session's reports are
    being written, or after BUILDS_PER_HOUR["rebuild"] in the last hour."""
    with transaction.atomic():
        if _building(Report.objects.filter(session=session)):
            return False
        if not _within_hourly_limit("rebuild", session.pk):
            return False
        # Shown as queued at once, so a second click before the task starts is ignored too.
        Report.objects.filter(session=session).update(status=Report.Status.QUEUED, queued_at=timezone.now())
        queue_debrief(session_id=session.pk)
    return True


def request_retry(*, report: Report) -> bool:
    """The teacher's retry button: ignored (False) while this report is queued or being written,
    or after BUILDS_PER_HOUR["retry"] retries in the session in the last hour."""
    if _building(Report.objects.filter(pk=report.pk)) or not _within_hourly_limit("retry", report.session_id):
        return False
    retry_report(report=report)
    return True


def retry_report(*, report: Report) -> None:
    """The teacher's retry button: queue the one report again."""
    mark(report.pk, status=Report.Status.QUEUED, progress=0, step="", error="", queued_at=timezone.now())
    enqueue(tasks.build_report_task, report.pk)
