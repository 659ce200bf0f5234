"""The teacher prints the whole class at once: every student's summary (or full report) in one
PDF, and every student's family plan in another, each student's part in that student's
language; printed by a real Celery worker when first asked, like a report's PDF."""

import re
import time

import pytest
from django.db import transaction
from django.urls import reverse

from classroom import services as classroom
from classroom.consumers import token_cookie
from classroom.models import Participant, Seat
from scoring import jobs
from scoring.models import ClassPrint
from tests import pdfs
from tests.factories import PASSWORD, make_teacher, started_session
from tests.scoring.conftest import play_as_students
from tests.scoring.test_reports import wait_for_reports

#: the students' languages, in the order they join (and sit)
LANGUAGES = ["es", "nl", "en", "es"]
#: how each language heads a student's part: "<nickname> · table <n>"
TABLE = {"en": "table", "es": "mesa", "nl": "tafel"}
#: a heading every summary has, in each language
DECIDED = {"en": "What you decided", "es": "Lo que decidiste", "nl": "Wat je besliste"}
DECIDED_BY_TEAM = {"en": "What your team decided", "es": "Lo que decidió tu equipo", "nl": "Wat je team besliste"}
GRADE = {"en": "grade", "es": "nivel de evidencia", "nl": "bewijsniveau"}
PLAN = {
    "en": "Our family emergency plan",
    "es": "Nuestro plan familiar de emergencia",
    "nl": "Ons noodplan voor het gezin",
}


@pytest.fixture(scope="module")
def class_written(module_worker):
    """A finished lesson of four students speaking Spanish, Dutch and English, with its reports
    and the students' devices."""
    session, devices = started_session(students=len(LANGUAGES))
    for (participant, _token), language in zip(devices, LANGUAGES):
        Participant.objects.filter(pk=participant.pk).update(language=language)
    play_as_students(session)
    classroom.end(session=session)
    session.refresh_from_db()
    assert wait_for_reports(session)["failed"] == 0
    return session, devices


@pytest.fixture
def lesson(class_written, django_db_blocker):
    with django_db_blocker.unblock():
        yield class_written


def students_in_order(session):
    """(nickname, table, language) of each student, by table and seat."""
    seats = Seat.objects.filter(table__session=session, participant__isnull=False).select_related(
        "participant", "table"
    )
    return [
        (s.participant.nickname, s.table.number, s.participant.language)
        for s in seats.order_by("table__number", "number")
    ]


def url(session, kind):
    return reverse("scoring:class_pdf", args=[session.pk, kind])


def ask_until_printed(client, session, kind, timeout=180):
    """The teacher's link, opened again as its "almost ready" page does, until the PDF is there."""
    deadline = time.monotonic() + timeout
    while (answer := client.get(url(session, kind))).status_code == 503 and time.monotonic() < deadline:
        time.sleep(0.3)
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf", answer.status_code
    return answer.content


def parts(pages, students):
    """Each student's pages: from the page their heading opens to the next student's."""
    starts = []
    for name, table, language in students:
        heading = f"{name} · {TABLE[language]} {table}"
        found = [i for i, page in enumerate(pages) if heading in " ".join(page.split())]
        assert len(found) == 1, (heading, found)
        starts.append(found[0])
    assert starts == sorted(starts) and starts[0] == 0, starts  # in seat order, from the first page
    ends = starts[1:] + [len(pages)]
    return [" ".join(" ".join(pages[a:b]).split()) for a, b in zip(starts, ends)], [b - a for a, b in zip(starts, ends)]


def test_the_teacher_asks_once_and_gets_every_summary_in_each_students_language(
    client, lesson, django_capture_on_commit_callbacks
):
    """The reports page links the class's PDFs; the first ask queues one print and answers
    "almost ready", asking again within the minute queues nothing more; the PDF then holds each
    student's summary, in seat order, on one or two pages of its own, in that student's language,
    with the facts' sources and grades."""
    session, _devices = lesson
    client.login(email=session.teacher.email, password=PASSWORD)
    page = client.get(reverse("scoring:session_reports", args=[session.pk])).content.decode()
    for kind in ("summaries", "reports", "plans"):
        assert f'href="{url(session, kind)}"' in page
    with transaction.atomic(), django_capture_on_commit_callbacks() as queued:  # sent as it commits
        first = client.get(url(session, "summaries"))
        again = client.get(url(session, "summaries"))
    assert len(queued) == 1  # one print for two asks
    assert first.status_code == again.status_code == 503 and first["Retry-After"] == "5"
    assert "The PDF is almost ready" in first.content.decode()

    pdf = ask_until_printed(client, session, "summaries")
    students = students_in_order(session)
    assert {language for _n, _t, language in students} == {"es", "nl", "en"}
    texts, counts = parts(pdfs.pdf_pages(pdf), students)
    assert all(1 <= n <= 2 for n in counts), counts
    for text, (name, _table, language) in zip(texts, students):
        assert DECIDED[language] in text, (name, language)
        assert not any(DECIDED[other] in text for other in DECIDED if other != language), (name, language)
        assert re.search(rf"{GRADE[language]} [OS]:", text), name  # every fact shown names its grade
    assert not jobs.ask_for_class_pdf(session=session, kind="summaries")  # printed and up to date


