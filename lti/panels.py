"""The gradebook's panel on the class debrief (``scoring.panels``): for a lesson launched from a
course, what went back to the course's gradebook, and a way to what the course did not take."""

from collections import Counter

from django.template.loader import render_to_string

from lti.models import LtiLesson, ScorePost
from scoring import panels


def debrief(*, session, **_):
    lesson = LtiLesson.objects.filter(session=session).first()
    if lesson is None or lesson.passback == LtiLesson.Passback.NONE:
        return ""
    counts = Counter(ScorePost.objects.filter(student__lesson=lesson).values_list("status", flat=True))
    return render_to_string(
        "lti/_gradebook_panel.html",
        {
            "session": session,
            "sent": counts[ScorePost.Status.SENT],
            "waiting": counts[ScorePost.Status.PENDING],
            "failed": counts[ScorePost.Status.FAILED],
        },
    )


def register():
    panels.register("debrief", debrief)
