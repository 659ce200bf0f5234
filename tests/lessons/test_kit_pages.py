"""The kit's pages and PDFs as a teacher and a student open them: guide, printables, join slips,
the session's kit, and the family plan filled from the student's own game."""

import pytest
from django.urls import reverse

from classroom.consumers import token_cookie
from classroom.models import Participant
from lessons import services
from scenarios import registry
from tests import pdfs
from tests.factories import PASSWORD, join_students, make_session, make_teacher

pytestmark = pytest.mark.django_db


def pdf_text(response) -> str:
    assert response["Content-Type"] == "application/pdf"
    return pdfs.pdf_text(b"".join(response.streaming_content) if response.streaming else response.content)


@pytest.fixture
def teacher_client(client):
    teacher = make_teacher()
    client.login(email=teacher.email, password=PASSWORD)
    client.teacher = teacher
    return client


def test_the_session_page_reaches_every_part_of_the_kit_in_two_taps(teacher_client):
    session = make_session(teacher=teacher_client.teacher)
    page = teacher_client.get(reverse("classroom:session", args=[session.pk])).content.decode()
    kit_url = reverse("lessons:kit", args=[session.pk])
    assert f'href="{kit_url}"' in page
    kit = teacher_client.get(kit_url).content.decode()
    for url in (
        reverse("lessons:guide", args=[session.scenario]),
        reverse("lessons:guide_pdf", args=[session.scenario]),
        reverse("lessons:printables_pdf", args=[session.scenario]),
        reverse("lessons:handout_pdf", args=[session.pk]),
        reverse("lessons:plan_sample", args=[session.pk]),
    ):
        assert url in kit
    assert "Turn the check off" in kit, "the knowledge check is on for every new session"
    form = teacher_client.get(reverse("classroom:session_new")).content.decode()
    for scenario in registry.all():
        assert reverse("lessons:guide", args=[scenario.key]) in form


def test_the_printables_carry_the_games_own_content(teacher_client):
    """The evacuation board names its places, the cards their titles, the sheet the clock's
    marks; Stormfury's map its cities and its cards their titles."""
    text = pdf_text(teacher_client.get(reverse("lessons:printables_pdf", args=["evacuation"])))
    for words in ("Relative's home", "Contraflow!", "Gridlock", "Hurricane WARNING", "State of the system"):
        assert words in text
    text = pdf_text(teacher_client.get(reverse("lessons:printables_pdf", args=["stormfury"])))
    for words in ("Galveston", "Rapid intensification", "Aquatic Engineer", "Fortify +2", "Round 1"):
        assert words in text
    only = pdf_text(teacher_client.get(reverse("lessons:printables_pdf", args=["stormfury"]) + "?only=board"))
    assert "Galveston" in only and "Aquatic Engineer" not in only
    assert teacher_client.get(reverse("lessons:printables_pdf", args=["nowhere"])).status_code == 404


def test_the_guide_times_a_45_minute_period_and_names_the_standard(teacher_client):
    page = teacher_client.get(reverse("lessons:guide", args=["evacuation"])).content.decode()
    assert "MS-ESS3-2" in page and "No devices?" in page
    text = pdf_text(teacher_client.get(reverse("lessons:guide_pdf", args=["stormfury"])))
    assert "ESS3-2" in text and "25 minutes" in text and "The debrief, step by step" in text


def test_the_join_slips_carry_the_code_and_the_qr_address(teacher_client, settings):
    session = make_session(teacher=teacher_client.teacher)
    text = pdf_text(teacher_client.get(reverse("lessons:handout_pdf", args=[session.pk])))
    assert f"{session.join_code[:3]}-{session.join_code[3:]}" in text
    assert f"{settings.PUBLIC_BASE_URL}/join/{session.join_code}" in text
    other = make_session()
    assert teacher_client.get(reverse("lessons:handout_pdf", args=[other.pk])).status_code == 404


def test_the_family_plan_comes_from_the_students_own_game(client, finished_session):
    """Each line the game can fill says what this household did; the PDF prints the same plan
    with the teacher's local office, and nothing personal is asked."""
    session, devices = finished_session
    services.set_local_office(session=session, text="County Emergency Management, 555-0100")
    participant, token = devices[0]
    row = services.decision_row(participant)
    assert row is not None
    plan = services.family_plan(participant)
    kit = registry.get(session.scenario).kit
    where = next(line for line in plan["lines"] if line["key"] == "where")
    expected = next(spec for spec in kit.plan if spec.key == "where").values.get(str(row["destination"]))
    assert where["text"] == (expected or next(spec for spec in kit.plan if spec.key == "where").otherwise)
    assert where["from_game"] == bool(expected)
    client.cookies[token_cookie(session.pk)] = token
    page = client.get(reverse("lessons:student_plan", args=[session.pk])).content.decode()
    plan_part = page[page.index('<article class="card kit-plan">') :]  # below the top bar's language picker
    assert str(where["text"]).replace("'", "&#x27;") in plan_part and "<input" not in plan_part
    text = pdf_text(client.get(reverse("lessons:student_plan_pdf", args=[session.pk])))
    assert "County Emergency Management" in text and "ready.gov" in text
    assert "gallon of water per person per day" in text  # the cited fact


