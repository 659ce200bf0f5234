"""The knowledge check: turned on (by default, for every new session), edited by the teacher,
answered on the tablets and summed up honestly.

- Each session copies its scenario's item bank (``registry.get(key).check``: two parallel forms).
  Half the class answers form A before play and B after, the other half the reverse, by join order.
- Each student sees the items and their choices in an order of their own for each phase,
  worked out from ids alone; across a form every position holds the right answer about equally
  often, so answering "always the first choice" scores chance on both forms. The stored answer
  is the choice's id (its index in the teacher's order), never where it was shown.
- The before-check opens to a student once the teacher let their nickname in, and closes when
  their table's game starts; answers they already had open are kept, marked late, and left out
  of the gain.
- The after-check comes before the answers: the teacher opens it when play ends and closes it
  when the class has answered; the class debrief shows no question or answer until then
  (``lessons.panels``). Answers sent before it closed are kept; none are taken after.
- The class result is on paired students only (``lessons.gain``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from classroom import languages
from classroom.models import Participant, Seat, Session
from classroom.services import notify_session
from games.models import Game
from lessons import gain, signals
from lessons.models import CheckAnswer, CheckItem, CheckStudent, KnowledgeCheck
from lessons.services import CheckError
from scenarios import registry
from scoring import outcomes
from scoring.models import Fact
from scoring.outcomes import AGE_BANDS

MAX_QUESTION = 300
MAX_CHOICE = 120
MAX_ITEMS = 24
BEFORE, AFTER = CheckAnswer.Phase.BEFORE, CheckAnswer.Phase.AFTER


def bank_of(session: Session):
    return registry.get(session.scenario).check


# --- Turning the check on, and the teacher's items -------------------------------------------------


def _band_fits(item_band: str, class_band: str) -> bool:
    return (
        AGE_BANDS.index(item_band) <= AGE_BANDS.index(class_band)
        if class_band in AGE_BANDS
        else item_band == AGE_BANDS[0]
    )


def set_check(*, session: Session, enabled: bool) -> KnowledgeCheck:
    """Turn the session's knowledge check on or off. The first time it is on, the scenario's
    item bank is copied into the session (items above the class's age band are kept but not
    asked), so the teacher can edit them. Tablets follow at once."""
    with transaction.atomic():
        check = KnowledgeCheck.of(session)
        check.enabled = enabled
        check.save(update_fields=["enabled"])
        if enabled and not session.check_items.exists():
            band = session.age_band
            with translation.override("en"):
                CheckItem.objects.bulk_create(
                    [
                        CheckItem(
                            session=session,
                            position=position,
                            kit_key=item.key,
                            form=item.form,
                            pair=item.pair,
                            objective=item.objective,
                            question=str(item.question),
                            choices=[str(c) for c in item.choices],
                            answer=item.answer,
                            fact_key=item.fact,
                            age_band=item.age_band,
                            used=_band_fits(item.age_band, band),
                        )
                        for position, item in enumerate(bank_of(session).items)
                    ]
                )
        notify_session(session)
    return check


def on_session_created(sender, instance, created, raw=False, **kwargs):
    """Every new session starts with its knowledge check on (the teacher may turn it off)."""
    if created and not raw:
        set_check(session=instance, enabled=True)


def open_after(*, session: Session) -> KnowledgeCheck:
    """When play ends, before the debrief: students answer the other form (the before-check is
    closed). Tablets follow at once."""
    with transaction.atomic():
        check = KnowledgeCheck.objects.select_for_update().get(pk=KnowledgeCheck.of(session).pk)
        if not check.enabled:
            raise CheckError(_("Turn the knowledge check on first."))
        if check.after_closed:
            raise CheckError(_("The after-check is closed already: the debrief shows its answers."))
        check.after_open = True
        check.save(update_fields=["after_open"])
    notify_session(session)
    return check


def close_after(*, session: Session) -> KnowledgeCheck:
    """The class has answered the after-check: no more answers are taken (those sent are kept),
    tablets drop its link at once, and the debrief shows the questions and answers."""
    with transaction.atomic():
        check = KnowledgeCheck.objects.select_for_update().get(pk=KnowledgeCheck.of(session).pk)
        if not check.enabled or not check.after_open:
            raise CheckError(_("Open the after-check first."))
        check.after_closed = True
        check.save(update_fields=["after_closed"])
    notify_session(session)
    return check


def after_progress(session: Session) -> dict | None:
    """Where the after-check stands, for the teacher's controls: "waiting" (not opened yet),
    "open" or "closed", and how many of the students the teacher let in have answered it. None
    when the check is off."""
    check = _check(session)
    if check is None:
        return None
    students = session.participants.filter(approved=True)
    return {
        "state": "closed" if check.after_closed else "open" if check.after_open else "waiting",
        "answered": students.filter(check_answers__phase=AFTER).distinct().count(),
        "students": students.count(),
    }


def answers_shown(session: Session) -> bool:
    """Whether the class debrief may show the check's questions and answers: once the
    after-check has closed (or with the check off, when there is nothing to give away)."""
    check = KnowledgeCheck.objects.filter(session=session).first()
    return check is None or not check.enabled or check.after_closed


def save_item(
    *, session: Session, item_id: int | None, question: str, choices: list[str], answer, used: bool = True
) -> CheckItem:
    """Edit one of the session's items (``item_id``) or add the teacher's own (``None``), asked
    on both forms.

    The question needs 1-300 characters, 2-4 choices of at most 120 characters, and the right
    answer among them; an item already answered keeps its right answer and its number of
    choices (the results would change meaning). Raises ``CheckError`` and changes nothing
    otherwise."""
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
            return CheckItem.objects.create(
                session=session,
                position=(last.position + 1) if last else 0,
                question=question,
                choices=choices,
                answer=answer,
                edited=True,
                used=used,
            )
        item = CheckItem.objects.select_for_update().filter(session=session, pk=item_id).first()
        if item is None:
            raise CheckError(_("That question is not part of this session."))
        if item.answers.exists() and (answer != item.answer or len(choices) != len(item.choices)):
            raise CheckError(
                _(
                    "Students have answered this question already: you can reword it, but not "
                    "change its answers or which one is right."
                )
            )
        # The teacher was shown the item in their own language: saving it unchanged (to drop it or
        # mark another answer) keeps the bank's wording, translated for each student.
        seen = shown(item)
        if question != seen.question or choices != seen.choices:
            item.question, item.choices, item.edited = question, choices, True
        item.answer, item.used = answer, used
        item.save()
        return item


# --- What a reader sees of an item -------------------------------------------------------------------


@dataclass
class ShownItem:
    """An item in the reader's language. ``choices`` are in the teacher's order (index = choice
    id); ``order`` is the order one student is shown them in (``offered`` pairs id and text)."""

    item: CheckItem
    question: str
    choices: list[str]
    fact: Fact | None
    objective: str = ""
    order: list[int] = field(default_factory=list)

    @property
    def offered(self) -> list[tuple[int, str]]:
        return [(i, self.choices[i]) for i in (self.order or range(len(self.choices)))]

    @property
    def right(self) -> str:
        return self.choices[self.item.answer] if 0 <= self.item.answer < len(self.choices) else ""


def shown(item: CheckItem, facts: dict | None = None) -> ShownItem:
    """The item in the reader's language: a bank item the teacher did not reword is translated
    from the bank; the teacher's own words are shown as written."""
    question, choices = item.question, list(item.choices)
    bank = bank_of(item.session)
    if item.kit_key and not item.edited:
        bank_item = bank.item(item.kit_key)
        if bank_item is not None:
            question, choices = str(bank_item.question), [str(c) for c in bank_item.choices]
    objective = bank.objective(item.objective) if item.objective else None
    fact = (facts or {}).get(item.fact_key) if item.fact_key else None
    if facts is None and item.fact_key:
        fact = _facts([item]).get(item.fact_key)
    return ShownItem(item, question, choices, fact, str(objective.text) if objective else "")


