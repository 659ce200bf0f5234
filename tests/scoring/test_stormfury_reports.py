"""Stormfury debriefs: one report per team (page and PDF), the class debrief page, team links."""

import pytest
from django.urls import reverse

from classroom import services as classroom
from classroom.models import Session
from games import services as games
from games.models import Game, Move
from scenarios.registry import ENGINES
from scenarios.stormfury import analysis as stormfury
from scoring import selectors, services
from scoring.models import Fact, Report
from tests import pdfs
from tests.factories import PASSWORD, join_students, make_session
from tests.scoring.test_reports import print_every_pdf, wait_for_reports


def play_storm_lesson(session, limit=4000):
    """Students (and bots in the empty seats) play the policy bot's choices; the class storm
    moves whenever every table waits for it, until every table's storm has died out."""
    policy = games._bot("stormfury", games.policy_bot("stormfury"))
    engine = ENGINES["stormfury"]
    tables = list(session.tables.prefetch_related("seats"))
    humans = {t.game_id: {s.number for s in t.seats.all() if s.participant_id} for t in tables}
    for _ in range(limit):
        acted = False
        for table in tables:
            state = engine.load(Game.objects.get(pk=table.game_id).state)
            for seat in engine.to_act(state):
                actor = Move.Actor.STUDENT if seat in humans[table.game_id] else Move.Actor.BOT
                games.submit(game_id=table.game_id, seat=seat, action=policy(state, seat), actor=actor)
                acted = True
                break
        if acted:
            continue
        if all(engine.finished(engine.load(Game.objects.get(pk=t.game_id).state)) for t in tables):
            return
        assert classroom.sweep_storms() > 0, "no table can act and the storm did not move"
    raise AssertionError("the lesson never finished")


def storm_lesson(students=4):
    session = make_session(scenario="stormfury", seats_per_table=2, turn_timer=False)
    devices = join_students(session, students)
    classroom.start(session=session)
    session.refresh_from_db()
    play_storm_lesson(session)
    return session, devices


@pytest.fixture(scope="module")
def storm_reports_once(module_worker):
    """A finished four-student Stormfury lesson (two teams of two), its reports written by the
    worker: once for the module's tests, which only read them."""
    session, devices = storm_lesson()
    classroom.end(session=session)
    assert wait_for_reports(session)["failed"] == 0
    assert print_every_pdf(session)["failed"] == 0  # as each reader opens the PDF link
    return session, devices


@pytest.fixture
def storm_reports(storm_reports_once, django_db_blocker):
    with django_db_blocker.unblock():
        yield storm_reports_once


def pdf_text(report) -> str:
    return pdfs.pdf_text(report.pdf)


def test_a_finished_stormfury_session_produces_one_report_per_team(storm_reports):
    """Two teams: two team reports and a class packet, each a page and a PDF with the team's
    damage beside the policy bot's on the same storm, the facts and their sources."""
    session, _devices = storm_reports
    teams = Report.objects.filter(session=session, kind=Report.Kind.TEAM).select_related("seat__table")
    assert teams.count() == 2 and Report.objects.filter(session=session, kind=Report.Kind.STUDENT).count() == 0
    assert {r.seat.table.number for r in teams} == {1, 2}
    for report in Report.objects.filter(session=session):
        assert report.status == Report.Status.DONE and bytes(report.pdf).startswith(b"%PDF")
    report = teams.first()
    game = Game.objects.get(table=report.seat.table)
    text = pdf_text(report)
    assert report.data["damage"] == games.results(game)[0]["score"]
    assert report.data["policy_bot"] == games.policy_results(game)[0]["score"]
    assert "people not yet evacuated" in text.lower() and "policy bot" in text.lower()
    assert "beat" not in text.lower()
    assert "Escape routes" in text and "Evacuate or fortify?" in text
    assert report.data["facts"]
    for fact in Fact.objects.filter(key__in=report.data["facts"]):
        assert fact.verified and f"{fact.source} ({fact.year})" in text, fact.key
    assert '<img class="chart"' in report.html and "data:image/svg+xml;base64," in report.html
    packet = pdf_text(Report.objects.get(session=session, kind=Report.Kind.CLASS))
    assert "Questions for the discussion" in packet and "Spread between tables" in packet


