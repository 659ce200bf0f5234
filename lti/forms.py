from django import forms
from django.utils.translation import gettext_lazy as _

from classroom.forms import JoinForm, SessionForm
from lti.models import LtiLesson


class LessonForm(SessionForm):
    """Deep linking: the new-session form, and what goes back to the course's gradebook."""

    passback = forms.ChoiceField(
        label=_("Send to the course's gradebook"),
        choices=LtiLesson.Passback.choices,
        initial=LtiLesson.Passback.COMPLETION,
        widget=forms.RadioSelect,
        help_text=_("Sent for each student when the lesson ends; you see here whether the course took it."),
    )


class NicknameForm(forms.Form):
    """A learner launched from the course picks the nickname the class will see."""

    nickname = JoinForm.base_fields["nickname"]
