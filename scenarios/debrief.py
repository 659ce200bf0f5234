"""The debrief part's contract: what ``scoring`` asks each scenario's ``debrief.py`` for, and the
small pieces every debrief part uses (numbered citations, charts as data URIs).

``scoring`` reads the lesson from the database and hands a scenario a :class:`Lesson`; the
scenario answers with a template name, its context and the data stored beside the report.
``scoring`` adds ``session``, ``settings``, ``css`` and ``generated`` to every context, renders
the page, prints the PDF and stores all three.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Protocol

Progress = Callable[[int, str], None]


class Lesson(Protocol):
    """One finished (or ended) session as a debrief part sees it; ``scoring`` builds it."""

    session: object  #: for templates (title, start time); nothing else is read from it
    settings: object  #: the teacher's debrief settings (intensity, age band)
    tables: list[dict]  #: per table: table, game, state, seed, options, status, moves, holders

    def facts(self, audience: str = "student") -> list:
        """The knowledge-base facts the session may show ``audience`` ("student" or "teacher")."""

    def policy_results(self, table: dict) -> list[dict]:
        """The scenario's policy bot playing every seat of the table's setup (the same storm)."""

    def report_data(self) -> tuple[list[dict], int]:
        """The data stored with each student or team report written so far (what ``report``
        returned third), and how many such reports the session has in all."""


class Debrief(Protocol):
    """What a scenario's ``debrief.py`` exports as ``DEBRIEF``."""

    #: the columns of the ``decisions`` rows in the research export, explained
    data_dictionary: dict[str, str]
    #: what the game's winning strategy teaches, one or two sentences marked with ``gettext_noop``
    #: (RULES.md, "Balance"): the class debrief shows it in the class's language
    teaches: str

    def page(self, lesson: Lesson, audience: str) -> tuple[str, dict]:
        """The projector page, built in the request from the move log: template and context."""

    def report(self, lesson: Lesson, table: dict, seat: int, name: str, progress: Progress) -> tuple[str, dict, dict]:
        """One seat's report (or, for a team game, the team's, hung on the table's first student
        seat): template, context and the data stored with it."""

    def packet(self, lesson: Lesson, progress: Progress) -> tuple[str, dict, dict]:
        """The printable class packet: template, context and data."""

    def decisions(self, lesson: Lesson, seat_ids: dict, named: bool) -> list[dict]:
        """The research export's decision rows; ``seat_ids[(table, seat)]`` is a seat's id, and
        nicknames appear only when ``named``."""

    def early(self, lesson: Lesson, table: dict, seat: int) -> dict:
        """For a student whose own game (or seat) is over while the lesson still plays, from the
        table as it stands (``early_finish`` gives its shape): the seat's own what-if replay as
        short comparisons, the table's discussion questions, and the facts they rest on (only
        those ``lesson.facts("student")`` gives)."""


#: A seat whose stand-in (the policy bot playing for an idle student, actor ``timer``) made more
#: than this share of its moves was played by the stand-in: its points are not the student's.
#: A share, not a count: one timed-out turn of a game whose turns take several moves (a
#: team game's turn) is one lapse, not a game handed over; a whole game left to the stand-in is.
STAND_IN_SHARE = 1 / 3


def played_by_stand_in(stand_in_moves: int, moves: int) -> bool:
    """Whether a seat with ``moves`` moves, ``stand_in_moves`` of them the stand-in's, was
    played by the stand-in rather than by its student."""
    return moves > 0 and stand_in_moves > STAND_IN_SHARE * moves


def stand_in_seats(moves: list[dict]) -> set[int]:
    """The seats of a table's move log (rows with ``seat`` and ``actor``) played by the stand-in."""
    counts: dict[int, list[int]] = {}
    for move in moves:
        if move["seat"] is None:
            continue
        count = counts.setdefault(move["seat"], [0, 0])
        count[0] += move["actor"] == "timer"
        count[1] += 1
    return {seat for seat, (stood_in, total) in counts.items() if played_by_stand_in(stood_in, total)}


#: How many resampled futures a what-if for an early finisher plays: the tablet waits for it.
EARLY_FUTURES = 20


def early_finish(whatif: list, questions: list, facts: list) -> dict:
    """An early finisher's panel as a debrief part's ``early`` returns it: ``whatif``, sentences
    comparing what the seat did with the same game played otherwise; ``questions``, the table's
    discussion questions (sentences, or dicts with a ``text``); ``facts``, knowledge-base rows,
    each shown with its source and grade."""
    return {
        "whatif": [str(sentence) for sentence in whatif if sentence],
        "questions": [str(q["text"] if isinstance(q, dict) else q) for q in questions if q],
        "facts": list(dict.fromkeys(facts)),
    }


class Citations:
    """Numbers each fact the first time a report cites it, for a reference list at the end."""

    def __init__(self, by_source: bool = False):
        #: the reference list: each fact once; ``by_source``: each source (organisation, title and
        #: address) once, listed by the first fact cited from it
        self.facts = []
        self.by_source = by_source
        self.stated = []

    @staticmethod
    def _source(fact):
        return (fact.source, fact.title, fact.url)

    def cite(self, fact) -> dict:
        """The fact and its number; ``repeat`` once it has been stated in full earlier."""
        repeat = fact in self.stated
        if not repeat:
            self.stated.append(fact)
        if self.by_source:
            sources = [self._source(f) for f in self.facts]
            if self._source(fact) not in sources:
                self.facts.append(fact)
                sources.append(self._source(fact))
            return {"fact": fact, "n": sources.index(self._source(fact)) + 1, "repeat": repeat}
        if not repeat:
            self.facts.append(fact)
        return {"fact": fact, "n": self.facts.index(fact) + 1, "repeat": repeat}


def data_uri(svg: str) -> str:
    """An SVG chart as a data URI, so the page and the PDF carry it inline."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
