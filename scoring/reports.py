"""Writing the reports: a seat's or team's report (or the class packet) from the move log.

Each function returns ``(html, pdf_bytes, data)``; ``services.build_report`` stores all three at
once. The HTML is a complete document with its stylesheet inline and charts as SVG data URIs,
so the web page and the PDF are the same document.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import get_language, gettext_noop

from classroom import regions
from classroom.languages import content_translations
from scenarios import registry, words
from scoring import panels
from scoring.models import DebriefSettings
from scoring.selectors import shown_facts, table_records


@lru_cache(maxsize=1)
def _stylesheet() -> str:
    """The report half of debrief.css (the projector half has screen media queries WeasyPrint ignores)."""
    text = (Path(settings.BASE_DIR) / "static" / "css" / "debrief.css").read_text(encoding="utf-8")
    return text[text.index("/* Report documents"):]


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


def pdf_of(html: str, paper: str = "A4") -> bytes:
    """The PDF of a report page (WeasyPrint; fonts from the system, nothing fetched), on the
    region's ``paper``.

    The page carries the report stylesheet inline (so it stands alone on the web); for print
    the inline copy is dropped and the worker's parsed copy used instead.
    """
    from weasyprint import HTML

    fonts, stylesheet = _print_setup()
    inline = f"<style>{_stylesheet()}</style>"
    if inline in html:
        return HTML(string=html.replace(inline, "", 1), base_url=str(settings.BASE_DIR)).write_pdf(
            stylesheets=[stylesheet, _paper(paper)], font_config=fonts)
    return HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf(stylesheets=[_paper(paper)],
                                                                         font_config=fonts)


class Lesson:
    """One session's move log, facts and settings as a scenario's debrief part reads them
    (``scenarios.debrief.Lesson``)."""

    def __init__(self, session, tables=None):
        self.session = session
        self.settings = DebriefSettings.of(session)
        self.tables = tables if tables is not None else table_records(session)

    def facts(self, audience="student"):
        return shown_facts(self.session, audience)

    def policy_results(self, table):
        from games.models import Game
        from games.services import policy_results

        return policy_results(Game.objects.get(pk=table["game"]))


def _render(lesson, template, context, data, progress, panels_html=""):
    """The stored page and its PDF, with the scenario's content words (places, reasons, card
    titles) in the reader's language. Other apps' panels (``scoring.panels``) go into the PDF as
    it is printed; the stored page gets them when served, so they are never stale there."""
    # reports and the class packet are printed for the class: only the claims its students may see
    context = lesson.session.audience.redact(context)
    context = words.translate_words(context, content_translations(lesson.session.scenario, get_language()))
    context = {**context, "session": lesson.session, "settings": lesson.settings, "css": _stylesheet(),
               "generated": timezone.now()}
    html = render_to_string(template, context)
    progress(85, gettext_noop("Printing the PDF"))
    return html, pdf_of(panels.inject(html, panels_html), regions.of(lesson.session).paper), data


def seat_report(session, seat, *, progress=lambda percent, step: None):
    """The report hung on ``seat``: the household's own or, in a team game, the team's."""
    lesson = Lesson(session)
    table = next(t for t in lesson.tables if t["table"] == seat.table.number)
    name = words.Typed(seat.participant.nickname) if seat.participant_id else ""
    debrief = registry.get(session.scenario).debrief
    extra = panels.html("student_report", participant=seat.participant) if seat.participant_id else ""
    return _render(lesson, *debrief.report(lesson, table, seat.number, name, progress), progress, extra)


def class_packet(session, *, progress=lambda percent, step: None):
    """The printable class packet of the session's scenario."""
    lesson = Lesson(session)
    return _render(lesson, *registry.get(session.scenario).debrief.packet(lesson, progress), progress,
                   panels.html("packet", session=session))