def _facts(items) -> dict:
    """The facts of ``items``, statements in the reader's language."""
    rows = list(Fact.objects.filter(key__in={i.fact_key for i in items if i.fact_key}))
    return {f.key: f for f in outcomes.in_language(rows, languages.current())}


# --- Who answers what, and when ----------------------------------------------------------------------


def _check(session: Session) -> KnowledgeCheck | None:
    return KnowledgeCheck.objects.filter(session=session, enabled=True).first()


def phase_open(session: Session) -> str | None:
    """The class's phase, as the teacher sees it: "before" while the session is in its lobby,
    "after" from the teacher's opening it to their closing it; None otherwise or when the check
    is off."""
    check = _check(session)
    if check is None or check.after_closed:
        return None
    if check.after_open:
        return AFTER
    return BEFORE if session.status == Session.Status.LOBBY else None


def game_started_at(participant: Participant):
    """When this student's game started: their table's, else the session's start (None before)."""
    started = (
        Game.objects.filter(table__seats__participant=participant)
        .order_by("created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    return started or participant.session.started_at


def phase_for(participant: Participant) -> str | None:
    """Which check this student may open now: "before" until their table's game starts, "after"
    from the teacher's opening it to their closing it; None otherwise."""
    session = participant.session
    check = _check(session)
    if check is None or check.after_closed:
        return None
    if check.after_open:
        return AFTER
    if session.status == Session.Status.ENDED or game_started_at(participant) is not None:
        return None
    return BEFORE


def before_closed(participant: Participant) -> bool:
    """The before-check was open to this student and closed when their game started (the
    after-check is not open yet)."""
    check = _check(participant.session)
    return bool(
        check
        and not check.after_open
        and participant.session.status != Session.Status.ENDED
        and game_started_at(participant) is not None
    )


def student(participant: Participant) -> CheckStudent:
    """The student's form order, given on first need: A first or B first, whichever fewer of the
    class have so far, so the class is split evenly however many join."""
    existing = CheckStudent.objects.filter(participant=participant).first()
    if existing:
        return existing
    with transaction.atomic():
        # One assignment at a time per session, so two tablets joining together are not both A.
        list(KnowledgeCheck.objects.select_for_update().filter(session_id=participant.session_id))
        existing = CheckStudent.objects.filter(participant=participant).first()
        if existing:
            return existing
        counts = Counter(
            CheckStudent.objects.filter(participant__session_id=participant.session_id).values_list(
                "first_form", flat=True
            )
        )
        return CheckStudent.objects.create(
            participant=participant, first_form="A" if counts["A"] <= counts["B"] else "B"
        )


def _balanced_orders(items: list[CheckItem], seed: str) -> dict[int, list[int]]:
    """Each item's choice ids in the order one student sees them. Among items with the same
    number of choices, the right answer goes to each position equally often (to within one),
    which positions get the spare ones drawn at random; the other choices fill the rest."""
    rng = random.Random(seed)
    orders = {}
    by_size: dict[int, list[CheckItem]] = {}
    for item in items:
        by_size.setdefault(len(item.choices), []).append(item)
    for size, group in sorted(by_size.items()):
        places = []
        while len(places) < len(group):
            places += rng.sample(range(size), size)
        rng.shuffle(group)
        for item, place in zip(group, places):
            others = [c for c in range(size) if c != item.answer]
            rng.shuffle(others)
            others.insert(place, item.answer)
            orders[item.pk] = others
    return orders


def items_for(participant: Participant, phase: str) -> list[ShownItem]:
    """The items of this student's form for ``phase`` (and the teacher's own), in the student's
    own order of items and of choices; the same every time they are asked for."""
    form = student(participant).form_for(phase)
    items = [
        i for i in participant.session.check_items.filter(used=True).select_related("session") if i.form in ("", form)
    ]
    seed = f"check:{participant.session_id}:{participant.pk}:{phase}"
    random.Random(seed).shuffle(items)
    orders = _balanced_orders(list(items), seed)
    facts = _facts(items)
    out = []
    for item in items:
        row = shown(item, facts)
        row.order = orders[item.pk]
        out.append(row)
    return out


def opened(participant: Participant, phase: str) -> None:
    """The student opened the before-check while it was open: answers they send after their game
    started are then taken, marked late."""
    if phase == BEFORE:
        CheckStudent.objects.filter(pk=student(participant).pk, before_opened_at__isnull=True).update(
            before_opened_at=timezone.now()
        )


def after_closed(participant: Participant) -> bool:
    """The teacher closed the after-check (the student may have answered it or not)."""
    check = _check(participant.session)
    return bool(check and check.after_closed)


def answered(participant: Participant, phase: str) -> bool:
    return CheckAnswer.objects.filter(participant=participant, phase=phase).exists()


def offered_phase(participant: Participant) -> str | None:
    """The check a tablet offers this student now: ``phase_for``, once the teacher let their
    nickname in (a device waiting for approval is not asked anything yet)."""
    return phase_for(participant) if participant.approved else None


def lobby_part(participant: Participant) -> dict:
    """What a tablet's lobby shows of the check (``classroom.lobby``), pushed with every lobby
    update (the teacher's approval among them) so tablets follow the phase live."""
    phase = offered_phase(participant)
    return {
        "check": {
            "phase": phase,
            "to_answer": bool(phase) and not answered(participant, phase),
            "url": reverse("lessons:student_check", args=[participant.session_id]),
        }
        if phase
        else None
    }


def submit_answers(*, participant: Participant, phase: str, answers: dict) -> int:
    """Store a student's answers to every item of their form for ``phase``; returns how many were
    right. ``answers`` maps item id to choice id.

    A before-check the student opened in time but sends after their game started is kept and
    marked late. Refused with ``CheckError`` (nothing stored) if that phase is not open to them,
    they answered it already, or any item is unanswered or answered with a choice not offered."""
    session = participant.session
    late = False
    if phase_for(participant) != phase:
        check = _check(session)
        mine = CheckStudent.objects.filter(participant=participant).first()
        started = game_started_at(participant)
        in_hand = (
            phase == BEFORE
            and check is not None
            and not check.after_open
            and mine is not None
            and mine.before_opened_at is not None
            and started is not None
            and mine.before_opened_at <= started
            and session.status != Session.Status.ENDED
        )
        if not in_hand:
            if phase == AFTER and check is not None and check.after_closed:
                raise CheckError(
                    _("Your teacher has closed these questions, so these answers were not saved. Thank you for trying!")
                )
            raise CheckError(_("These questions are not open now."))
        late = True
    if not participant.approved:
        raise CheckError(
            _("Your teacher has not let your nickname in yet. Ask your teacher, then answer the questions.")
        )
    items = items_for(participant, phase)
    if not items:
        raise CheckError(_("These questions are not open now."))
    chosen = {}
    for row in items:
        try:
            value = int(answers.get(str(row.item.pk)))
        except (TypeError, ValueError):
            raise CheckError(_("Answer every question (pick one answer each).")) from None
        if not 0 <= value < len(row.item.choices):
            raise CheckError(_("Answer every question (pick one answer each)."))
        chosen[row.item.pk] = value
    form = student(participant).form_for(phase)
    try:
        with transaction.atomic():
            if answered(participant, phase):
                raise CheckError(_("You have answered these questions already."))
            CheckAnswer.objects.bulk_create(
                [
                    CheckAnswer(
                        item=row.item,
                        participant=participant,
                        phase=phase,
                        choice=chosen[row.item.pk],
                        correct=chosen[row.item.pk] == row.item.answer,
                        form=form,
                        shown=row.order,
                        late=late,
                    )
                    for row in items
                ]
            )
    except IntegrityError:  # a double tap racing itself
        raise CheckError(_("You have answered these questions already.")) from None
    signals.check_answered.send(sender=CheckAnswer, participant_id=participant.pk, phase=phase)
    return sum(1 for row in items if chosen[row.item.pk] == row.item.answer)


# --- Results -----------------------------------------------------------------------------------------


def _percent(right: int, total: int) -> int | None:
    return round(100 * right / total) if total else None


def _rounded(value: float | None, digits: int = 0):
    if value is None:
        return None
    return round(value) if digits == 0 else round(value, digits)


def _chance(items: list[CheckItem], form: str) -> int | None:
    mine = [i for i in items if i.form in ("", form)]
    return round(100 * sum(1 / len(i.choices) for i in mine) / len(mine)) if mine else None


def roster(session: Session) -> list[dict]:
    """Who answered, when, on which form first; who joined after the start; whose before-answers
    came late."""
    students = {s.participant_id: s.first_form for s in CheckStudent.objects.filter(participant__session=session)}
    times: dict[tuple[int, str], dict] = {}
    for a in CheckAnswer.objects.filter(item__session=session).values("participant_id", "phase", "answered_at", "late"):
        times.setdefault((a["participant_id"], a["phase"]), a)
    started_at = Session.objects.filter(pk=session.pk).values_list("started_at", flat=True).first()
    rows = []
    for p in session.participants.order_by("created_at", "pk"):
        before, after = times.get((p.pk, BEFORE)), times.get((p.pk, AFTER))
        rows.append(
            {
                "nickname": p.nickname,
                "first_form": students.get(p.pk, ""),
                "joined_late": bool(started_at and p.created_at > started_at),
                "before_at": before["answered_at"] if before else None,
                "before_late": bool(before and before["late"]),
                "after_at": after["answered_at"] if after else None,
            }
        )
    return rows


def class_results(session: Session) -> dict | None:
    """The class's result on paired students only (on time before, and after): mean share right
    before and after (also as "so many in 10" and what the interval lets one say, for the plain
    summary), the normalized gain with its 90 % bootstrap interval, the chance level of each
    form, and per item its share right before and after and its discrimination (flagged weak
    only on enough answers). None when the check is off."""
    check = _check(session)
    if check is None:
        return None
    items = list(session.check_items.filter(used=True).select_related("session"))
    # only students the teacher let in: a device that joined on its own adds nothing to the figures
    answers = list(
        CheckAnswer.objects.filter(item__in=items, participant__approved=True).values(
            "item_id", "participant_id", "phase", "correct", "late", "form"
        )
    )
    # One sitting = one student's answers to one phase.
    sittings: dict[tuple[int, str], list[dict]] = {}
    for a in answers:
        sittings.setdefault((a["participant_id"], a["phase"]), []).append(a)
    share = {key: 100 * sum(a["correct"] for a in rows) / len(rows) for key, rows in sittings.items()}
    late = {pid for (pid, phase), rows in sittings.items() if phase == BEFORE and any(a["late"] for a in rows)}
    paired = sorted(
        pid for (pid, phase) in sittings if phase == BEFORE and pid not in late and (pid, AFTER) in sittings
    )
    result = gain.class_gain([(share[(pid, BEFORE)], share[(pid, AFTER)]) for pid in paired], seed=f"gain:{session.pk}")
    by_form = {}
    for form_name in ("A", "B"):
        rows = {}
        for phase in (BEFORE, AFTER):
            scores = [share[(pid, phase)] for pid in paired if sittings[(pid, phase)][0]["form"] == form_name]
            rows[phase] = {"n": len(scores), "mean": _rounded(sum(scores) / len(scores)) if scores else None}
        by_form[form_name] = {"chance": _chance(items, form_name), **rows}
    facts = _facts(items)
    rows = []
    for item in items:
        counted = [
            a for a in answers if a["item_id"] == item.pk and not (a["phase"] == BEFORE and a["participant_id"] in late)
        ]
        before = [a["correct"] for a in counted if a["phase"] == BEFORE]
        after = [a["correct"] for a in counted if a["phase"] == AFTER]
        points = []
        for a in counted:
            others = [o["correct"] for o in sittings[(a["participant_id"], a["phase"])] if o["item_id"] != item.pk]
            if others:
                points.append((a["correct"], sum(others) / len(others)))
        disc = gain.discrimination(points)
        rows.append(
            {
                "item": shown(item, facts),
                "before_n": len(before),
                "after_n": len(after),
                "before": _percent(sum(before), len(before)),
                "after": _percent(sum(after), len(after)),
                "discrimination": _rounded(disc, 2),
                "weak": disc is not None
                and disc < gain.WEAK_DISCRIMINATION
                and min(len(before), len(after)) >= gain.FLAG_ANSWERS,
            }
        )
    before_mean = result["before"]
    return {
        "items": rows,
        "paired": result["n"],
        "before_n": sum(1 for (pid, phase) in sittings if phase == BEFORE),
        "after_n": sum(1 for (pid, phase) in sittings if phase == AFTER),
        "late_n": len(late),
        "before": _rounded(before_mean),
        "after": _rounded(result["after"]),
        "before_in_ten": gain.in_ten(before_mean),
        "after_in_ten": gain.in_ten(result["after"]),
        "verdict": gain.verdict(result["low"], result["high"]),
        "flag_answers": gain.FLAG_ANSWERS,
        "gain": _rounded(result["gain"], 2),
        "low": _rounded(result["low"], 2),
        "high": _rounded(result["high"], 2),
        "indicative": result["n"] < gain.FEW_PAIRS,
        "ceiling": before_mean is not None and before_mean >= gain.CEILING,
        "forms": by_form,
        "after_open": check.after_open,
        "roster": roster(session),
        "objectives": {o.key: str(o.text) for o in bank_of(session).objectives},
    }


def student_results(participant: Participant) -> dict | None:
    """The student's own answers, paired across the forms (the same objective and pair before and
    after): what they picked, whether it changed, and the right answer with its fact, in their
    language. None if the check is off or they answered nothing."""
    if _check(participant.session) is None:
        return None
    answers = list(
        CheckAnswer.objects.filter(participant=participant)
        .select_related("item__session")
        .order_by("item__position", "item__pk")
    )
    if not answers:
        return None
    facts = _facts([a.item for a in answers])
    sides: dict[str, dict] = {}
    for a in answers:
        row = shown(a.item, facts)
        key = a.item.pair or f"item-{a.item.pk}"
        sides.setdefault(key, {"objective": row.objective, "fact": row.fact})[a.phase] = {
            "question": row.question,
            "picked": row.choices[a.choice] if a.choice < len(row.choices) else "",
            "correct": a.correct,
            "right": row.right,
            "late": a.late,
        }
    rows = []
    for key, side in sides.items():
        b, a = side.get(BEFORE), side.get(AFTER)
        change = None
        if b and a:
            change = {
                (False, True): "now_right",
                (True, True): "still_right",
                (True, False): "now_wrong",
                (False, False): "not_yet",
            }[(b["correct"], a["correct"])]
        rows.append(
            {
                "key": key,
                "objective": side["objective"],
                "fact": side["fact"],
                "before": b,
                "after": a,
                "change": change,
            }
        )
    before = [r["before"]["correct"] for r in rows if r["before"]]
    after = [r["after"]["correct"] for r in rows if r["after"]]
    return {
        "items": rows,
        "before": sum(before),
        "before_n": len(before),
        "after": sum(after),
        "after_n": len(after),
        "changed": sum(1 for r in rows if r["change"] in ("now_right", "now_wrong")),
    }


def export_rows(session: Session) -> list[dict]:
    """Every answer by seat id, for the research export (called only under the opt-in)."""
    seat_of = {}
    for seat in Seat.objects.filter(table__session=session, participant__isnull=False).order_by(
        "table__number", "number"
    ):
        seat_of.setdefault(seat.participant_id, seat.pk)
    return [
        {
            "seat_id": seat_of.get(a.participant_id),
            "phase": a.phase,
            "form": a.form or a.item.form,
            "item": a.item.kit_key or f"teacher-{a.item_id}",
            "objective": a.item.objective,
            "question": a.item.question,
            "choice": a.choice,
            "shown": a.shown,
            "shown_position": a.shown.index(a.choice) if a.choice in a.shown else None,
            "correct": a.correct,
            "late": a.late,
            "answered_at": a.answered_at.isoformat(),
        }
        for a in CheckAnswer.objects.filter(item__session=session)
        .select_related("item")
        .order_by("item__position", "pk")
    ]


EXPORT_DICTIONARY = {
    "knowledge_check.seat_id": "The student's (first) seat id, as in moves and decisions.",
    "knowledge_check.phase": "'before' (before play) or 'after' (when play ended, before the debrief showed any answer).",
    "knowledge_check.form": "The parallel form answered in that phase: 'A' or 'B' (half the class answers A before "
    "and B after, the other half the reverse).",
    "knowledge_check.item / objective": "The bank item's key (teacher-<id> for a question the teacher wrote) and the "
    "learning objective it tests.",
    "knowledge_check.choice / correct": "The choice picked, by its id (its index in the teacher's order, from 0), and "
    "whether it was right.",
    "knowledge_check.shown / shown_position": "The choice ids in the order this student saw them, and where the "
    "picked one was (from 0).",
    "knowledge_check.late / answered_at": "A before-answer sent after the student's game had started (left out of the "
    "gain), and when the answer was stored (UTC).",
}
