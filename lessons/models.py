"""The lesson kit's stored part: a session's knowledge check (on or off, its items as the teacher
edited them), which form each student answers first, and the students' answers before and after
play. Guides, printables and family
plans are built from the scenario's kit and the move log, and stored nowhere."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.outcomes import AGE_BANDS


class KnowledgeCheck(models.Model):
    """A session's knowledge check and its family-plan setting."""

    session = models.OneToOneField("classroom.Session", on_delete=models.CASCADE, related_name="knowledge_check")
    enabled = models.BooleanField(_("knowledge check on"), default=True)
    #: the teacher opened the after-check (when play ended); the before-check is closed from then
    after_open = models.BooleanField(default=False)
    #: the teacher closed the after-check: no more answers, and the debrief shows the questions
    after_closed = models.BooleanField(default=False)
    #: the local emergency-management office the teacher adds to every family plan
    local_office = models.CharField(_("local emergency-management office"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("knowledge check")

    def __str__(self):
        return f"knowledge check of session {self.session_id}"

    @classmethod
    def of(cls, session) -> "KnowledgeCheck":
        check, _created = cls.objects.get_or_create(session=session)
        return check


class CheckItem(models.Model):
    """One question of a session's check: from the scenario's item bank (``kit_key``) or the
    teacher's own. ``choices`` are in the teacher's order; a choice's index there is its id, the
    one an answer stores, whatever position a student saw it in."""

    session = models.ForeignKey("classroom.Session", on_delete=models.CASCADE, related_name="check_items")
    position = models.PositiveSmallIntegerField(default=0)
    #: the kit item it came from; blank for an item the teacher added
    kit_key = models.CharField(max_length=60, blank=True)
    #: the teacher changed the wording: the stored text is shown, not the kit's translations
    edited = models.BooleanField(default=False)
    used = models.BooleanField(_("asked in this session"), default=True)
    #: "A" or "B" for a bank item; blank for the teacher's own, asked on both forms
    form = models.CharField(max_length=1, blank=True)
    #: the bank's pair: the parallel item on the other form has the same one
    pair = models.CharField(max_length=60, blank=True)
    objective = models.CharField(max_length=40, blank=True)
    question = models.CharField(_("question"), max_length=300)
    choices = models.JSONField(default=list)
    answer = models.PositiveSmallIntegerField(_("right answer"))
    fact_key = models.CharField(max_length=60, blank=True)
    age_band = models.CharField(max_length=4, choices=[(b, b) for b in AGE_BANDS], default="10+")

    class Meta:
        ordering = ["session", "position", "pk"]

    def __str__(self):
        return self.question


class CheckStudent(models.Model):
    """Which form a student answers before play (the other comes after), and when they first
    opened the before-check, so answers still in their hands when the game started are taken
    (and marked late) rather than lost."""

    participant = models.OneToOneField("classroom.Participant", on_delete=models.CASCADE, related_name="check_student")
    first_form = models.CharField(max_length=1)
    before_opened_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"{self.participant_id} form {self.first_form} first"

    def form_for(self, phase: str) -> str:
        return self.first_form if phase == CheckAnswer.Phase.BEFORE else ("B" if self.first_form == "A" else "A")


class CheckAnswer(models.Model):
    """A student's answer to one item, before play or after it (before the debrief's answers). Kept only as long as the
    session (nicknames and move logs go with it after ``RETENTION_DAYS``)."""

    class Phase(models.TextChoices):
        BEFORE = "before", _("Before play")
        AFTER = "after", _("After the debrief")

    item = models.ForeignKey(CheckItem, on_delete=models.CASCADE, related_name="answers")
    participant = models.ForeignKey("classroom.Participant", on_delete=models.CASCADE, related_name="check_answers")
    phase = models.CharField(max_length=6, choices=Phase.choices)
    #: the choice's id: its index in the item's (teacher's) order, not where the student saw it
    choice = models.PositiveSmallIntegerField()
    correct = models.BooleanField()
    form = models.CharField(max_length=1, blank=True)
    #: the choice ids in the order this student was shown them
    shown = models.JSONField(default=list)
    #: a before-answer sent after the student's game had started: kept, but left out of the gain
    late = models.BooleanField(default=False)
    answered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["item", "participant", "phase"], name="check_answer_once")]

    def __str__(self):
        return f"{self.participant_id} {self.phase} {self.item_id}"