def test_every_student_of_a_team_opens_the_team_report_and_no_other(client, storm_reports):
    """Both students at table 1 reach table 1's report through their own links; table 2's is a 404."""
    session, devices = storm_reports
    from classroom.models import Seat

    by_table = {}
    for seat in Seat.objects.filter(table__session=session, participant__isnull=False).select_related(
        "table", "participant"
    ):
        by_table.setdefault(seat.table.number, []).append(seat.participant)
    own = Report.objects.get(session=session, kind=Report.Kind.TEAM, seat__table__number=1)
    other = Report.objects.get(session=session, kind=Report.Kind.TEAM, seat__table__number=2)
    for participant in by_table[1]:
        path = services.student_report_url(participant).removeprefix(services.settings.PUBLIC_BASE_URL)
        page = client.get(path)
        assert page.status_code == 200 and "Table 1's storm" in page.content.decode()
        assert client.get(f"{path}{own.pk}.pdf").status_code == 200
        assert client.get(f"{path}{other.pk}.pdf").status_code == 404


@pytest.mark.django_db
def test_the_stormfury_debrief_page_sets_damage_by_type_beside_real_figures(client):
    """Seconds after the end (no worker): teams' damage by type, the policy bot, the real figures
    with their sources, and three questions from what the class did."""
    session, _devices = storm_lesson()
    classroom.end(session=session)
    Session.objects.filter(pk=session.pk).update(intensity="frank", age_band="13+")
    session.refresh_from_db()
    client.login(email=session.teacher.email, password=PASSWORD)
    page = client.get(reverse("scoring:session_debrief", args=[session.pk])).content.decode()
    assert "Damage by team" in page and "Policy bot, same storm" in page
    _template, context = services.debrief_page(session)
    assert len(context["summary"]["questions"]) == 3
    for question in context["summary"]["questions"]:
        assert question["text"][:40] in page
    assert context["facts"]["people"].key == "what-kills-1963-2012"
    assert "Rappaport" in page and "forecast cone" in page
    Session.objects.filter(pk=session.pk).update(intensity=Session.Intensity.GENTLE)
    session.refresh_from_db()
    _template, gentle = services.debrief_page(session)
    assert not any(f.deaths for f in gentle["citations"])


@pytest.mark.django_db
def test_a_team_story_agrees_with_the_engine_and_its_export_names_nobody(client):
    """What the report says the team spent and lost matches the engine's results; the research
    export has one row per team and no nicknames without the opt-in."""
    session, devices = storm_lesson()
    classroom.end(session=session)
    for table in selectors.table_records(session):
        game = Game.objects.get(pk=table["game"])
        story = stormfury.team_story(table, games.policy_results(game))
        result = games.results(game)
        assert story["team"]["damage_total"] == result[0]["score"]
        assert story["spending"]["evacuated"] == sum(r["breakdown"]["contributions"]["evacuated"] for r in result)
        assert story["spending"]["dams"] == sum(r["breakdown"]["contributions"]["dams"] for r in result)
        assert sum(len(r["destroyed"]) for r in story["rounds"]) == story["team"]["damage_by_type"]["infrastructure"]
        assert story["bot"]["damage_total"] == games.policy_results(game)[0]["score"]
    client.login(email=session.teacher.email, password=PASSWORD)
    text = client.get(reverse("scoring:export_json", args=[session.pk])).content.decode()
    data = client.get(reverse("scoring:export_json", args=[session.pk])).json()
    assert len(data["decisions"]) == 2 and all("damage_population" in row for row in data["decisions"])
    assert not any(participant.nickname in text for participant, _token in devices)
