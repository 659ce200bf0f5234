"""Lesson-kit workflows: the knowledge check (turned on, edited, answered, summed up), the family
plan filled from a student's own game, and the printables' data. Views and scoring's panels call
these; the scenario's part is its kit (``registry.get(key).kit``), read as data."""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from classroom import languages, regions
from classroom.models import Participant, Seat, Session
from lessons import family_plan as checklist
from lessons import glossary
from lessons.models import CheckAnswer, CheckItem, KnowledgeCheck
from scenarios import registry
from scenarios.base import load_content
from scoring import outcomes
from scenarios.audience import AGE_BANDS, Audience
from scoring.models import Fact

MAX_QUESTION = 300
MAX_CHOICE = 120
MAX_ITEMS = 12


class CheckError(ValueError):
    """Bad input to the knowledge check, with a sentence a teacher or student can read; nothing
    was changed."""


def kit_of(scenario_key: str):
    return registry.get(scenario_key).kit


# --- Turning the check on, and the teacher's items -------------------------------------------------

def _band_fits(item_band: str, class_band: str) -> bool:
    return AGE_BANDS.index(item_band) <= AGE_BANDS.index(class_band) if class_band in AGE_BANDS else item_band == AGE_BANDS[0]


def set_check(*, session: Session, enabled: bool) -> KnowledgeCheck:
    """Turn the session's knowledge check on or off. The first time it is turned on, the
    scenario's kit items are copied into the session (those above the class's age band are kept
    but not asked), so the teacher can edit them."""
    with transaction.atomic():
        check = KnowledgeCheck.of(session)
        check.enabled = enabled
        check.save(update_fields=["enabled"])
        if enabled and not session.check_items.exists():
            band = session.age_band
            with translation.override("en"):
                for position, item in enumerate(kit_of(session.scenario).check):
                    CheckItem.objects.create(
                        session=session, position=position, kit_key=item.key, topic=item.topic,
                        question=str(item.question), choices=[str(c) for c in item.choices], answer=item.answer,
                        fact_key=item.fact, age_band=item.age_band, used=_band_fits(item.age_band, band))
    return check


def open_after(*, session: Session) -> KnowledgeCheck:
    """After the debrief: students answer the same items again (the before-check closes)."""
    check = KnowledgeCheck.of(session)
    if not check.enabled:
        raise CheckError(_("Turn the knowledge check on first."))
    check.after_open = True
    check.save(update_fields=["after_open"])
    return check


def save_item(*, session: Session, item_id: int | None, question: str, choices: list[str], answer,
              used: bool = True) -> CheckItem:
    """Edit one of the session's items (``item_id``) or add the teacher's own (``None``).

    The question needs 1-300 characters, 2-4 choices of at most 120 characters, and the right
    answer among them; an item already answered keeps its right answer (the results would
    change meaning). Raises ``CheckError`` and changes nothing otherwise."""
    question = (question or "").strip()
    try:
        answer = int(answer)
    except (TypeError, ValueError):
        answer = -1
    written = [(c or "").strip() for c in choices]
    # The right answer is marked beside its box; blank boxes are dropped, so count only the
    # written ones before it (and a blank box marked right is no answer).
    answer = sum(1 for c in written[:answer] if c) if 0 <= answer < len(written) and written[answer] else -1
    choices = [c for c in written if c]
    if not question or len(question) > MAX_QUESTION:
        raise CheckError(_("Write a question of at most %(n)d characters.") % {"n": MAX_QUESTION})
    if not 2 <= len(choices) <= 4 or any(len(c) > MAX_CHOICE for c in choices):
        raise CheckError(_("Give 2 to 4 answers of at most %(n)d characters each.") % {"n": MAX_CHOICE})
    if not 0 <= answer < len(choices):
        raise CheckError(_("Pick which answer is right."))
    with transaction.atomic():
        if item_id is None:
            if session.check_items.count() >= MAX_ITEMS:
                raise CheckError(_("A check has at most %(n)d questions.") % {"n": MAX_ITEMS})
            last = session.check_items.order_by("-position").first()
            return CheckItem.objects.create(session=session, position=(last.position + 1) if last else 0,
                                            question=question, choices=choices, answer=answer, edited=True,
                                            used=used)
        item = CheckItem.objects.select_for_update().filter(session=session, pk=item_id).first()
        if item is None:
            raise CheckError(_("That question is not part of this session."))
        if item.answers.exists() and (answer != item.answer or len(choices) != len(item.choices)):
            raise CheckError(_("Students have answered this question already: you can reword it, but not "
                               "change its answers or which one is right."))
        # The teacher was shown the item in their own language: saving it unchanged (to drop it or
        # mark another answer) keeps the kit's wording, translated for each student.
        seen = shown(item)
        if question != seen.question or choices != seen.choices:
            item.question, item.choices, item.edited = question, choices, True
        item.answer, item.used = answer, used
        item.save()
        return item


# --- What a reader sees of an item -------------------------------------------------------------------

@dataclass
class ShownItem:
    item: CheckItem
    question: str
    choices: list[str]
    fact: Fact | None


