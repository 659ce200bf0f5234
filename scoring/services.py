"""Debrief workflows: planning and writing reports, signed student links and research exports.
Views and tasks call these (queueing is ``scoring.jobs``, reading the lesson
``scoring.selectors``); nothing else writes ``Report`` rows.
"""

from __future__ import annotations

import csv
import io
import json
import secrets
import traceback
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.db.models import BooleanField, Case, Q, When
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from classroom.models import Participant, Seat, Session
from games.models import Move
from scenarios import registry
from scenarios.audience import Audience
from scoring import selectors
from scoring.models import ClassPrint, DebriefSettings, Report

LINK_SALT = "scoring.student-report"


def link_max_age() -> int:
    """Seconds a student's report link stays valid (``STUDENT_REPORT_LINK_DAYS``, default 14)."""
    return int(getattr(settings, "STUDENT_REPORT_LINK_DAYS", 14)) * 24 * 3600


def _teaches(sentence: str) -> str:
    """What the winning strategy teaches, in the reader's language, under the panel's heading:
    the sentence less the words it opens with where it stands alone (a tablet's end screen)."""
    heading = translation.gettext("What the winning strategy teaches")
    body = translation.gettext(sentence).removeprefix(f"{heading}:").strip()
    return body[:1].upper() + body[1:]


def debrief_page(session: Session, *, audience: str = "student") -> tuple[str, dict]:
    """The projector page of the session's scenario, built from the move log now: the template
    and its context."""
    from classroom.languages import translate_content
    from scoring.reports import Lesson

    lesson = Lesson(session)
    debrief = registry.get(session.scenario).debrief
    template, context = debrief.page(lesson, audience)
    # only the real-world claims (card bases, notes) the class may see, as every student page
    context = Audience.of(session.intensity, session.age_band, teacher=audience == "teacher").redact(context)
    # the scenario's content words (places, reasons) in the reader's language
    context = translate_content(context, session.scenario, translation.get_language() or settings.LANGUAGE_CODE)
    # students' seats the stand-in played: named by place (the projector shows no student's name)
    stood_in = [
        {"table": t["table"], "seat": number + 1}
        for t in lesson.tables
        for number, holder in sorted(t["holders"].items())
        if holder and holder["stand_in"]
    ]
    return template, {
        **context,
        "session": session,
        "settings": lesson.settings,
        "stand_in_seats": stood_in,
        "teaches": _teaches(debrief.teaches),
    }


def plan_reports(session: Session) -> list[Report]:
    """One report row per human seat (or per team, in a team game) plus the class packet, each
    reset to queued (idempotent).

    A team report hangs on its table's first student seat; every student at the table reaches it
    (``student_reports``).
    """
    now = timezone.now()
    reports = []
    with transaction.atomic():
        seats = list(
            Seat.objects.filter(table__session=session, participant__isnull=False, table__game__isnull=False)
            .select_related("participant")
            .order_by("table__number", "number")
        )
        if registry.get(session.scenario).team_play:
            firsts = {}  # one team report per table and language, each in its readers' language
            for seat in seats:
                firsts.setdefault((seat.table_id, seat.participant.language), seat)
            wanted = [(Report.Kind.TEAM, seat) for seat in firsts.values()]
        else:
            wanted = [(Report.Kind.STUDENT, seat) for seat in seats]
        wanted.append((Report.Kind.CLASS, None))
        for report_kind, seat in wanted:
            report, _created = Report.objects.get_or_create(session=session, kind=report_kind, seat=seat)
            Report.objects.filter(pk=report.pk).update(
                status=Report.Status.QUEUED, progress=0, step="", error="", queued_at=now
            )
            reports.append(report)
        Report.objects.filter(session=session).exclude(pk__in=[r.pk for r in reports]).delete()
    return reports


def mark(report_id: int, **fields) -> None:
    Report.objects.filter(pk=report_id).update(**fields)


def report_language(report: Report) -> str:
    """A report is written in its reader's language: the student's (a team report hangs on the
    first seat of each language at the table), the teacher's for the class packet."""
    if report.kind == Report.Kind.CLASS or report.seat is None or report.seat.participant is None:
        return report.session.language
    return report.seat.participant.language


