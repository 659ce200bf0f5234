"""``{% course_roster_panel session %}``: on the teacher's session page of a lesson launched from a
course whose platform lists its members, the way to see who from the course has not joined yet
(fetched when the teacher asks: ``lti.views.roster``). Nothing for any other session."""

from django import template
from django.template.loader import render_to_string

from lti.models import LtiLesson

register = template.Library()


@register.simple_tag
def course_roster_panel(session):
    lesson = LtiLesson.objects.filter(session=session).exclude(memberships_url="").first()
    if lesson is None:
        return ""
    return render_to_string("lti/_roster_panel.html", {"session": session})