def shown(item: CheckItem, facts: dict | None = None) -> ShownItem:
    """The item in the reader's language: a kit item the teacher did not reword is translated
    from the kit; the teacher's own words are shown as written."""
    question, choices = item.question, list(item.choices)
    if item.kit_key and not item.edited:
        kit_item = next((k for k in kit_of(item.session.scenario).check if k.key == item.kit_key), None)
        if kit_item is not None:
            question, choices = str(kit_item.question), [str(c) for c in kit_item.choices]
    fact = (facts or {}).get(item.fact_key) if item.fact_key else None
    if facts is None and item.fact_key:
        fact = Fact.objects.filter(key=item.fact_key).first()
    return ShownItem(item, question, choices, fact)


def _facts(items) -> dict:
    return {f.key: f for f in Fact.objects.filter(key__in=[i.fact_key for i in items if i.fact_key])}


def phase_open(session: Session) -> str | None:
    """Which check students may answer now: "before" until the teacher opens the after-check
    (while the lesson has not ended), then "after"; None when the check is off."""
    check = KnowledgeCheck.objects.filter(session=session).first()
    if check is None or not check.enabled:
        return None
    if check.after_open:
        return CheckAnswer.Phase.AFTER
    if session.status != Session.Status.ENDED:
        return CheckAnswer.Phase.BEFORE
    return None


def items_for(participant: Participant, phase: str) -> list[ShownItem]:
    """The session's asked items in this student's order for ``phase``: shuffled per student, and
    after the debrief in another order than before."""
    items = list(participant.session.check_items.filter(used=True).select_related("session"))
    order = list(range(len(items)))
    random.Random(f"{participant.pk}:before").shuffle(order)
    if phase == CheckAnswer.Phase.AFTER and len(order) > 1:
        before = list(order)
        random.Random(f"{participant.pk}:after").shuffle(order)
        if order == before:
            order = order[1:] + order[:1]
    facts = _facts(items)
    return [shown(items[i], facts) for i in order]


def answered(participant: Participant, phase: str) -> bool:
    return CheckAnswer.objects.filter(participant=participant, phase=phase).exists()


def submit_answers(*, participant: Participant, phase: str, answers: dict) -> int:
    """Store a student's answers to every asked item for ``phase``; returns how many were right.

    Refused with ``CheckError`` (nothing stored) if that phase is not open, the student answered
    it already, or any item is unanswered or answered with something not offered."""
    if phase_open(participant.session) != phase:
        raise CheckError(_("These questions are not open now."))
    if not participant.approved:
        raise CheckError(_("Your teacher has not let your nickname in yet. Ask your teacher, then "
                           "answer the questions."))
    items = {item.pk: item for item in participant.session.check_items.filter(used=True)}
    if not items:
        raise CheckError(_("These questions are not open now."))
    chosen = {}
    for item_id, item in items.items():
        raw = answers.get(str(item_id))
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise CheckError(_("Answer every question (pick one answer each).")) from None
        if not 0 <= value < len(item.choices):
            raise CheckError(_("Answer every question (pick one answer each)."))
        chosen[item_id] = value
    try:
        with transaction.atomic():
            if answered(participant, phase):
                raise CheckError(_("You have answered these questions already."))
            CheckAnswer.objects.bulk_create([
                CheckAnswer(item=items[i], participant=participant, phase=phase, choice=v,
                            correct=v == items[i].answer) for i, v in chosen.items()])
    except IntegrityError:  # a double tap racing itself
        raise CheckError(_("You have answered these questions already.")) from None
    return sum(1 for i, v in chosen.items() if v == items[i].answer)


# --- Results -----------------------------------------------------------------------------------------

def _percent(right: int, total: int) -> int | None:
    return round(100 * right / total) if total else None


def class_results(session: Session) -> dict | None:
    """Per item and overall: how many answered before and after, the share right, and the gain in
    percentage points. Overall counts only students who answered both, so the gain compares the
    same children. None when the check is off."""
    check = KnowledgeCheck.objects.filter(session=session).first()
    if check is None or not check.enabled:
        return None
    items = list(session.check_items.filter(used=True).select_related("session"))
    facts = _facts(items)
    # only students the teacher let in: a device that joined on its own adds nothing to the figures
    answers = list(CheckAnswer.objects.filter(item__in=items, participant__approved=True)
                   .values("item_id", "participant_id", "phase", "correct"))
    rows = []
    for item in items:
        mine = [a for a in answers if a["item_id"] == item.pk]
        before = [a["correct"] for a in mine if a["phase"] == "before"]
        after = [a["correct"] for a in mine if a["phase"] == "after"]
        b, a = _percent(sum(before), len(before)), _percent(sum(after), len(after))
        rows.append({"item": shown(item, facts), "before_n": len(before), "after_n": len(after),
                     "before": b, "after": a, "gain": (a - b) if a is not None and b is not None else None})
    by_student: dict[int, dict[str, list[bool]]] = {}
    for a in answers:
        by_student.setdefault(a["participant_id"], {"before": [], "after": []})[a["phase"]].append(a["correct"])
    both = [s for s in by_student.values() if s["before"] and s["after"]]
    before_all = _percent(sum(sum(s["before"]) for s in both), sum(len(s["before"]) for s in both))
    after_all = _percent(sum(sum(s["after"]) for s in both), sum(len(s["after"]) for s in both))
    return {"items": rows, "paired": len(both),
            "before_n": sum(1 for s in by_student.values() if s["before"]),
            "after_n": sum(1 for s in by_student.values() if s["after"]),
            "before": before_all, "after": after_all,
            "gain": (after_all - before_all) if before_all is not None and after_all is not None else None,
            "after_open": check.after_open}


