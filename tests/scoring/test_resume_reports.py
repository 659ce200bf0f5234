"""Embedded mode: reports a stopped server left unfinished are written after it starts again."""

import pytest
from django.utils import timezone

from classroom.models import Session
from scoring import jobs, services
from scoring.models import Report
from tests.factories import started_session
from tests.scoring.conftest import play_as_students
from tests.scoring.test_reports import wait_for_reports


@pytest.mark.django_db(transaction=True)
def test_reports_a_stopped_server_left_queued_running_or_unprinted_are_finished_on_restart(settings):
    settings.TASK_MODE = "thread"  # the embedded mode of `make run`: jobs on a thread of the server
    session, _ = started_session(students=2)
    play_as_students(session)
    # The lesson ended and its jobs were planned, then the server stopped before they ran: one
    # row still says queued, one says running.
    Session.objects.filter(pk=session.pk).update(status=Session.Status.ENDED, ended_at=timezone.now())
    reports = services.plan_reports(session)
    Report.objects.filter(pk=reports[0].pk).update(status=Report.Status.RUNNING, progress=40)
    services.write_page(reports[1].pk)  # and one was written, its PDF not yet printed
    assert services.job_status(session)["printed"] == 0

    assert jobs.resume_unfinished() == len(reports)

    status = wait_for_reports(session)
    assert status["done"] == status["printed"] == len(reports) and status["failed"] == 0
    assert all(
        report.ready and bytes(report.pdf).startswith(b"%PDF") for report in Report.objects.filter(session=session)
    )
    assert jobs.resume_unfinished() == 0  # nothing left to resume


@pytest.mark.django_db
def test_with_celery_the_broker_keeps_unfinished_jobs(settings):
    settings.TASK_MODE = "redis"
    session, _ = started_session(students=1)
    services.plan_reports(session)
    assert jobs.resume_unfinished() == 0
