"""The lesson kit's contract: what a scenario's ``kit.py`` exports as ``KIT``.

A kit is data: the teacher's lesson guide, which content files feed which printable (and the
template that prints them), and how the scenario's debrief ``decisions`` rows fill a student's
take-home family plan. The knowledge check's item bank is the scenario's ``check.py`` (``CHECK``,
a :class:`CheckBank`): learning objectives and two parallel forms of items, each tied to a graded
fact of the knowledge base (``scoring/outcomes/facts.json`` and the scenario's ``facts/``). The ``lessons`` app reads both through the registry
(``registry.get(key).kit`` and ``.check``) and never names a scenario.

Every string a person reads is a lazy translation (``gettext_lazy``) in the scenario's ``kit.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: the two parallel forms of a bank: a student answers one before play and the other after
FORMS = ("A", "B")
#: what an item asks for: a choice in a situation (most of a bank) or a fact to remember
KINDS = ("decision", "recall")


@dataclass(frozen=True)
class Step:
    """One step of a 45-minute period: how long it takes, what happens, what the teacher says."""

    minutes: int
    title: Any
    say: Any
    #: the app's controls this step uses, in order (keys of ``lessons.flow.CONTROLS``): the guide
    #: prints where each is, and a browser test walks the steps by them against the running app
    does: tuple = ()


#: the phases of a scripted debrief, in order (reactions first, the real world last)
DEBRIEF_PHASES = ("reactions", "what_happened", "why", "differently", "real_world")

#: the hazards a family plan can be about: which alerts, advice and after-storm lines it carries
HAZARDS = ("hurricane", "tornado")


@dataclass(frozen=True)
class DebriefPhase:
    """One phase of the scripted debrief: what the teacher says or asks, and which part of the
    class debrief page to put on the projector while they do (``shows``, a short phrase), and
    what to ask an older class instead (``older``)."""

    phase: str  #: one of DEBRIEF_PHASES
    say: Any
    shows: Any = ""
    #: what to ask instead when the youngest students are 16 or over (the session's age band):
    #: the same phase, a question about trade-offs, evidence and who bears the cost
    older: Any = ""


@dataclass(frozen=True)
class Aim:
    """One learning objective of the guide, with the keys of the knowledge check's objectives
    (``CheckBank.objectives``) that measure it: none for what the lesson practises in play and
    the debrief but the check does not ask, so the guide never promises a measure it lacks."""

    text: Any
    checks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Guide:
    """The lesson guide: a page and a PDF for the teacher. The platform adds what every lesson
    shares (preparing devices and codes, differentiation, what to do when something goes wrong);
    a guide adds its own lines to each."""

    objectives: tuple[Aim, ...]  #: what students can do afterwards: every check objective is one's
    standards: tuple  #: (code, what it asks, how this lesson meets it)
    steps: tuple[Step, ...]  #: join, play, debrief, check: about 45 minutes in all
    questions: tuple  #: the discussion questions the debrief raises
    fallback: tuple  #: running the lesson with no devices (printables on tables)
    vocabulary: tuple = ()  #: keys of ``lessons.glossary`` terms students meet
    debrief: tuple = ()  #: a ``DebriefPhase`` for each of DEBRIEF_PHASES, in order
    preparation: tuple = ()  #: this game's own lines for the preparation checklist
    differentiation: tuple = ()  #: this game's own ways to reach every student
    troubles: tuple = ()  #: this game's own "when something goes wrong" lines


@dataclass(frozen=True)
class Printable:
    """One printable: its template (``scenarios/<key>/<template>``) gets ``content`` — each named
    file of the scenario's ``content/`` folder, loaded, by its stem — and, if ``prepare`` is set,
    whatever ``prepare(content)`` returns (e.g. a board's SVG geometry), as ``data``."""

    key: str
    title: Any
    template: str
    content: tuple[str, ...]
    prepare: Callable[[dict], dict] | None = None


@dataclass(frozen=True)
class Objective:
    """What a student can do after the lesson; every item of the bank tests one."""

    key: str
    text: Any


@dataclass(frozen=True)
class CheckItem:
    """One question of a form, with one right answer among its choices, tied to a graded fact.

    ``choices`` is the teacher's order (the right one at ``answer``); students see them shuffled.
    Items with the same ``pair`` on forms A and B are parallel: same objective, same fact, other
    words and situation, so the after-check asks about what was learned, not what was seen."""

    key: str
    form: str  #: "A" or "B"
    pair: str  #: the parallel item on the other form has the same pair
    objective: str  #: an ``Objective.key`` of the bank
    fact: str  #: the fact (key) the right answer rests on
    question: Any
    choices: tuple  #: 3 or 4 short answers, in the teacher's order
    answer: int  #: index of the right one in ``choices``
    kind: str = "decision"  #: one of KINDS
    age_band: str = "10+"


@dataclass(frozen=True)
class Ask:
    """An item as its author writes it: the right answer and the beliefs a student might hold
    instead. :func:`form` places the right answer so that each position is keyed equally often."""

    pair: str
    objective: str
    fact: str
    question: Any
    right: Any
    wrong: tuple
    kind: str = "decision"
    age_band: str = "10+"


def form(name: str, *asks: Ask) -> tuple[CheckItem, ...]:
    """A form's items, the right answer of the n-th item at position n mod its number of
    choices (the teacher's order; students see a balanced shuffle of it)."""
    items = []
    for index, ask in enumerate(asks):
        count = 1 + len(ask.wrong)
        at = index % count
        choices = list(ask.wrong)
        choices.insert(at, ask.right)
        items.append(
            CheckItem(
                key=f"{ask.pair}-{name.lower()}",
                form=name,
                pair=ask.pair,
                objective=ask.objective,
                fact=ask.fact,
                question=ask.question,
                choices=tuple(choices),
                answer=at,
                kind=ask.kind,
                age_band=ask.age_band,
            )
        )
    return tuple(items)


@dataclass(frozen=True)
class CheckBank:
    """A scenario's knowledge check: 2-4 objectives and two parallel forms of items."""

    objectives: tuple[Objective, ...]
    items: tuple[CheckItem, ...]

    def of_form(self, name: str) -> tuple[CheckItem, ...]:
        return tuple(i for i in self.items if i.form == name)

    def item(self, key: str) -> CheckItem | None:
        return next((i for i in self.items if i.key == key), None)

    def objective(self, key: str) -> Objective | None:
        return next((o for o in self.objectives if o.key == key), None)


#: a scenario without a ``check.py`` has no knowledge check
NO_CHECK = CheckBank(objectives=(), items=())


@dataclass(frozen=True)
class PlanLine:
    """One line of the family plan, filled from a column of the student's ``decisions`` row:
    ``values[str(row[column])]`` if the value is listed, else ``otherwise``; before the student
    has played (no row), ``unplayed`` (default: ``otherwise``)."""

    key: str
    label: Any
    column: str
    values: dict
    otherwise: Any
    unplayed: Any = None


@dataclass(frozen=True)
class Kit:
    guide: Guide
    printables: tuple[Printable, ...]
    plan: tuple[PlanLine, ...]
    #: facts (keys) the family plan cites on every copy (e.g. water per person per day)
    plan_facts: tuple[str, ...] = field(default=())
    #: what the family plan prepares for (one of HAZARDS): which alerts and advice it carries
    hazard: str = "hurricane"


@dataclass(frozen=True)
class HowToPlay:
    """A scenario's one-minute "how to play" card, for a 10-year-old: what the game is about, a
    few steps in the order a student meets them on the tablet, and how it ends. Shown on the
    tablet (a link beside the game) and printable, in the reader's language."""

    goal: Any
    steps: tuple
    end: Any