def student_results(participant: Participant) -> dict | None:
    """The student's own answers, before and after, per item (right or not); None if the check
    is off or they answered nothing."""
    if not KnowledgeCheck.objects.filter(session=participant.session, enabled=True).exists():
        return None
    answers = list(CheckAnswer.objects.filter(participant=participant).select_related("item__session"))
    if not answers:
        return None
    items = {}
    for a in answers:
        items.setdefault(a.item_id, {"item": a.item, "before": None, "after": None})[a.phase] = a.correct
    facts = _facts([row["item"] for row in items.values()])
    rows = [{**row, "item": shown(row["item"], facts)} for row in
            sorted(items.values(), key=lambda r: (r["item"].position, r["item"].pk))]
    before = [r["before"] for r in rows if r["before"] is not None]
    after = [r["after"] for r in rows if r["after"] is not None]
    return {"items": rows, "before": sum(before), "before_n": len(before), "after": sum(after),
            "after_n": len(after)}


def export_rows(session: Session) -> list[dict]:
    """Every answer by seat id, for the research export (called only under the opt-in)."""
    seat_of = {}
    for seat in Seat.objects.filter(table__session=session, participant__isnull=False).order_by("table__number", "number"):
        seat_of.setdefault(seat.participant_id, seat.pk)
    return [{"seat_id": seat_of.get(a.participant_id), "phase": a.phase, "item": a.item.kit_key or f"teacher-{a.item_id}",
             "question": a.item.question, "choice": a.choice, "correct": a.correct}
            for a in CheckAnswer.objects.filter(item__session=session).select_related("item").order_by("item__position", "pk")]


EXPORT_DICTIONARY = {
    "knowledge_check.seat_id": "The student's (first) seat id, as in moves and decisions.",
    "knowledge_check.phase": "'before' (before play) or 'after' (after the debrief).",
    "knowledge_check.item": "The kit item's key, or teacher-<id> for a question the teacher wrote.",
    "knowledge_check.choice / correct": "The answer picked (from 0, in the teacher's order) and whether it was right.",
}


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


#: a fact stated in US units (its English ``number`` or statement; nautical miles are everyone's)
US_UNITS = re.compile(r"gallon|\binch|\bfeet\b|\bfoot\b|\bmph\b|\b\d+ (?:in|ft)\b|(?<!nautical )\bmiles?\b",
                      re.IGNORECASE)


def _plan(session: Session, row: dict) -> dict:
    kit = kit_of(session.scenario)
    region = regions.of(session)
    language = languages.current()
    amounts = regions.quantities(region, language)
    lines = []
    for line in kit.plan:
        text = line.values.get(str(row[line.column])) if line.column and line.column in row else None
        fallback = line.otherwise if row or line.unplayed is None else line.unplayed
        lines.append({"key": line.key, "label": line.label, "text": regions.fill(text or fallback, amounts),
                      "from_game": bool(text)})
    reader = session.audience
    facts = [f for f in Fact.objects.filter(key__in=kit.plan_facts) if reader.allows(f)]
    if regions.units_for(region, language) == "metric":
        # a fact keeps its source's gallons and feet; the plan's own lines give the same advice in metres
        facts = [f for f in facts if not US_UNITS.search(f"{f.number} {f.statement}")]
    facts = outcomes.in_language(facts, language)
    facts.sort(key=lambda f: kit.plan_facts.index(f.key))
    check = KnowledgeCheck.objects.filter(session=session).first()
    return {"lines": lines, "facts": facts, "played": bool(row),
            "local_office": check.local_office if check else "", "scenario": registry.get(session.scenario),
            "region": region, "hazard": kit.hazard, "paper": region.paper,
            "weather": regions.weather_for(region, kit.hazard),
            "sections": checklist.sections(kit.hazard, region, amounts), "grades": checklist.GRADES}


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


def guide_context(scenario, session: Session | None = None) -> dict:
    """What the guide's page and PDF show: the scenario's guide with the glossary's terms and the
    debrief's phases named, and the paper size of the session's region (Letter without one)."""
    guide = scenario.kit.guide
    debrief = [{"phase": p.phase, "title": PHASE_TITLES[p.phase], "say": p.say, "shows": p.shows}
               for p in guide.debrief]
    region = regions.of(session) if session is not None else None
    return {"scenario": scenario, "guide": guide, "kit": scenario.kit, "debrief": debrief,
            "vocabulary": glossary.terms(guide.vocabulary), "region": region,
            "paper": region.paper if region else "Letter"}


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

