from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring and debriefs")

    def ready(self):
        # Imported here, where the app registry is ready: classroom announces, scoring listens.
        from classroom import signals
        from scoring import jobs

        signals.session_ended.connect(jobs.debrief_when_ended, dispatch_uid="scoring.debrief_when_ended")
        signals.serving.connect(jobs.resume_when_serving, dispatch_uid="scoring.resume_when_serving")
