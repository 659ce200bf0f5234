"""The lesson kit's contract: what a scenario's ``kit.py`` exports as ``KIT``.

A kit is data: the teacher's lesson guide, which content files feed which printable (and the
template that prints them), the knowledge-check items (each tied to a graded fact of
``scoring/outcomes/facts.json`` and to a decision of the game), and how the scenario's debrief
``decisions`` rows fill a student's take-home family plan. The ``lessons`` app reads it through
the registry (``registry.get(key).kit``) and never names a scenario.

Every string a person reads is a lazy translation (``gettext_lazy``) in the scenario's ``kit.py``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

#: the knowledge check's topics, as the issue lists them (an item names one)
TOPICS = ("leave_time", "destination", "supplies", "forecast", "safe_place", "storm", "fortify")


@dataclass(frozen=True)
class Step:
    """One step of a 45-minute period: how long it takes, what happens, what the teacher says."""

    minutes: int
    title: Any
    say: Any


#: the phases of a scripted debrief, in order (reactions first, the real world last)
DEBRIEF_PHASES = ("reactions", "what_happened", "why", "differently", "real_world")

#: the hazards a family plan can be about: which alerts, advice and after-storm lines it carries
HAZARDS = ("hurricane", "tornado")


@dataclass(frozen=True)
class DebriefPhase:
    """One phase of the scripted debrief: what the teacher says or asks, and which part of the
    class debrief page to put on the projector while they do (``shows``, a short phrase)."""

    phase: str                        #: one of DEBRIEF_PHASES
    say: Any
    shows: Any = ""


@dataclass(frozen=True)
class Guide:
    """The lesson guide: a page and a PDF for the teacher. The platform adds what every lesson
    shares (preparing devices and codes, differentiation, what to do when something goes wrong);
    a guide adds its own lines to each."""

    objectives: tuple                 #: what students can do afterwards
    standards: tuple                  #: (code, what it asks, how this lesson meets it)
    steps: tuple[Step, ...]           #: join, play, debrief, check: about 45 minutes in all
    questions: tuple                  #: the discussion questions the debrief raises
    fallback: tuple                   #: running the lesson with no devices (printables on tables)
    vocabulary: tuple = ()            #: keys of ``lessons.glossary`` terms students meet
    debrief: tuple = ()               #: a ``DebriefPhase`` for each of DEBRIEF_PHASES, in order
    preparation: tuple = ()           #: this game's own lines for the preparation checklist
    differentiation: tuple = ()       #: this game's own ways to reach every student
    troubles: tuple = ()              #: this game's own "when something goes wrong" lines


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
class CheckItem:
    """A short question with one right answer among its choices, tied to a graded fact."""

    key: str
    topic: str                        #: one of TOPICS
    question: Any
    choices: tuple                    #: 3 or 4 short answers
    answer: int                       #: index of the right one in ``choices``
    fact: str                         #: the fact (key) the right answer rests on
    age_band: str = "10+"


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
    check: tuple[CheckItem, ...]
    plan: tuple[PlanLine, ...]
    #: facts (keys) the family plan cites on every copy (e.g. water per person per day)
    plan_facts: tuple[str, ...] = field(default=())
    #: what the family plan prepares for (one of HAZARDS): which alerts and advice it carries
    hazard: str = "hurricane"