def build_report(report_id: int) -> Report | None:
    """Write one report's page, then print its PDF (``write_page`` and ``print_report``, which the
    report jobs run as two jobs)."""
    report = write_page(report_id)
    if report is None or report.status != Report.Status.DONE:
        return report
    return print_report(report_id)


def _failed(report_id: int, error: Exception) -> None:
    mark(
        report_id,
        status=Report.Status.FAILED,
        step=gettext_noop("Failed"),
        error=f"{type(error).__name__}: {error}"[:2000] + "\n" + traceback.format_exc(limit=3)[-1500:],
        finished_at=timezone.now(),
    )


def write_page(report_id: int) -> Report | None:
    """Write one report's page (charts included) and store it with its data in one UPDATE: the
    report is readable from then on, and its PDF is printed when someone asks for it
    (``print_report``). Failures are recorded. Safe to run again at any time: it recomputes from
    the move log and replaces the stored report, its PDF included."""
    from scoring import reports

    report = Report.objects.select_related("session", "seat__table", "seat__participant").filter(pk=report_id).first()
    if report is None:
        return None
    from django.db.models import F

    mark(
        report.pk,
        status=Report.Status.RUNNING,
        started_at=timezone.now(),
        progress=5,
        step=gettext_noop("Reading the move log"),
        attempts=F("attempts") + 1,
        error="",
    )
    try:

        def progress(percent, step):
            mark(report.pk, progress=percent, step=step[:120])

        with translation.override(report_language(report)):
            if report.kind == Report.Kind.CLASS:
                html, data = reports.class_packet(report.session, progress=progress)
            else:
                html, data = reports.seat_report(report.session, report.seat, progress=progress)
    except Exception as error:  # noqa: BLE001 - recorded for the teacher, who can retry
        _failed(report.pk, error)
        raise
    mark(
        report.pk,
        status=Report.Status.DONE,
        progress=100,
        step=gettext_noop("Done"),
        html=html,
        pdf=b"",
        data=data,
        finished_at=timezone.now(),
    )
    return Report.objects.get(pk=report.pk)


def print_report(report_id: int) -> Report | None:
    """Print a written report's page as its PDF and store it; nothing to do for a report that is
    not written (a rebuild queued it again, or it failed) or is printed already."""
    from scoring import reports

    report = (
        Report.objects.select_related("session", "seat__participant")
        .filter(pk=report_id, status=Report.Status.DONE)
        .first()
    )
    if report is None or report.pdf:
        return report
    try:
        with translation.override(report_language(report)):
            pdf = reports.printed(report.session, report.html, report.seat)
    except Exception as error:  # noqa: BLE001 - recorded for the teacher, who can retry
        _failed(report.pk, error)
        raise
    # only the page this PDF was printed from: a rebuild may have replaced it meanwhile
    Report.objects.filter(pk=report.pk, status=Report.Status.DONE, finished_at=report.finished_at).update(pdf=pdf)
    return Report.objects.get(pk=report.pk)


def job_status(session: Session) -> dict:
    """What the teacher's reports page polls: each job's status, progress and failure reason."""
    rows = []
    for report in (
        Report.objects.filter(session=session)
        .select_related("seat__table", "seat__participant")
        .prefetch_related("seat__table__seats__participant")
        .annotate(
            printed=Case(
                When(~Q(pdf=b"") & Q(status=Report.Status.DONE), then=True), default=False, output_field=BooleanField()
            )
        )
        .defer("html", "pdf", "data")
    ):
        rows.append(
            {
                "id": report.pk,
                "kind": report.kind,
                "status": report.status,
                "printed": report.printed,
                "status_label": str(report.get_status_display()),
                "progress": report.progress,
                "step": gettext(report.step) if report.step else "",  # stored in English, shown translated
                "error": report.error.splitlines()[0] if report.error else "",
                "label": report_label(report),
                "attempts": report.attempts,
                "page": reverse("scoring:report", args=[report.pk]),
                "pdf": reverse("scoring:report_pdf", args=[report.pk]),
                "retry": reverse("scoring:report_retry", args=[report.pk]),
            }
        )
    done = sum(1 for r in rows if r["status"] == Report.Status.DONE)
    return {
        "session": session.pk,
        "reports": rows,
        "done": done,
        "total": len(rows),
        "printed": sum(1 for r in rows if r["printed"]),
        "failed": sum(1 for r in rows if r["status"] == Report.Status.FAILED),
    }


