"""The debrief part's contract: what ``scoring`` asks each scenario's ``debrief.py`` for, and the
small pieces every debrief part uses (numbered citations, charts as data URIs).

``scoring`` reads the lesson from the database and hands a scenario a :class:`Lesson`; the
scenario answers with a template name, its context and the data stored beside the report.
``scoring`` adds ``session``, ``settings``, ``css`` and ``generated`` to every context, renders
the page, prints the PDF and stores all three.
"""

from __future__ import annotations

import base64
from typing import Callable, Protocol

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


class Debrief(Protocol):
    """What a scenario's ``debrief.py`` exports as ``DEBRIEF``."""

    #: the columns of the ``decisions`` rows in the research export, explained
    data_dictionary: dict[str, str]

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


class Citations:
    """Numbers each fact the first time a report cites it, for a reference list at the end."""

    def __init__(self):
        self.facts = []

    def cite(self, fact) -> dict:
        """The fact and its number; ``repeat`` once it has been stated in full earlier."""
        repeat = fact in self.facts
        if not repeat:
            self.facts.append(fact)
        return {"fact": fact, "n": self.facts.index(fact) + 1, "repeat": repeat}


def data_uri(svg: str) -> str:
    """An SVG chart as a data URI, so the page and the PDF carry it inline."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
