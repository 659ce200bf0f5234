from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClassroomConfig(AppConfig):
    name = "classroom"
    verbose_name = _("Classroom")

    def ready(self):
        from django.utils import translation

        from classroom import accounts  # noqa: F401 - connects the sign-out signal
        from scenarios import words

        # sentences from the scenarios' pure analyses come out in the reader's language
        words.install(translation.gettext, translation.ngettext, translation.get_language)