def report_label(report: Report) -> str:
    if report.seat_id is None:
        return gettext("Class packet")
    if report.kind == Report.Kind.TEAM:  # one per language spoken at the table
        names = [s.participant.nickname for s in report.seat.table.seats.all() if s.participant_id]
        return gettext("Team at table %(table)s (%(names)s), in %(language)s") % {
            "table": report.seat.table.number,
            "names": ", ".join(names),
            "language": translation.get_language_info(report_language(report))["name_translated"],
        }
    name = report.seat.participant.nickname if report.seat.participant_id else gettext("empty seat")
    return gettext("%(name)s (table %(table)s, seat %(seat)s)") % {
        "name": name,
        "table": report.seat.table.number,
        "seat": report.seat.number + 1,
    }


# --- The class's PDFs ------------------------------------------------------------------------------


def _student_reports_of(session: Session):
    return (
        Report.objects.filter(session=session, kind__in=[Report.Kind.STUDENT, Report.Kind.TEAM])
        .select_related("seat__table", "seat__participant")
        .prefetch_related("seat__table__seats__participant")
        .order_by("seat__table__number", "seat__number", "pk")
    )


def class_print_source(session: Session, kind: str) -> str:
    """What a class PDF of ``kind`` would be printed from now, as a short digest; "" while it
    cannot be printed yet (the lesson is not over, or its reports are still being written). A
    stored PDF with another source is out of date."""
    import hashlib

    if session.status != Session.Status.ENDED:
        return ""
    if kind == ClassPrint.Kind.PLANS:
        # a plan follows the student's game, language and region and the teacher's local office
        # (the lesson kit's, read through the session)
        office = Session.objects.filter(pk=session.pk).values_list("knowledge_check__local_office", flat=True)
        students = Seat.objects.filter(table__session=session, participant__isnull=False, table__game__isnull=False)
        what = [kind, session.region, str(office.first() or "")] + [
            f"{seat}:{participant}:{language}"
            for seat, participant, language in students.order_by("pk").values_list(
                "pk", "participant_id", "participant__language"
            )
        ]
        return hashlib.sha256("|".join(what).encode()).hexdigest()
    reports = list(_student_reports_of(session).values_list("pk", "status", "finished_at"))
    if not Report.objects.filter(session=session).exists() or any(
        status in (Report.Status.QUEUED, Report.Status.RUNNING) for _pk, status, _at in reports
    ):
        return ""
    what = [kind] + [f"{pk}:{status}:{at.isoformat() if at else ''}" for pk, status, at in reports]
    return hashlib.sha256("|".join(what).encode()).hexdigest()


def class_print(session: Session, kind: str) -> ClassPrint | None:
    """The session's class PDF of ``kind`` if it is printed and up to date, else None."""
    source = class_print_source(session, kind)
    if not source:
        return None
    return ClassPrint.objects.filter(session=session, kind=kind, source=source).exclude(pdf=b"").first()


def print_class(session_id: int, kind: str) -> ClassPrint | None:
    """Print one of the class's PDFs and store it (nothing to do once it is printed and up to
    date, or while it cannot be printed yet): every student's summary or full report, each
    in that student's language and on pages of its own, or every student's family plan."""
    from scoring import reports

    session = Session.objects.filter(pk=session_id).first()
    if session is None or kind not in ClassPrint.Kind.values:
        return None
    source = class_print_source(session, kind)
    if not source:
        return None
    done = ClassPrint.objects.filter(session=session, kind=kind, source=source).exclude(pdf=b"").first()
    if done is not None:
        return done
    if kind == ClassPrint.Kind.PLANS:
        pdf = reports.family_plans_printed(session)
    else:
        written = [r for r in _student_reports_of(session) if r.status == Report.Status.DONE]
        summaries = kind == ClassPrint.Kind.SUMMARIES
        rows = _decision_rows(session) if summaries and written else []
        parts = []
        for report in written:
            language = report_language(report)
            with translation.override(language):
                if summaries:
                    html = reports.summary_part(session, report, _row_of(rows, report.seat))
                else:
                    html = reports.report_part(session, report)
            parts.append({"language": language, "html": html})
        with translation.override(session.language):
            pdf = reports.class_printed(session, reports.class_document(session, parts, summaries=summaries))
    printed, _created = ClassPrint.objects.update_or_create(
        session=session, kind=kind, defaults={"source": source, "pdf": pdf}
    )
    return printed


