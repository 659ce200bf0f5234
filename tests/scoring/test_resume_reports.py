"""Embedded mode: reports a stopped server left unfinished are written after it starts again,
and a PDF is printed once for however many times it is asked for."""

import time

import pytest
from django.utils import timezone

from classroom import signals
from classroom.models import Session
from scoring import jobs, services
from scoring.models import Report
from tests.factories import started_session
from tests.scoring.conftest import play_as_students
from tests.scoring.test_reports import print_every_pdf, wait_for_reports


@pytest.mark.django_db(transaction=True)
def test_reports_a_stopped_server_left_queued_or_running_are_written_on_restart(settings):
    settings.TASK_MODE = "thread"  # the embedded mode of `make run`: jobs on a thread of the server
    session, _ = started_session(students=2)
    play_as_students(session)
    # The lesson ended and its jobs were planned, then the server stopped before they ran: one
    # row still says queued, one says running, and one was written.
    Session.objects.filter(pk=session.pk).update(status=Session.Status.ENDED, ended_at=timezone.now())
    reports = services.plan_reports(session)
    Report.objects.filter(pk=reports[0].pk).update(status=Report.Status.RUNNING, progress=40)
    services.write_page(reports[1].pk)

    # what the embedded server announces as it starts, and scoring answers
    assert sum(count or 0 for _receiver, count in signals.serving.send(sender=None)) == len(reports) - 1

    status = wait_for_reports(session)
    assert status["done"] == len(reports) and status["failed"] == 0 and status["printed"] == 0
    assert jobs.resume_unfinished() == 0  # nothing left to resume
    status = print_every_pdf(session)  # each PDF printed as its reader asks for it
    assert status["printed"] == len(reports) and status["failed"] == 0
    assert all(bytes(report.pdf).startswith(b"%PDF") for report in Report.objects.filter(session=session))


@pytest.mark.django_db(transaction=True)
def test_a_pdf_asked_for_is_queued_once_and_asked_again_when_it_never_came(settings, monkeypatch):
    """A waiting page that refreshes, or a student pressing again, queues no second print; a
    print lost with its server is queued again once ``PDF_ASK_SECONDS`` have passed."""
    settings.TASK_MODE = "thread"
    session, _ = started_session(students=1)
    play_as_students(session)
    Session.objects.filter(pk=session.pk).update(status=Session.Status.ENDED, ended_at=timezone.now())
    report = services.plan_reports(session)[0]
    services.write_page(report.pk)
    monkeypatch.setattr(jobs, "PDF_ASK_SECONDS", 1)
    report = Report.objects.get(pk=report.pk)
    assert jobs.ask_for_pdf(report=report)
    assert not any(jobs.ask_for_pdf(report=report) for _ in range(20))
    deadline = time.monotonic() + 10
    while not jobs.ask_for_pdf(report=report):  # as if the first print never came
        assert time.monotonic() < deadline, "asked again after a second, and nothing was queued"
        time.sleep(0.1)
    deadline = time.monotonic() + 60
    while not (printed := Report.objects.get(pk=report.pk)).pdf:
        assert time.monotonic() < deadline, "the PDF asked for was never printed"
        time.sleep(0.1)
    assert not jobs.ask_for_pdf(report=printed)  # printed: nothing to ask


@pytest.mark.django_db
def test_with_celery_the_broker_keeps_unfinished_jobs(settings):
    settings.TASK_MODE = "redis"
    session, _ = started_session(students=1)
    services.plan_reports(session)
    assert jobs.resume_unfinished() == 0
