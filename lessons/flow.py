"""The lesson as the app runs it: the controls a teacher or a student uses, each named as its page
names it and said where it is. A guide's steps list the controls they use (``Step.does``, keys
of ``CONTROLS``, in the order of the lesson); the guide prints each under its step, and a browser
test (``tests/browser/test_guides_walked.py``) walks every guide's steps by these controls against
the running app, so a control the app renames or moves fails the test before the guide misleads a
teacher."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

#: the pages a control is on, and what finds it there ("role": an ARIA role, "name": its name)
TEACHER, STUDENT = "teacher", "student"


@dataclass(frozen=True)
class Control:
    key: str
    who: str  #: TEACHER (the session page and the pages it links to) or STUDENT (the tablet)
    role: str  #: "button" or "link"
    label: Any  #: the words on the control, as the page shows them
    how: Any  #: the guide's line: where it is and when to use it, with %(label)s
    #: the control's name ends with ": <nickname>" (one per student, such as "Approve: Ana")
    per_student: bool = False

    def line(self) -> str:
        return str(self.how) % {"label": self.label}


CONTROLS = {
    c.key: c
    for c in (
        Control(
            "approve",
            TEACHER,
            "button",
            _("Approve"),
            _(
                "On the session page, press “%(label)s” beside each nickname as it comes in: a tablet offers "
                "the before-check only once its nickname is approved."
            ),
            per_student=True,
        ),
        Control(
            "before_check",
            STUDENT,
            "link",
            _("Questions before we play"),
            _("On each tablet, students tap “%(label)s”, answer, and go back to the game."),
        ),
        Control(
            "start",
            TEACHER,
            "button",
            _("Start the game"),
            _("On the session page, press “%(label)s” once the class has answered."),
        ),
        Control(
            "finish",
            TEACHER,
            "button",
            _("Finish with bots"),
            _("When the time is up, press “%(label)s” on the session page: bots play every game to its end at once."),
        ),
        Control(
            "end_now",
            TEACHER,
            "button",
            _("End now"),
            _(
                "When the time is up, press “%(label)s” on the session page: the round in progress is scored as it stands."
            ),
        ),
        Control(
            "open_after",
            TEACHER,
            "button",
            _("Open the after-check"),
            _("On the session page, under “The after-check”, press “%(label)s”."),
        ),
        Control(
            "after_check",
            STUDENT,
            "link",
            _("Questions after the game"),
            _(
                "On each tablet, students tap “%(label)s”: the other set of questions, on the same ideas, "
                "not the same questions again."
            ),
        ),
        Control(
            "close_after",
            TEACHER,
            "button",
            _("Close the after-check"),
            _("Once the class has answered, press “%(label)s” (on the session page or the class debrief)."),
        ),
        Control(
            "debrief",
            TEACHER,
            "link",
            _("Class debrief"),
            _("On the session page, press “%(label)s” and put that page on the projector."),
        ),
        Control(
            "plan",
            STUDENT,
            "link",
            _("My family plan"),
            _(
                "On each tablet, students tap “%(label)s”: it starts from their game; they print it or take the link home."
            ),
        ),
    )
}


def controls(keys) -> list[dict]:
    """The guide's lines for a step's controls, in order."""
    return [{"key": key, "line": CONTROLS[key].line()} for key in keys]
