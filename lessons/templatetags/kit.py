"""``{% kit_student_links session participant %}``: the play page's links to the knowledge check
(while a check is open to this student), to the game's "how to play" card and to the family plan. The play page's script keeps
the check link in step with the lobby's live state (``lessons.knowledge.lobby_part``).

``{% after_check_controls session back %}``: the teacher's "Open the after-check" / "Close the
after-check" where they stand when play ends (the session page, the class debrief); ``back``
names the page the buttons come back to. Nothing when the check is off."""

from django import template
from django.template.loader import render_to_string

from lessons import knowledge
from scenarios import registry

register = template.Library()


@register.simple_tag
def kit_student_links(session, participant):
    phase = knowledge.offered_phase(participant)
    return render_to_string(
        "lessons/_student_links.html",
        {
            "session": session,
            "phase": phase,
            "how_to_play": registry.get(session.scenario).how_to_play is not None,
            "to_answer": bool(phase) and not knowledge.answered(participant, phase),
        },
    )


@register.simple_tag(takes_context=True)
def after_check_controls(context, session, back):
    progress = knowledge.after_progress(session)
    if progress is None:
        return ""
    return render_to_string(
        "lessons/_after_check.html",
        {"session": session, "progress": progress, "back": back},
        request=context.get("request"),
    )
