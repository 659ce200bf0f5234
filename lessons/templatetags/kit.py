"""``{% kit_student_links session participant %}``: the play page's links to the knowledge check
(while a check is open to this student), to the game's "how to play" card and to the family plan. The play page's script keeps
the check link in step with the lobby's live state (``lessons.knowledge.lobby_part``)."""

from django import template
from django.template.loader import render_to_string

from lessons import knowledge
from scenarios import registry

register = template.Library()


@register.simple_tag
def kit_student_links(session, participant):
    phase = knowledge.phase_for(participant)
    return render_to_string(
        "lessons/_student_links.html",
        {
            "session": session,
            "phase": phase,
            "how_to_play": registry.get(session.scenario).how_to_play is not None,
            "to_answer": bool(phase) and not knowledge.answered(participant, phase),
        },
    )