def _decision_rows(session: Session) -> list[dict]:
    from scoring.reports import Lesson

    seat_ids = {
        (seat.table.number, seat.number): seat.pk
        for seat in Seat.objects.filter(table__session=session).select_related("table")
    }
    return registry.get(session.scenario).debrief.decisions(Lesson(session), seat_ids, False)


def _row_of(rows: list[dict], seat: Seat) -> dict | None:
    """A seat's row of the lesson's decisions (a team's row names every seat of its table)."""
    return next((r for r in rows if r.get("seat_id") == seat.pk or seat.pk in (r.get("seat_ids") or ())), None)


# --- Student links ---------------------------------------------------------------------------------


def student_report_token(participant: Participant) -> str:
    """Signed and expiring, and carrying the participant's own random secret: even someone who
    could sign would still need the secret, which no id reveals."""
    return signing.TimestampSigner(salt=LINK_SALT).sign(
        f"{participant.session_id}:{participant.pk}:{participant.report_secret}"
    )


def student_report_url(participant: Participant) -> str:
    """The expiring link a student's device shows when their game ends (absolute, for printing)."""
    path = reverse("scoring:student_report", args=[student_report_token(participant)])
    return f"{settings.PUBLIC_BASE_URL}{path}"


def device_may_open_report(session: Session) -> bool:
    """Whether a device's cookie still opens its student's report: during the lesson and for
    ``DEVICE_REPORT_HOURS`` after it ended. A shared tablet passes to the next class after that,
    and the next child must not land in the last one's report."""
    if session.ended_at is None:
        return True
    return timezone.now() - session.ended_at < timedelta(hours=settings.DEVICE_REPORT_HOURS)


def student_reports(participant: Participant) -> list[Report]:
    """The reports a student may open: their own seat's, and their team's (team games)."""
    from django.db.models import Q

    tables = Seat.objects.filter(participant=participant).values("table_id")
    team = Report.objects.filter(kind=Report.Kind.TEAM, seat__table_id__in=tables)
    # the team report in the student's own language (there is one per language at the table)
    own_language = team.filter(seat__participant__language=participant.language)
    if own_language.exists():
        team = own_language
    return list(
        Report.objects.filter(Q(kind=Report.Kind.STUDENT, seat__participant=participant) | Q(pk__in=team.values("pk")))
        .select_related("seat__table")
        .order_by("seat__table__number", "seat__number")
    )


def participant_for_link(token: str) -> Participant | None:
    """The participant a student link names, or None if it is forged or has expired."""
    try:
        value = signing.TimestampSigner(salt=LINK_SALT).unsign(token, max_age=link_max_age())
    except signing.BadSignature:  # SignatureExpired is a BadSignature
        return None
    parts = value.split(":")
    if len(parts) != 3:  # a link from before links carried a secret
        return None
    session_id, participant_id, secret = parts
    participant = Participant.objects.filter(pk=int(participant_id), session_id=int(session_id)).first()
    if participant is None or not secrets.compare_digest(participant.report_secret, secret):
        return None
    return participant


# --- Exports ---------------------------------------------------------------------------------------