def test_the_full_reports_and_the_family_plans_are_one_part_per_student(client, lesson):
    """The full-reports PDF holds each student's report in order; the family-plans PDF holds one
    plan per student, each headed by nickname and table in that student's language."""
    session, _devices = lesson
    client.login(email=session.teacher.email, password=PASSWORD)
    students = students_in_order(session)
    texts, _counts = parts(pdfs.pdf_pages(ask_until_printed(client, session, "reports")), students)
    sources = {"en": "Sources", "es": "Fuentes", "nl": "Bronnen"}
    for text, (name, _table, language) in zip(texts, students):
        assert sources[language] in text, (name, language)  # the whole report, in the student's language

    plans = pdfs.pdf_pages(ask_until_printed(client, session, "plans"))
    texts, _counts = parts(plans, students)
    whole = " ".join(" ".join(plans).split())
    assert sum(whole.count(title) for title in PLAN.values()) == len(students)
    for text, (name, _table, language) in zip(texts, students):
        assert text.count(PLAN[language]) == 1, (name, language)


def test_only_the_sessions_teacher_may_ask(client, lesson, django_capture_on_commit_callbacks):
    """Another teacher gets a 404 and a student's device no PDF; neither queues a print."""
    session, devices = lesson
    ClassPrint.objects.filter(session=session).delete()
    client.cookies[token_cookie(session.pk)] = devices[0][1]  # a student's tablet
    with transaction.atomic(), django_capture_on_commit_callbacks() as queued:
        device = client.get(url(session, "plans"))
        client.login(email=make_teacher().email, password=PASSWORD)
        other = [client.get(url(session, kind)).status_code for kind in ("summaries", "reports", "plans")]
        client.login(email=session.teacher.email, password=PASSWORD)
        unknown = client.get(url(session, "everything")).status_code
    assert device.status_code in (302, 403, 404) and device.get("Content-Type") != "application/pdf"
    assert other == [404, 404, 404] and unknown == 404
    assert queued == [] and not ClassPrint.objects.filter(session=session).exists()


@pytest.mark.parametrize("scenario", ["evacuation", "bermuda", "resort", "stormfury", "tornado_alert"])
def test_every_scenarios_summaries_take_one_or_two_pages_a_student(db, scenario):
    """Each scenario's summary of a Spanish and a Dutch student (or their team) fits one or two
    pages of its own, in that student's language; printed here as the worker prints it."""
    from scoring import services
    from tests.factories import join_students, make_session

    session = make_session(scenario=scenario)
    for (participant, _token), language in zip(join_students(session, 2), ["es", "nl"]):
        Participant.objects.filter(pk=participant.pk).update(language=language)
    classroom.start(session=session)
    classroom.finish_with_bots(session=session)  # in the test's transaction: nothing is queued
    for report in services.plan_reports(session):
        services.write_page(report.pk)
    printed = services.print_class(session.pk, ClassPrint.Kind.SUMMARIES)
    pages = pdfs.pdf_pages(printed.pdf)
    students = students_in_order(session)
    if scenario == "stormfury":  # one team report per language at each table
        assert {language for _n, _t, language in students} == {"es", "nl"}
        assert any(DECIDED_BY_TEAM["es"] in page for page in pages)
        assert any(DECIDED_BY_TEAM["nl"] in page for page in pages)
        assert 2 <= len(pages) <= 4, len(pages)
        return
    texts, counts = parts(pages, students)
    assert all(1 <= n <= 2 for n in counts), counts
    for text, (name, _table, language) in zip(texts, students):
        assert DECIDED[language] in text, (name, language)
