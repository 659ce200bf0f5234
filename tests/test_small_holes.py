"""Smaller holes, each closed: formulas in exports, unapproved names on the projector, deleted
sessions left in SQLite's log, orphan games after a teacher is deleted, a shared tablet opening
last lesson's report, cached reports and exports, an out-of-range table, and a session quota."""
import csv
import io
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from classroom import selectors, services
from classroom.consumers import token_cookie
from classroom.models import Participant, Session
from games import services as games
from games.models import Game, Move
from tests.factories import join_students, make_session, make_teacher, started_session
from tests.test_security import _played_with_reports

ROOT = Path(__file__).resolve().parent.parent


def teacher_client(session):
    client = Client()
    client.force_login(session.teacher)
    return client


def finish(session):
    for table in session.tables.all():
        games.finish_with_bots(game_id=table.game_id)


@pytest.mark.django_db
def test_exported_cells_never_run_as_formulas():
    """A nickname a spreadsheet would run (``=HYPERLINK(…)``, ``+…``, ``-…``, ``@…``) is exported
    with a leading apostrophe; numbers stay numbers."""
    from scoring import services as scoring

    session, devices = started_session(students=4)
    names = ['=HYPERLINK("//x.test")', "+1+1", "-2+3", "@SUM(A1)"]
    for (participant, _token), name in zip(devices, names):
        Participant.objects.filter(pk=participant.pk).update(nickname=name)
    finish(session)
    scoring.update_settings(session=session, research_opt_in=True)
    rows = list(csv.DictReader(io.StringIO(scoring.export_csv(session))))
    exported = {row["nickname"] for row in rows if row["nickname"]}
    assert exported == {"'" + name for name in names}
    assert all(not row[column].startswith(("=", "+", "-", "@")) for row in rows for column in row)
    assert all(row["seq"].isdigit() for row in rows)


@pytest.mark.django_db
def test_the_projectors_final_standings_show_only_approved_nicknames():
    """Until the teacher approves a nickname, the final standings on the projector name the seat's
    place instead (the teacher's own screen keeps it); the student is still ranked with the class."""
    session, devices = started_session(students=2)
    (ana, _), (ben, _) = devices
    Participant.objects.filter(pk=ana.pk).update(nickname="Ana")
    Participant.objects.filter(pk=ben.pk).update(nickname="Rudeword")
    services.approve(participant=Participant.objects.get(pk=ana.pk))
    finish(session)
    standings = selectors.dashboard(Session.objects.get(pk=session.pk))["standings"]
    assert standings["final"]
    projected = {row["projected"] for row in standings["class"]}
    assert "Ana" in projected and "Rudeword" not in str(projected)
    assert {row["name"] for row in standings["class"]} == {"Ana", "Rudeword"}
    assert len(standings["class"]) == 2  # both humans ranked, neither taken for a bot


def test_a_deleted_session_leaves_nothing_in_sqlites_files(tmp_path):
    """Embedded mode (SQLite in WAL mode): once a session is deleted, its students' nicknames are
    in neither the database file nor its write-ahead log."""
    database = tmp_path / "db.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DATABASE_URL=f"sqlite:///{database}", DEBUG="1", DJANGO_SETTINGS_MODULE="config.settings")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=300)
    script = f"""
from pathlib import Path
from classroom import services
from classroom.models import Teacher
def on_disk():
    return b"".join(p.read_bytes() for p in Path({str(tmp_path)!r}).glob("db.sqlite3*"))
teacher = Teacher.objects.create_user(email="t@school.test", password=None)
session = services.create_session(teacher=teacher, scenario="evacuation", seed=5)
for name in ("Zebrafinch", "Quokkapaw"):
    services.join(session=session, nickname=name)
assert b"Zebrafinch" in on_disk(), "the test cannot see the nickname at all"
services.delete_session(session=session)
left = [name for name in (b"Zebrafinch", b"Quokkapaw") if name in on_disk()]
assert not left, left
print("clean")
"""
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", script], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "clean" in done.stdout, done.stderr[-2000:]


@pytest.mark.django_db
def test_deleting_a_teacher_leaves_no_game_for_bots_to_play():
    """A teacher's account deleted with its sessions takes their tables' games and move logs
    too; the deadline loop finds nothing left to play."""
    session, _devices = started_session(students=2)
    game_ids = [t.game_id for t in session.tables.all()]
    assert Game.objects.filter(pk__in=game_ids, status=Game.Status.PLAYING).exists()
    session.teacher.delete()
    assert not Game.objects.filter(pk__in=game_ids).exists()
    assert not Move.objects.filter(game_id__in=game_ids).exists()
    assert games.sweep_due(now=timezone.now() + timedelta(days=1)) == 0


@pytest.mark.django_db
def test_a_shared_tablet_opens_its_report_only_shortly_after_the_lesson():
    """Just after the lesson the device goes on to its student's report; hours later (the next
    class on the same tablet) it does not."""
    session, devices = started_session(students=2)
    (_ana, token), _ = devices
    services.end_now(session=session)
    tablet = Client()
    tablet.cookies[token_cookie(session.pk)] = token
    assert tablet.get(f"/play/{session.pk}/my-report").status_code == 302
    Session.objects.filter(pk=session.pk).update(ended_at=timezone.now() - timedelta(hours=5))
    assert tablet.get(f"/play/{session.pk}/my-report").status_code == 404


@pytest.mark.django_db
def test_reports_pdfs_exports_and_the_dashboard_are_never_cached():
    """Every page with students' data says ``Cache-Control: no-store, private``."""
    from scoring.models import Report

    session, _devices = started_session(students=2)
    _played_with_reports(session)
    services.end(session=session)
    client = teacher_client(session)
    report = Report.objects.filter(session=session).first()
    for path in [f"/sessions/{session.pk}/dashboard.json", f"/sessions/{session.pk}/debrief/export.csv",
                 f"/sessions/{session.pk}/debrief/export.json", f"/debrief/reports/{report.pk}/",
                 f"/debrief/reports/{report.pk}/report.pdf"]:
        response = client.get(path)
        assert response.status_code == 200, path
        directives = {d.strip() for d in response["Cache-Control"].split(",")}
        assert {"no-store", "private"} <= directives, (path, response["Cache-Control"])


@pytest.mark.django_db
@pytest.mark.parametrize("table", ["99999", "0", "-3", "3", "abc"])
def test_moving_a_student_to_a_table_that_does_not_exist_is_refused(table):
    """The teacher's move command with a table out of range answers a clear error (never a 500)
    and moves nobody."""
    session = make_session()
    (ana, _), *_ = join_students(session, 3)
    before = ana.seats.get().table.number
    answer = teacher_client(session).post(f"/sessions/{session.pk}/do/move",
                                          {"participant": ana.pk, "table": table}, HTTP_ACCEPT="application/json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["message"]
    assert Participant.objects.get(pk=ana.pk).seats.get().table.number == before


@pytest.mark.django_db
def test_a_teacher_account_keeps_at_most_its_quota_of_sessions(settings):
    """Past ``SESSIONS_PER_TEACHER`` the new-session form says to delete old ones, and creates nothing."""
    from tests.test_amplification import new_session_defaults

    settings.SESSIONS_PER_TEACHER = 2
    teacher = make_teacher()
    make_session(teacher=teacher)
    make_session(teacher=teacher)
    client = Client()
    client.force_login(teacher)
    answer = client.post("/sessions/new/", {**new_session_defaults(), "scenario": "evacuation"})
    assert answer.status_code == 200
    assert "the most one account may" in answer.content.decode()
    assert Session.objects.filter(teacher=teacher).count() == 2