DATA_DICTIONARY = {
    "session_id": "Stormwise's id of the lesson run.",
    "scenario": "The scenario's key, as registered (settings.STORMWISE_SCENARIOS).",
    "table": "Table number inside the session (1, 2, ...).",
    "game_id": "Id of the table's game.",
    "seat_id": "Stable id of the seat (a player's place at a table); use it to join moves and decisions.",
    "seat": "Seat number at its table, from 0; empty for teacher or system moves.",
    "held_by": "'student' if a student held the seat at the end of the lesson, 'bot' otherwise.",
    "nickname": "The student's nickname; present only when the teacher opted the session in to research sharing.",
    "seq": "Move number inside the game, from 1, in the order moves were applied.",
    "actor": "Who made the move: student, bot (a bot's seat or 'finish with bots'), timer (a bot standing in for an idle seat), teacher, system.",
    "seconds": "Seconds from the session's start to the move (wall clock).",
    "action_type": "The action's type (drive, wait, withdraw, set_destination, reason, ...).",
    "action": "The whole action as JSON, exactly as the engine received it.",
    "events": "The events it caused, as JSON (each with the game minute of the seat's own clock).",
    "game_minute": "The acting seat's game clock after the move, in minutes from the hurricane watch (0) to tropical-storm winds (2880).",
}


def export_data(session: Session) -> dict:
    """Every move and decision of the session; nicknames only if the session opted in."""
    named = DebriefSettings.of(session).research_opt_in
    tables = selectors.table_records(session)
    seat_ids = {
        (seat.table.number, seat.number): seat.pk
        for seat in Seat.objects.filter(table__session=session).select_related("table")
    }
    started = session.started_at or session.created_at
    stamps = {
        (m["game_id"], m["seq"]): m["created_at"]
        for m in Move.objects.filter(game__table__session=session).values("game_id", "seq", "created_at")
    }
    moves = []
    for table in tables:
        for move in table["moves"]:
            seat = move["seat"]
            holder = table["holders"].get(seat) if seat is not None else None
            minute = next((e.get("minute") for e in reversed(move["events"]) if e.get("seat") == seat), None)
            row = {
                "session_id": session.pk,
                "scenario": session.scenario,
                "table": table["table"],
                "game_id": table["game"],
                "seat_id": seat_ids.get((table["table"], seat)),
                "seat": seat,
                "held_by": ("student" if holder else "bot") if seat is not None else "",
                "seq": move["seq"],
                "actor": move["actor"],
                "seconds": round((stamps[(table["game"], move["seq"])] - started).total_seconds(), 1),
                "action_type": move["action"].get("type"),
                "action": move["action"],
                "events": move["events"],
                "game_minute": minute,
            }
            if named:
                row["nickname"] = holder["name"] if holder else ""
            moves.append(row)
    from scoring.reports import Lesson

    debrief = registry.get(session.scenario).debrief
    decisions = debrief.decisions(Lesson(session, tables), seat_ids, named)
    from scoring import panels

    extra = panels.export(session)
    return {
        "session": {
            "id": session.pk,
            "scenario": session.scenario,
            "research_opt_in": named,
            "started_at": started.isoformat(),
            "options": session.options,
        },
        "data_dictionary": {**DATA_DICTIONARY, **debrief.data_dictionary, **extra.pop("data_dictionary")},
        "moves": moves,
        "decisions": decisions,
        **extra,
    }


def export_csv(session: Session) -> str:
    """The moves as CSV (one row per move; JSON columns for action and events)."""
    data = export_data(session)
    columns = ["session_id", "scenario", "table", "game_id", "seat_id", "seat", "held_by"]
    if data["session"]["research_opt_in"]:
        columns.append("nickname")
    columns += ["seq", "actor", "seconds", "action_type", "game_minute", "action", "events"]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore")
    writer.writeheader()
    for row in data["moves"]:
        row = {
            **row,
            "action": json.dumps(row["action"], separators=(",", ":")),
            "events": json.dumps(row["events"], separators=(",", ":")),
        }
        writer.writerow({key: _inert(value) for key, value in row.items()})
    return out.getvalue()


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _inert(value):
    """A text cell a spreadsheet would run as a formula (a nickname like ``=HYPERLINK(…)``) gets a
    leading apostrophe, so it is shown as text; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


def update_settings(*, session: Session, research_opt_in=None) -> DebriefSettings:
    """The teacher changes research sharing (what students may see is set when the session is
    created, and governs every page alike)."""
    prefs = DebriefSettings.of(session)
    if research_opt_in is not None:
        prefs.research_opt_in = bool(research_opt_in)
    prefs.save()
    return prefs
