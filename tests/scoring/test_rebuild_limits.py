"""Rebuilding or retrying reports starts real work on the report worker: a second click while the
work is queued or running changes nothing, and each session has an hourly allowance."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom import services as classroom
from scoring import jobs, services
from scoring.models import Report
from tests.factories import started_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def ended(settings):
    """An ended lesson whose reports are all written, and its teacher's browser."""
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "rebuild-limits"}
    }
    session, _devices = started_session(students=2)
    classroom.end(session=session)
    services.plan_reports(session)
    finish_all(session)
    teacher = Client()
    teacher.force_login(session.teacher)
    return session, teacher


def finish_all(session):
    Report.objects.filter(session=session).update(status=Report.Status.DONE, html="<p>r</p>")


def statuses(session):
    return set(Report.objects.filter(session=session).values_list("status", flat=True))


def test_rebuilding_is_ignored_while_the_reports_are_being_written(ended):
    session, teacher = ended
    rebuild = reverse("scoring:session_rebuild", args=[session.pk])
    assert teacher.post(rebuild).status_code == 302
    assert statuses(session) == {Report.Status.QUEUED}
    queued_at = set(Report.objects.filter(session=session).values_list("queued_at", flat=True))

    again = teacher.post(rebuild, follow=True)
    assert "The reports are being written already" in again.content.decode()
    assert set(Report.objects.filter(session=session).values_list("queued_at", flat=True)) == queued_at


def test_rebuilding_is_limited_per_session_each_hour(ended):
    session, teacher = ended
    rebuild = reverse("scoring:session_rebuild", args=[session.pk])
    for _ in range(jobs.BUILDS_PER_HOUR["rebuild"]):
        teacher.post(rebuild)
        assert statuses(session) == {Report.Status.QUEUED}
        finish_all(session)
    teacher.post(rebuild)
    assert statuses(session) == {Report.Status.DONE}


def test_a_retry_is_ignored_while_its_report_is_queued_or_running(ended):
    session, teacher = ended
    report = Report.objects.filter(session=session, kind=Report.Kind.STUDENT).first()
    retry = reverse("scoring:report_retry", args=[report.pk])
    for status in (Report.Status.QUEUED, Report.Status.RUNNING):
        stamp = timezone.now() - timezone.timedelta(minutes=5)
        Report.objects.filter(pk=report.pk).update(status=status, queued_at=stamp)
        answer = teacher.post(retry, HTTP_ACCEPT="application/json")
        assert answer.json() == {"ok": False}
        report.refresh_from_db()
        assert (report.status, report.queued_at) == (status, stamp)
    Report.objects.filter(pk=report.pk).update(status=Report.Status.FAILED)
    assert teacher.post(retry, HTTP_ACCEPT="application/json").json() == {"ok": True}
    report.refresh_from_db()
    assert report.status == Report.Status.QUEUED
