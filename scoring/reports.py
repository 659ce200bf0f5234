"""Writing the reports: a seat's or team's report (or the class packet) from the move log.

``seat_report`` and ``class_packet`` return ``(html, data)``: the page a reader opens, and
what the exports keep. ``printed`` turns a stored page into its PDF. The HTML is a complete
document with its stylesheet inline and charts as SVG data URIs, so the web page and the PDF are
the same document. ``services`` stores the page first and prints it as a second job
(docs/decisions/0010-report-pages-first.md).
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

from classroom import regions
from classroom.languages import content_translations
from scenarios import registry, words
from scoring import panels
from scoring.models import DebriefSettings
from scoring.selectors import shown_facts, table_records

#: One PDF at a time per process, whoever prints it (these reports, ``lessons.printing``'s kit);
#: re-entrant so that a report sets up its fonts and prints under one hold.
PRINTING = threading.RLock()


@lru_cache(maxsize=1)
def _stylesheet() -> str:
    """The report half of debrief.css (the projector half has screen media queries WeasyPrint ignores)."""
    text = (Path(settings.BASE_DIR) / "static" / "css" / "debrief.css").read_text(encoding="utf-8")
    return text[text.index("/* Report documents") :]


@lru_cache(maxsize=1)
def _print_setup():
    """One font configuration and one parsed report stylesheet per worker process, shared by
    every PDF it prints (each PDF otherwise set up fontconfig and parsed the CSS again)."""
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()
    return fonts, CSS(string=_stylesheet(), font_config=fonts)


@lru_cache(maxsize=4)
def _paper(size: str):
    """The page size of the class's region (``classroom.regions``: Letter or A4), parsed once."""
    from weasyprint import CSS

    return CSS(string=f"@page {{ size: {size}; }}", font_config=_print_setup()[0])


def warm() -> None:
    """Load what the first report of a worker process would otherwise wait for (matplotlib, the
    fonts, the stylesheet): about a second and a half of the first report's time on a 2-core
    machine. Celery runs it as each worker process starts (``config.celery``)."""
    from scenarios.charting import pyplot

    plt = pyplot()
    plt.close(plt.figure())
    pdf_of("<p>Stormwise</p>")


#: Every PDF the project prints is tagged PDF/UA-1: a structure tree in reading order (headings,
#: paragraphs, tables, figures with their alt text), the page's title shown as the document's
#: and its ``<html lang>`` as the document's language, so a screen reader reads it as the page.
PDF_OPTIONS = {"pdf_variant": "pdf/ua-1"}


def write(html: str, **options) -> bytes:
    """The one way a PDF is printed here: ``html`` through WeasyPrint as tagged PDF/UA-1, while no
    other thread of this process prints.

    Pango and GLib under WeasyPrint are not thread-safe, and two threads printing at once (the
    embedded server's report thread beside a request printing the lesson kit) corrupt GLib's lists
    and then the heap ("corrupted double-linked list", then an abort)."""
    from weasyprint import HTML

    with PRINTING:
        return HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf(**PDF_OPTIONS, **options)


def pdf_of(html: str, paper: str = "A4") -> bytes:
    """The PDF of a report page (WeasyPrint; fonts from the system, nothing fetched), on the
    region's ``paper``.

    The page carries the report stylesheet inline (so it stands alone on the web); for print
    the inline copy is dropped and the worker's parsed copy used instead.
    """
    inline = f"<style>{_stylesheet()}</style>"
    with PRINTING:
        fonts, stylesheet = _print_setup()
        if inline in html:
            return write(html.replace(inline, "", 1), stylesheets=[stylesheet, _paper(paper)], font_config=fonts)
        return write(html, stylesheets=[_paper(paper)], font_config=fonts)


class Lesson:
    """One session's move log, facts and settings as a scenario's debrief part reads them
    (``scenarios.debrief.Lesson``)."""

    def __init__(self, session, tables=None):
        self.session = session
        self.settings = DebriefSettings.of(session)
        self.tables = tables if tables is not None else table_records(session)

    def facts(self, audience="student"):
        return shown_facts(self.session, audience)

    def report_data(self):
        from scoring.models import Report

        reports = Report.objects.filter(session=self.session, kind__in=(Report.Kind.STUDENT, Report.Kind.TEAM))
        written = reports.filter(status=Report.Status.DONE).order_by("pk").values_list("data", flat=True)
        return list(written), reports.count()

    def policy_results(self, table):
        from games.models import Game
        from games.services import policy_results

        return policy_results(Game.objects.get(pk=table["game"]))


def _render(lesson, template, context, data):
    """The stored page, with the scenario's content words (places, reasons, card titles) in the
    reader's language, and its data."""
    # reports and the class packet are printed for the class: only the claims its students may see
    context = lesson.session.audience.redact(context)
    context = words.translate_words(context, content_translations(lesson.session.scenario, get_language()))
    context = {
        **context,
        "session": lesson.session,
        "settings": lesson.settings,
        "css": _stylesheet(),
        "generated": timezone.now(),
    }
    return render_to_string(template, context), data