def test_a_stormfury_student_gets_their_teams_plan(finished_stormfury):
    session, devices = finished_stormfury
    row = services.decision_row(devices[0][0])
    assert row is not None and "people_not_evacuated" in row
    when = next(line for line in services.family_plan(devices[0][0])["lines"] if line["key"] == "when")
    assert when["text"]


@pytest.fixture
def finished_stormfury(db):
    from classroom import services as classroom
    from tests.factories import started_session

    session, devices = started_session(students=2, scenario="stormfury")
    classroom.finish_with_bots(session=session)
    classroom.end(session=session)
    session.refresh_from_db()
    return session, devices


def test_a_plan_link_from_a_forged_report_token_is_refused(client):
    assert client.get(reverse("lessons:linked_plan", args=["forged:token"])).status_code == 404


def test_a_device_that_never_joined_gets_no_plan(client):
    session = make_session()
    join_students(session, 1)
    assert client.get(reverse("lessons:student_plan", args=[session.pk])).status_code == 404


def test_reports_written_after_the_after_check_carry_it_in_their_pdfs():
    """The student's report PDF and the class packet, written (again) once the after-check is
    answered, print the before/after; the stored pages show it whenever they are opened."""
    from classroom import services as classroom
    from lessons import knowledge
    from scoring.models import Report
    from scoring.services import build_report, plan_reports
    from tests.lessons.test_knowledge_check import answer_all
    from tests.scoring.conftest import play_as_students

    session = make_session()
    devices = join_students(session, 2)
    Participant.objects.filter(session=session).update(approved=True)  # the teacher let them in
    students = [participant for participant, _token in devices]
    for student in students:
        student.approved = True
        answer_all(student, "before", right=False)
    classroom.start(session=session)
    session.refresh_from_db()
    play_as_students(session)
    classroom.end(session=session)
    knowledge.open_after(session=session)
    answer_all(students[0], "after", right=True)
    asked = len(knowledge.items_for(students[0], "after"))
    knowledge.close_after(session=session)  # the packet shows the questions once it has closed
    for report in plan_reports(session):
        build_report(report.pk)
    own = Report.objects.get(seat__participant=students[0])
    text = pdfs.pdf_text(own.pdf)
    assert "Your knowledge check, before and after" in text
    assert f"Before: 0 of {asked} right · After: {asked} of {asked} right" in text
    assert "knowledge check" not in own.html  # the stored page gets it when served
    packet = Report.objects.get(session=session, kind=Report.Kind.CLASS)
    text = pdfs.pdf_text(packet.pdf)
    assert "How the class's answers changed" in text
    assert "Before the game, 0 in 10 answers were right; after it, 10 in 10." in text
    assert "For the 1 student who answered before play (on time) and after: 0% right before, 100% after." in text
    assert "Normalized gain: 1.00" in text and "Indicative only" in text


def test_a_guide_asked_with_a_bad_session_number_still_opens(teacher_client):
    for value in ("abc", "12", ""):
        assert (
            teacher_client.get(reverse("lessons:guide", args=["evacuation"]) + f"?session={value}").status_code == 200
        )


def test_before_play_the_plan_says_nothing_about_a_game_not_yet_played(client):
    session = make_session()
    ((participant, token),) = join_students(session, 1)
    plan = services.family_plan(participant)
    assert not plan["played"] and not any(line["from_game"] for line in plan["lines"])
    assert not any("in the game" in str(line["text"]) for line in plan["lines"])
    client.cookies[token_cookie(session.pk)] = token
    assert "Once you have played" in client.get(reverse("lessons:student_plan", args=[session.pk])).content.decode()


def test_a_dutch_or_spanish_plan_reads_its_english_sources_in_english():
    """The sources' names and titles are English: on another language's page they say so, for a
    screen reader to read them in English; on an English page they need not."""
    import html
    import re

    from django.template.loader import render_to_string
    from django.utils import translation

    session = make_session(region="caribbean_nl")
    for language in ("nl", "es", "en"):
        with translation.override(language):
            plan = services.family_plan_blank(session)
            page = render_to_string("lessons/_plan_body.html", {"plan": plan})
        assert plan["facts"]
        marked = {html.unescape(c) for c in re.findall(r'<span lang="en">([^<]+)</span>', page)}
        for fact in plan["facts"]:
            assert (fact.citation in marked) == (language != "en"), (language, fact.citation)
