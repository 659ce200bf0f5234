from django.apps import AppConfig
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class LessonsConfig(AppConfig):
    name = "lessons"
    verbose_name = _("Lesson kits")

    def ready(self):
        from classroom import lobby
        from classroom.models import Session
        from lessons import knowledge, panels

        panels.register()
        lobby.register(knowledge.lobby_part)
        post_save.connect(knowledge.on_session_created, sender=Session, dispatch_uid="lessons-check-on-by-default")
