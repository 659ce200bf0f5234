from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LtiConfig(AppConfig):
    name = "lti"
    verbose_name = _("Learning management systems (LTI)")

    def ready(self):
        # Imported here, where the app registry is ready: classroom announces, lti listens.
        from classroom import signals
        from lessons import signals as check
        from lti import jobs, panels

        signals.session_ended.connect(jobs.pass_back_when_ended, dispatch_uid="lti.pass_back_when_ended")
        signals.serving.connect(jobs.resume_when_serving, dispatch_uid="lti.resume_when_serving")
        check.check_answered.connect(jobs.score_after_check, dispatch_uid="lti.score_after_check")
        panels.register()
