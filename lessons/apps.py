from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LessonsConfig(AppConfig):
    name = "lessons"
    verbose_name = _("Lesson kits")

    def ready(self):
        from lessons import panels

        panels.register()
