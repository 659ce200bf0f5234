import time

from django.urls import reverse

from classroom import services
from tests.factories import PASSWORD, make_teacher, started_session


def test_the_class_debrief_page_shows_the_class_beside_cited_real_figures(client, finished_session):
    """Right after the end, from the move log: destinations beside Florida 2004, cited, and three questions."""
    session, _devices = finished_session
    client.login(email=session.teacher.email, password=PASSWORD)
    started = time.monotonic()
    answer = client.get(reverse("scoring:session_debrief", args=[session.pk]))
    assert time.monotonic() - started < 2
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "Where we went" in page and "Florida 2004" in page
    assert "Smith, S. K. &amp; McCarty, C." in page  # the citation of the real destination figures
    assert "65.2%" in page
    assert answer.context["summary"]["households"] == 6
    assert len(answer.context["summary"]["questions"]) == 3
    assert "Kid0" not in page  # the projector shows the class, never a student's name


def test_unfinished_and_bot_finished_tables_are_flagged(client, db):
    """A table the teacher finished with bots, or stopped, is named as such on the page."""
    session, _devices = started_session(students=4)
    services.finish_with_bots(session=session)
    client.login(email=session.teacher.email, password=PASSWORD)
    page = client.get(reverse("scoring:session_debrief", args=[session.pk])).content.decode()
    assert "Finished by bots: table 1" in page

    stopped, _devices = started_session(students=4, teacher=session.teacher)
    services.end_now(session=stopped)
    page = client.get(reverse("scoring:session_debrief", args=[stopped.pk])).content.decode()
    assert "Unfinished: table 1" in page


def test_a_teacher_cannot_open_another_teachers_debrief(client, finished_session):
    """Another teacher's session, its reports, status and exports are 404s."""
    session, _devices = finished_session
    other = make_teacher()
    client.login(email=other.email, password=PASSWORD)
    for name in ("session_debrief", "session_reports", "session_status", "export_csv", "export_json"):
        assert client.get(reverse(f"scoring:{name}", args=[session.pk])).status_code == 404, name
