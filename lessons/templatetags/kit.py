"""``{% kit_student_links session participant %}``: the play page's links to the knowledge check
(while a check is open to this student) and to the family plan."""
from django import template
from django.template.loader import render_to_string

from lessons import services

register = template.Library()


@register.simple_tag
def kit_student_links(session, participant):
    phase = services.phase_open(session)
    return render_to_string("lessons/_student_links.html", {
        "session": session, "phase": phase, "to_answer": bool(phase) and not services.answered(participant, phase)})
