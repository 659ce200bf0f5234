"""Panels other apps add to scoring's pages, without scoring importing them.

The lesson kit (``lessons``) shows the knowledge check's results on the class debrief, in the
class packet and in a student's report, and adds its answers to the research export under the
session's opt-in. Scoring only asks here: ``html(where, ...)`` for the registered panels' HTML,
``export(session)`` for extra export sections. An app registers in its ``AppConfig.ready``.
"""

from __future__ import annotations

from django.utils.safestring import mark_safe

#: where -> callables: "debrief_head" (session: at the head of the class debrief), "debrief"
#: (session: below it), "packet" (session), "student_report" (participant),
#: "export" (session) -> {"section": rows, "data_dictionary": {...}}, "family_plans" (session) -> a
#: printable document of every student's family plan (the teacher's class PDF)
_PANELS: dict[str, list] = {
    "debrief_head": [],
    "debrief": [],
    "packet": [],
    "student_report": [],
    "export": [],
    "family_plans": [],
}


def register(where: str, panel) -> None:
    if panel not in _PANELS[where]:
        _PANELS[where].append(panel)


def html(where: str, **kwargs) -> str:
    """The registered panels' HTML for a page, joined (already escaped by their templates)."""
    return mark_safe("".join(panel(**kwargs) or "" for panel in _PANELS[where]))


def export(session) -> dict:
    """Extra sections of the research export; each panel decides itself whether the session's
    opt-in allows it."""
    extra = {"data_dictionary": {}}
    for panel in _PANELS["export"]:
        section = panel(session=session) or {}
        extra["data_dictionary"].update(section.pop("data_dictionary", {}))
        extra.update(section)
    return extra


def inject(document: str, panel_html: str) -> str:
    """A stored report page with panels added before the end of its body."""
    if not panel_html:
        return document
    at = document.rfind("</body>")
    return document[:at] + panel_html + document[at:] if at >= 0 else document + panel_html
