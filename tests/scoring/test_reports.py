"""Reports written by a real Celery worker on Redis, and who may open them."""

import time

import pytest
from django.core import signing
from django.db import transaction
from django.urls import reverse

from classroom.models import Seat
from scoring import jobs, services, tasks
from scoring.models import DebriefSettings, Fact, Report
from tests import pdfs
from tests.factories import PASSWORD, make_teacher
from tests.scoring.conftest import finish_a_session


def wait_for_reports(session, timeout=180):
    """The job status once every report is written, or failed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = services.job_status(session)
        if status["total"] and status["done"] + status["failed"] == status["total"]:
            return status
        time.sleep(0.3)
    raise AssertionError(f"reports not written in {timeout} s: {services.job_status(session)}")


def print_every_pdf(session, timeout=180):
    """Ask for every written report's PDF, as a reader opening its PDF link does (and for each
    report being written, once it is), and return the job status once the worker has printed
    them all (or one failed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = services.job_status(session)
        if status["total"] and status["printed"] + status["failed"] == status["total"]:
            return status
        for report in Report.objects.filter(session=session, status=Report.Status.DONE, pdf=b""):
            jobs.ask_for_pdf(report=report)  # asked again within a minute: nothing more queued
        time.sleep(0.3)
    raise AssertionError(f"PDFs not printed in {timeout} s: {services.job_status(session)}")


def pdf_text(report) -> str:
    return "\n".join(pdfs.pdf_pages(report.pdf))


@pytest.fixture(scope="module")
def written_once(module_worker):
    """A finished session's reports, written by the worker after ``end`` queued them: once for
    the module, as writing them is most of each test's time."""
    session, devices = finish_a_session()
    assert wait_for_reports(session)["failed"] == 0
    return session, devices


@pytest.fixture
def written(written_once, django_db_blocker):
    """The shared finished session with its reports; a test that rewrites or breaks one leaves it
    written again (its PDF printed again only when a later test asks for it)."""
    with django_db_blocker.unblock():
        yield written_once


@pytest.fixture
def printed(written):
    """The shared session with every report's PDF, asked for as its reader does where a test
    before this one left it unprinted."""
    assert print_every_pdf(written[0])["failed"] == 0
    return written


def test_a_finished_session_produces_every_report(printed):
    """One report per student seat plus the class packet, each with a page and a PDF."""
    session, _devices = printed
    student_seats = Seat.objects.filter(table__session=session, participant__isnull=False).count()
    assert student_seats == 6
    assert Report.objects.filter(session=session, kind=Report.Kind.STUDENT).count() == 6
    assert Report.objects.filter(session=session, kind=Report.Kind.CLASS).count() == 1
    for report in Report.objects.filter(session=session):
        assert report.status == Report.Status.DONE and report.progress == 100
        assert report.html.startswith("<!doctype html>") and bytes(report.pdf).startswith(b"%PDF")


def test_the_pdf_holds_the_students_decisions_and_citations(printed):
    """The PDF opens, and its text has the student's leaving hour, a counterfactual and the sources."""
    session, _devices = printed
    report = (
        Report.objects.filter(session=session, kind=Report.Kind.STUDENT).select_related("seat__participant").first()
    )
    text = " ".join(pdf_text(report).split())
    assert report.seat.participant.nickname in text
    story = report.data
    if story["left_hour"] is not None:
        assert f"Left home at hour {story['left_hour']:.1f}" in text
    assert "Sources" in text and report.data["facts"]
    for fact in Fact.objects.filter(key__in=report.data["facts"]):
        assert f"{fact.source} ({fact.year})" in text, fact.key
    assert "futures" in text
    assert report.data["counterfactuals"], "a counterfactual was computed"
    packet = " ".join(pdf_text(Report.objects.get(session=session, kind=Report.Kind.CLASS)).split())
    assert "Questions for the discussion" in packet and "Spread between tables" in packet


def test_running_the_job_again_replaces_rather_than_duplicates(written):
    """A second debrief run, and a second run of one report, leave one row per report."""
    session, _devices = written
    before = sorted(Report.objects.filter(session=session).values_list("pk", flat=True))
    jobs.queue_debrief(session_id=session.pk)  # outside a transaction: queued at once
    time.sleep(0.5)
    wait_for_reports(session)
    report = Report.objects.filter(session=session, kind=Report.Kind.STUDENT).first()
    services.build_report(report.pk)
    services.build_report(report.pk)
    assert sorted(Report.objects.filter(session=session).values_list("pk", flat=True)) == before
    report.refresh_from_db()
    assert report.status == Report.Status.DONE and report.attempts >= 3


def test_a_written_report_is_read_at_once_and_its_pdf_printed_when_asked_for(
    client, written, django_capture_on_commit_callbacks
):
    """A written report is read on its page at once; its PDF is printed only when someone opens
    the PDF link, which says it is being printed (and when to ask again) until the worker has
    printed it. A waiting page that refreshes asks for no second print."""
    session, devices = written
    student = devices[0][0]
    report = Report.objects.get(seat__participant=student)
    with transaction.atomic(), django_capture_on_commit_callbacks() as queued:
        assert tasks.build_report_task(report.pk) == "done"  # the worker's job for the report
    assert queued == []  # it queued nothing more: no PDF until someone asks
    report.refresh_from_db()
    assert report.status == Report.Status.DONE and report.progress == 100 and report.html and not report.pdf
    path = services.student_report_url(student).removeprefix(services.settings.PUBLIC_BASE_URL)
    assert student.nickname in client.get(path).content.decode()
    client.login(email=session.teacher.email, password=PASSWORD)
    row = next(r for r in services.job_status(session)["reports"] if r["id"] == report.pk)
    assert row["status"] == "done" and row["printed"] is False
    reports_page = client.get(reverse("scoring:session_reports", args=[session.pk])).content.decode()
    assert f'href="{row["pdf"]}"' in reports_page  # the teacher's PDF link is there to ask with
    client.logout()

    waiting = client.get(f"{path}{report.pk}.pdf")
    assert waiting.status_code == 503 and waiting["Retry-After"] == "5"
    assert "The PDF is almost ready" in waiting.content.decode()
    assert not jobs.ask_for_pdf(report=Report.objects.get(pk=report.pk))  # asked already: one print
    deadline = time.monotonic() + 60
    while (answer := client.get(f"{path}{report.pk}.pdf")).status_code == 503 and time.monotonic() < deadline:
        time.sleep(0.3)  # the page refreshing itself, faster
    assert answer.status_code == 200 and answer.content.startswith(b"%PDF")
    assert student.nickname in " ".join(pdf_text(Report.objects.get(pk=report.pk)).split())
    row = next(r for r in services.job_status(session)["reports"] if r["id"] == report.pk)
    assert row["printed"] is True and row["progress"] == 100


def test_a_student_opens_only_their_own_report(client, printed):
    """The signed link shows the student's own report and PDF; another report id is a 404."""
    session, devices = printed
    mine, theirs = devices[0][0], devices[1][0]
    url = services.student_report_url(mine)
    path = url.removeprefix(services.settings.PUBLIC_BASE_URL)
    answer = client.get(path)
    assert answer.status_code == 200
    assert mine.nickname in answer.content.decode() and theirs.nickname not in answer.content.decode()
    own = Report.objects.get(seat__participant=mine)
    other = Report.objects.get(seat__participant=theirs)
    assert client.get(f"{path}{own.pk}.pdf").status_code == 200
    assert client.get(f"{path}{other.pk}.pdf").status_code == 404
    tampered = path.replace(f":{mine.pk}:", f":{theirs.pk}:")
    assert client.get(tampered).status_code == 410


def test_an_expired_link_is_refused(client, written, monkeypatch, settings):
    """A link older than STUDENT_REPORT_LINK_DAYS no longer opens anything."""
    session, devices = written
    settings.STUDENT_REPORT_LINK_DAYS = 7
    real_time = signing.time.time
    monkeypatch.setattr(signing.time, "time", lambda: real_time() - 8 * 24 * 3600)
    token = services.student_report_token(devices[0][0])
    monkeypatch.setattr(signing.time, "time", real_time)
    answer = client.get(reverse("scoring:student_report", args=[token]))
    assert answer.status_code == 410
    assert devices[0][0].nickname not in answer.content.decode()


def test_a_teacher_opens_only_their_own_reports(client, printed):
    """Report pages, PDFs and retries of another teacher's session are 404s; the owner's open."""
    session, _devices = printed
    report = Report.objects.filter(session=session).first()
    client.login(email=make_teacher().email, password=PASSWORD)
    assert client.get(reverse("scoring:report", args=[report.pk])).status_code == 404
    assert client.get(reverse("scoring:report_pdf", args=[report.pk])).status_code == 404
    assert client.post(reverse("scoring:report_retry", args=[report.pk])).status_code == 404
    client.login(email=session.teacher.email, password=PASSWORD)
    assert client.get(reverse("scoring:report", args=[report.pk])).status_code == 200
    assert client.get(reverse("scoring:report_pdf", args=[report.pk]))["Content-Type"] == "application/pdf"


def test_a_failed_job_says_why_and_a_retry_writes_it(client, written, monkeypatch):
    """A failure is recorded with its reason; the retry button queues it again and it completes."""
    session, _devices = written
    report = Report.objects.filter(session=session, kind=Report.Kind.STUDENT).first()
    from scenarios.evacuation import debrief

    def broken(*args, **kwargs):
        raise RuntimeError("the chart library is missing")

    monkeypatch.setattr(debrief.EvacuationDebrief, "report", broken)
    with pytest.raises(RuntimeError):
        services.build_report(report.pk)
    client.login(email=session.teacher.email, password=PASSWORD)
    status = client.get(reverse("scoring:session_status", args=[session.pk])).json()
    row = next(r for r in status["reports"] if r["id"] == report.pk)
    assert row["status"] == "failed" and "the chart library is missing" in row["error"]
    monkeypatch.undo()
    assert client.post(reverse("scoring:report_retry", args=[report.pk])).status_code == 302
    wait_for_reports(session)
    report.refresh_from_db()
    assert report.status == Report.Status.DONE


def test_a_research_export_has_nicknames_only_with_the_opt_in(client, finished_session):
    """Without the opt-in no nickname appears in the CSV or JSON; with it, the JSON names seats."""
    session, devices = finished_session
    client.login(email=session.teacher.email, password=PASSWORD)
    names = [participant.nickname for participant, _token in devices]
    csv_text = client.get(reverse("scoring:export_csv", args=[session.pk])).content.decode()
    json_text = client.get(reverse("scoring:export_json", args=[session.pk])).content.decode()
    assert "seat_id" in csv_text.splitlines()[0] and "nickname" not in csv_text.splitlines()[0]
    for name in names:
        assert name not in csv_text and name not in json_text
    data = client.get(reverse("scoring:export_json", args=[session.pk])).json()
    assert data["data_dictionary"]["seat_id"] and data["moves"] and data["decisions"]
    services.update_settings(session=session, research_opt_in=True)
    assert DebriefSettings.of(session).research_opt_in
    json_text = client.get(reverse("scoring:export_json", args=[session.pk])).content.decode()
    assert all(name in json_text for name in names)
