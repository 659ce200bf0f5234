"""Lesson-kit workflows: the family plan filled from a student's own game, and the printables'
data (the knowledge check is ``lessons.knowledge``). Views and scoring's panels call these; the
scenario's part is its kit (``registry.get(key).kit``), read as data."""
from __future__ import annotations

from django.utils.translation import gettext as _

from classroom import languages
from classroom.models import Participant, Seat, Session
from lessons.models import KnowledgeCheck
from scenarios import registry
from scenarios.base import load_content
from scoring import outcomes
from scoring.models import Fact


class CheckError(ValueError):
    """Bad input to the knowledge check, with a sentence a teacher or student can read; nothing
    was changed."""


def kit_of(scenario_key: str):
    return registry.get(scenario_key).kit


# --- Family plan -------------------------------------------------------------------------------------

def decision_row(participant: Participant) -> dict | None:
    """The student's own row of the scenario's debrief ``decisions`` (or their team's)."""
    from scoring.reports import Lesson

    seats = list(Seat.objects.filter(participant=participant, table__game__isnull=False).select_related("table"))
    if not seats:
        return None
    session = participant.session
    seat_ids = {(s.table.number, s.number): s.pk for s in Seat.objects.filter(table__session=session).select_related("table")}
    mine = {s.pk for s in seats}
    for row in registry.get(session.scenario).debrief.decisions(Lesson(session), seat_ids, False):
        if row.get("seat_id") in mine or mine & set(row.get("seat_ids") or ()):
            return row
    return None


def family_plan(participant: Participant) -> dict:
    """The one-page plan: each line of the scenario's kit filled from the student's own game,
    the facts it rests on, national sources and the teacher's local office. Nothing personal is
    asked or stored: names are written on paper."""
    return _plan(participant.session, decision_row(participant) or {})


def family_plan_blank(session: Session) -> dict:
    """The plan of a student whose game gave no row (the teacher's preview)."""
    return _plan(session, {})


def _plan(session: Session, row: dict) -> dict:
    kit = kit_of(session.scenario)
    lines = []
    for line in kit.plan:
        text = line.values.get(str(row[line.column])) if line.column and line.column in row else None
        fallback = line.otherwise if row or line.unplayed is None else line.unplayed
        lines.append({"key": line.key, "label": line.label, "text": text or fallback, "from_game": bool(text)})
    facts = outcomes.in_language(list(Fact.objects.filter(key__in=kit.plan_facts, verified=True)), languages.current())
    facts.sort(key=lambda f: kit.plan_facts.index(f.key))
    check = KnowledgeCheck.objects.filter(session=session).first()
    return {"lines": lines, "facts": facts, "played": bool(row),
            "local_office": check.local_office if check else "", "scenario": registry.get(session.scenario)}


def set_local_office(*, session: Session, text: str) -> KnowledgeCheck:
    text = (text or "").strip()
    if len(text) > 200:
        raise CheckError(_("Write the office in at most 200 characters."))
    check = KnowledgeCheck.of(session)
    check.local_office = text
    check.save(update_fields=["local_office"])
    return check


# --- Printables --------------------------------------------------------------------------------------

def printable_context(scenario_key: str, printable) -> dict:
    """A printable's template context: its content files, loaded, and what ``prepare`` makes of
    them, with the content words (card titles, places, roles) in the reader's language.
    ``prepare`` reads the English files, so what it decides never depends on a language."""
    scenario = registry.get(scenario_key)
    content, _hash = load_content(scenario.folder / "content", [f"{name}.json" for name in printable.content])
    data = printable.prepare(content) if printable.prepare else {}
    shown = languages.translate_content({"content": content, "data": data}, scenario_key, languages.current())
    return {**shown, "printable": printable}