def seat_report(session, seat, *, progress=lambda percent, step: None):
    """The report hung on ``seat``: the household's own or, in a team game, the team's."""
    lesson = Lesson(session)
    table = next(t for t in lesson.tables if t["table"] == seat.table.number)
    name = words.Typed(seat.participant.nickname) if seat.participant_id else ""
    debrief = registry.get(session.scenario).debrief
    template, context, data = debrief.report(lesson, table, seat.number, name, progress)
    # the stand-in played the seat: the report says its points are the stand-in's, not the student's
    holder = table["holders"].get(seat.number)
    stand_in = bool(holder and holder.get("stand_in")) and not registry.get(session.scenario).team_play
    return _render(lesson, template, {**context, "stand_in": stand_in}, {**data, "stand_in": stand_in})


def class_packet(session, *, progress=lambda percent, step: None):
    """The printable class packet of the session's scenario."""
    lesson = Lesson(session)
    return _render(lesson, *registry.get(session.scenario).debrief.packet(lesson, progress))


_LANG = re.compile(r'<html lang="([A-Za-z-]+)"')


def language_of(html: str) -> str | None:
    """The language a stored report page was written in (its ``<html lang>``): what is added to it
    as it is served speaks that language, whatever the browser asks for."""
    found = _LANG.search(html[:500])
    return found.group(1) if found else None


def panels_html(session, seat=None) -> str:
    """Other apps' panels (``scoring.panels``) for a report: the class packet's, or a student's
    (none for a seat no student played). Added as the page is served or printed, so they are
    never stale."""
    if seat is None:
        return panels.html("packet", session=session)
    return panels.html("student_report", participant=seat.participant) if seat.participant_id else ""


def printed(session, html: str, seat=None) -> bytes:
    """The PDF of a stored report page with its panels, on the class region's paper."""
    return pdf_of(panels.inject(html, panels_html(session, seat)), regions.of(session).paper)


# --- The class's PDFs -------------------------------------------------------------------------------

#: the facts a student's summary states (the first its report cites): with the key outcomes, one or
#: two pages; the full report holds the rest
SUMMARY_FACTS = 4


def _part_heading(report) -> dict:
    """Who a student's part of a class PDF is about: nickname(s) and table only."""
    seat = report.seat
    if report.kind == "team":
        names = [s.participant.nickname for s in seat.table.seats.all() if s.participant_id]
    else:
        names = [seat.participant.nickname] if seat.participant_id else []
    return {"name": ", ".join(names), "table": seat.table.number, "seat": seat.number + 1}


def summary_part(session, report, row: dict | None) -> str:
    """One student's (or team's) summary, in the active language: what they decided, the key
    outcomes, and the facts their report cites with each one's source and grade. Built from the
    report's stored data and the lesson's decision ``row``: nothing is replayed."""
    scenario = registry.get(session.scenario)
    shown = {f.key: f for f in shown_facts(session, "student")}
    facts = [shown[key] for key in report.data.get("facts", []) if key in shown][:SUMMARY_FACTS]
    context = {
        **_part_heading(report),
        "team": report.kind == "team",
        "data": report.data,
        "decided": row or {},
        "facts": facts,
        "session": session,
    }
    context = words.translate_words(context, content_translations(session.scenario, get_language()))
    return render_to_string(scenario.template("summary.html"), {**context, "scenario": scenario})


def report_part(session, report) -> str:
    """A stored report page's body with its panels, for the class's full-reports PDF, headed by
    the student's nickname and table (in the active language)."""
    page = panels.inject(report.html, panels_html(session, report.seat))
    start = page.find(">", page.find("<body")) + 1
    end = page.rfind("</body>")
    heading = format_html('<p class="sub">{}</p>', gettext("%(name)s · table %(table)s") % _part_heading(report))
    return heading + mark_safe(page[start:end] if start > 0 and end > start else page)


def class_document(session, parts: list[dict], *, summaries: bool) -> str:
    """One printable document of the class's parts (``{"language", "html", "name", "table"}``
    each, in the order given), each starting on a new page, marked with its own language."""
    return render_to_string(
        "scoring/class_print.html",
        {"session": session, "parts": parts, "summaries": summaries, "css": _stylesheet()},
    )


def class_printed(session, html: str) -> bytes:
    """The PDF of a class document, on the class region's paper."""
    return pdf_of(html, regions.of(session).paper)


def family_plans_printed(session) -> bytes:
    """Every student's family plan as one PDF (the lesson kit's document, ``scoring.panels``)."""
    return pdf_of(panels.html("family_plans", session=session), regions.of(session).paper)
