"""Lesson-kit workflows: the family plan filled from a student's own game, and the printables'
data (the knowledge check is ``lessons.knowledge``). Views and scoring's panels call these; the
scenario's part is its kit (``registry.get(key).kit``), read as data."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from classroom import languages, regions
from classroom.models import Participant, Seat, Session
from lessons import family_plan as checklist
from lessons import flow, glossary
from lessons.models import KnowledgeCheck
from scenarios import registry
from scenarios.audience import AGE_BANDS, Audience
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
    seat_ids = {
        (s.table.number, s.number): s.pk for s in Seat.objects.filter(table__session=session).select_related("table")
    }
    mine = {s.pk for s in seats}
    for row in registry.get(session.scenario).debrief.decisions(Lesson(session), seat_ids, False):
        if row.get("seat_id") in mine or mine & set(row.get("seat_ids") or ()):
            return row
    return None


def family_plans(session: Session) -> list[tuple[Seat, dict]]:
    """Every playing student's plan, in the order of their seats (table, then seat), each in
    that student's language: the class's plans printed at once (render each one under its
    student's language too: the checklist's words are translated as they are shown). The game's
    rows are read once for the class."""
    from django.utils import translation

    from scoring.reports import Lesson

    seats = list(
        Seat.objects.filter(table__session=session, participant__isnull=False, table__game__isnull=False)
        .select_related("table", "participant")
        .order_by("table__number", "number")
    )
    seat_ids = {
        (s.table.number, s.number): s.pk for s in Seat.objects.filter(table__session=session).select_related("table")
    }
    rows = registry.get(session.scenario).debrief.decisions(Lesson(session), seat_ids, False) if seats else []
    plans, seen = [], set()
    for seat in seats:
        if seat.participant_id in seen:  # a student moved to another table has one plan
            continue
        seen.add(seat.participant_id)
        row = next((r for r in rows if r.get("seat_id") == seat.pk or seat.pk in (r.get("seat_ids") or ())), None)
        with translation.override(seat.participant.language):
            plans.append((seat, _plan(session, row or {})))
    return plans


def family_plan(participant: Participant) -> dict:
    """The plan (one sheet, both sides, when printed): each line of the scenario's kit filled from the student's own game,
    the facts it rests on, national sources and the teacher's local office. Nothing personal is
    asked or stored: names are written on paper."""
    return _plan(participant.session, decision_row(participant) or {})


def family_plan_blank(session: Session) -> dict:
    """The plan of a student whose game gave no row (the teacher's preview)."""
    return _plan(session, {})


#: a fact stated in US units (its English ``number`` or statement; nautical miles are everyone's)
US_UNITS = re.compile(
    r"gallon|\binch|\bfeet\b|\bfoot\b|\bmph\b|\b\d+ (?:in|ft)\b|(?<!nautical )\bmiles?\b", re.IGNORECASE
)


def _plan(session: Session, row: dict) -> dict:
    kit = kit_of(session.scenario)
    region = regions.of(session)
    language = languages.current()
    amounts = regions.quantities(region, language)
    lines = []
    for line in kit.plan:
        text = line.values.get(str(row[line.column])) if line.column and line.column in row else None
        fallback = line.otherwise if row or line.unplayed is None else line.unplayed
        instead = checklist.regional_line(line.key, region, kit.hazard)
        if instead is not None:  # the region's own advice: no hurricane lines where hurricanes do not come
            text, fallback = None, instead
        lines.append(
            {
                "key": line.key,
                "label": line.label,
                "text": regions.fill(text or fallback, amounts),
                "from_game": bool(text),
            }
        )
    reader = session.audience
    facts = [f for f in Fact.objects.filter(key__in=kit.plan_facts) if reader.allows(f)]
    if regions.units_for(region, language) == "metric":
        # a fact keeps its source's gallons and feet; the plan's own lines give the same advice in metres
        facts = [f for f in facts if not US_UNITS.search(f"{f.number} {f.statement}")]
    if kit.hazard == "hurricane" and not region.hurricanes:
        # the facts back the game's hurricane lines, which this region's own advice replaced
        facts = []
    facts = outcomes.in_language(facts, language)
    facts.sort(key=lambda f: kit.plan_facts.index(f.key))
    check = KnowledgeCheck.objects.filter(session=session).first()
    return {
        "lines": lines,
        "facts": facts,
        "played": bool(row),
        "local_office": check.local_office if check else "",
        "scenario": registry.get(session.scenario),
        "region": region,
        "hazard": kit.hazard,
        "paper": region.paper,
        "weather": regions.weather_for(region, kit.hazard),
        "sections": checklist.sections(kit.hazard, region, amounts),
        "grades": checklist.GRADES,
    }


def set_region(*, session: Session, region: str) -> Session:
    """Where the class lives (``classroom.regions``); an unknown region is refused, nothing changed."""
    if region not in regions.REGIONS:
        raise CheckError(_("Choose one of the regions offered."))
    session.region = region
    session.save(update_fields=["region"])
    return session


def set_local_office(*, session: Session, text: str) -> KnowledgeCheck:
    text = (text or "").strip()
    if len(text) > 200:
        raise CheckError(_("Write the office in at most 200 characters."))
    check = KnowledgeCheck.of(session)
    check.local_office = text
    check.save(update_fields=["local_office"])
    return check


# --- The guide ----------------------------------------------------------------------------------------

#: what each phase of the scripted debrief is called (``scenarios.kit.DEBRIEF_PHASES``)
PHASE_TITLES = {
    "reactions": gettext_lazy("1. Reactions: how did it feel?"),
    "what_happened": gettext_lazy("2. What happened?"),
    "why": gettext_lazy("3. Why did it happen?"),
    "differently": gettext_lazy("4. What would you do differently?"),
    "real_world": gettext_lazy("5. The real world"),
}


#: the age band whose debrief asks the older questions (``DebriefPhase.older``)
OLDER_BAND = AGE_BANDS[-1]


def guide_context(scenario, session: Session | None = None) -> dict:
    """What the guide's page and PDF show: the scenario's guide with the glossary's terms and the
    debrief's phases named (a 16+ class's questions where the session's age band is 16+, both
    without a session), and the paper size of the session's region (Letter without one)."""
    guide = scenario.kit.guide
    band = session.age_band if session is not None else None
    debrief = [
        {
            "phase": p.phase,
            "title": PHASE_TITLES[p.phase],
            "say": p.older if p.older and band == OLDER_BAND else p.say,
            # without a session the guide gives both; with one, the class's own
            "older": p.older if p.older and band is None else "",
            "shows": p.shows,
        }
        for p in guide.debrief
    ]
    region = regions.of(session) if session is not None else None
    steps = [{"minutes": s.minutes, "title": s.title, "say": s.say, "does": flow.controls(s.does)} for s in guide.steps]
    return {
        "scenario": scenario,
        "guide": guide,
        "steps": steps,
        "kit": scenario.kit,
        "debrief": debrief,
        "vocabulary": glossary.terms(guide.vocabulary),
        "region": region,
        "paper": region.paper if region else "Letter",
        "check_sets": _check_sets(scenario.check),
    }


def _check_sets(bank) -> list[dict]:
    """The knowledge check's two sets as the guide lists them: each question with the source
    and grade of the fact its answer rests on (a reader never meets a fact's key)."""
    if bank is None:
        return []
    facts = {f.key: f for f in Fact.objects.filter(key__in={item.fact for item in bank.items if item.fact})}
    return [
        {
            "name": name,
            "items": [
                {"question": item.question, "fact": facts.get(item.fact)} for item in bank.items if item.form == name
            ],
        }
        for name in ("A", "B")
    ]


# --- Printables --------------------------------------------------------------------------------------


def printable_context(scenario_key: str, printable, reader: Audience) -> dict:
    """A printable's template context: its content files, loaded, and what ``prepare`` makes of
    them, with the content words (card titles, places, roles) in the reader's language and only
    the real-world claims ``reader`` (the class it is printed for) may see. ``prepare`` reads
    the English files, so what it decides never depends on a language."""
    scenario = registry.get(scenario_key)
    content, _hash = load_content(scenario.folder / "content", [f"{name}.json" for name in printable.content])
    data = printable.prepare(content) if printable.prepare else {}
    shown = reader.redact({"content": content, "data": data})
    shown = languages.translate_content(shown, scenario_key, languages.current())
    return {**shown, "printable": printable, "reader": reader}
