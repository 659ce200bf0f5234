from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClassroomConfig(AppConfig):
    name = "classroom"
    verbose_name = _("Classroom")

    def ready(self):
        from django.utils import translation

        from classroom import accounts  # connects the sign-out signal as it loads
        from scenarios import words

        accounts.connect_signals()

        # sentences from the scenarios' pure analyses come out in the reader's language
        words.install(translation.gettext, translation.ngettext, translation.get_language)
