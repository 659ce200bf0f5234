"""What Stormwise keeps of a learning management system: the platforms, their deployments and the
tool's own keys are django-lti's (``lti_tool``: registered in the admin); here, only what links
them to lessons. Of a person the platform sends nothing is kept but its opaque user id (``sub``),
per deployment: never a name, an e-mail address or a picture."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class LtiTeacher(models.Model):
    """The teacher account an instructor of a deployment launches into, found by the platform's
    user id, never by e-mail."""

    deployment = models.ForeignKey("lti_tool.LtiDeployment", on_delete=models.CASCADE, related_name="+")
    sub = models.CharField(max_length=255)
    teacher = models.OneToOneField("classroom.Teacher", on_delete=models.CASCADE, related_name="lti_account")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["deployment", "sub"], name="lti_teacher_once")]

    def __str__(self):
        return f"{self.deployment_id}:{self.sub}"


class LtiLesson(models.Model):
    """A session an instructor placed in a course by deep linking, and what goes back to the
    course's gradebook when it ends."""

    class Passback(models.TextChoices):
        NONE = "none", _("Nothing")
        COMPLETION = "completion", _("Completion: whether each student played to the end")
        AFTER_CHECK = "after_check", _("The after-check score (completion until it is answered)")

    session = models.OneToOneField("classroom.Session", on_delete=models.CASCADE, related_name="lti_lesson")
    deployment = models.ForeignKey("lti_tool.LtiDeployment", on_delete=models.CASCADE, related_name="+")
    passback = models.CharField(
        _("send to the gradebook"), max_length=12, choices=Passback.choices, default=Passback.COMPLETION
    )
    #: the platform's line item for this link (from a launch's grade claim) and where line items live
    lineitem_url = models.URLField(max_length=500, blank=True)
    lineitems_url = models.URLField(max_length=500, blank=True)
    #: the scopes the platform granted in the grade claim of the last launch
    ags_scopes = models.JSONField(default=list, blank=True)
    #: where the platform lists the course's members (Names and Role Provisioning Services), from
    #: the last launch that carried it: the list is fetched when the teacher asks, never kept
    memberships_url = models.URLField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"session {self.session_id}"


class LtiStudent(models.Model):
    """A learner who launched a lesson: the platform's opaque user id, and the seat they took."""

    lesson = models.ForeignKey(LtiLesson, on_delete=models.CASCADE, related_name="students")
    sub = models.CharField(max_length=255)
    participant = models.OneToOneField("classroom.Participant", on_delete=models.CASCADE, related_name="lti_student")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["lesson", "sub"], name="lti_student_once")]

    def __str__(self):
        return f"{self.lesson_id}:{self.sub}"


class ScorePost(models.Model):
    """One score to send to the platform's gradebook. Written before it is sent and kept after,
    so a score the platform did not take is retried and shown to the teacher, never lost."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting to be sent")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Not taken by the platform")

    student = models.ForeignKey(LtiStudent, on_delete=models.CASCADE, related_name="score_posts")
    kind = models.CharField(max_length=12)
    score_given = models.FloatField()
    score_maximum = models.FloatField()
    #: the grade is final (FullyGraded) or waits for more (Pending: the after-check to come)
    final = models.BooleanField(default=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["student", "kind"]
        constraints = [models.UniqueConstraint(fields=["student", "kind"], name="score_post_once")]

    def __str__(self):
        return f"{self.student} {self.kind} {self.status}"
