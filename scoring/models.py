"""After the lesson: the real-outcomes knowledge base, each session's debrief settings, and the
reports the Celery jobs write (one row per report, replaced in place by a rerun)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from scenarios.audience import AGE_BANDS, Audience


class FactQuerySet(models.QuerySet):
    def shown(self, *, scenario: str, reader: Audience, also=()):
        """The facts a page may show ``reader`` (``scenarios.audience.Audience``): those tagged
        with the scenario, or named in ``also``, that the reader may see — for students only
        verified facts with a working source, no death tolls when Gentle, at their age band."""
        return [f for f in self if (scenario in f.scenarios or f.key in also) and reader.allows(f)]


class Fact(models.Model):
    """One real-world outcome with its number and source, and the game decisions it speaks to."""

    class Confidence(models.TextChoices):
        OFFICIAL = "O", _("Checked against an official or peer-reviewed source")
        SECONDARY = "S", _("Secondary report of official data")
        UNCERTAIN = "U", _("Not re-verified")

    key = models.SlugField(max_length=60, unique=True)
    statement = models.TextField()
    number = models.CharField(max_length=200)
    #: figures the debrief compares with the class (e.g. destination shares), keyed by name
    values = models.JSONField(default=dict, blank=True)
    source = models.CharField(_("organisation or authors"), max_length=200)
    title = models.CharField(max_length=300)
    year = models.PositiveSmallIntegerField()
    url = models.URLField(max_length=300, blank=True)
    decisions = models.JSONField(default=list)
    scenarios = models.JSONField(default=list)
    confidence = models.CharField(max_length=1, choices=Confidence.choices)
    verified = models.BooleanField(default=False)
    age_band = models.CharField(max_length=4, choices=[(b, b) for b in AGE_BANDS], default="10+")
    deaths = models.BooleanField(_("mentions deaths"), default=False)

    objects = FactQuerySet.as_manager()

    class Meta:
        ordering = ["key"]

    def __str__(self):
        return self.key

    @property
    def citation(self) -> str:
        return f"{self.source} ({self.year}). {self.title}."


class DebriefSettings(models.Model):
    """The teacher's research choice for one session's debrief (kept here so classroom stays
    unaware). What students may see (intensity, age band) is the session's own, chosen on the
    new-session form; it is read here for the reports' templates."""

    session = models.OneToOneField("classroom.Session", on_delete=models.CASCADE, related_name="debrief_settings")
    #: the teacher shares this session for research: exports then include nicknames
    research_opt_in = models.BooleanField(_("share nicknames in research exports"), default=False)

    def __str__(self):
        return f"debrief settings of session {self.session_id}"

    @classmethod
    def of(cls, session) -> "DebriefSettings":
        settings, _created = cls.objects.get_or_create(session=session)
        return settings

    @property
    def intensity(self) -> str:
        return self.session.intensity

    @property
    def age_band(self) -> str:
        return self.session.age_band

    def get_intensity_display(self):
        return self.session.get_intensity_display()


class Report(models.Model):
    """One debrief report (a student's seat, or the class packet) and the state of its job.

    A rerun updates this row in place: the finished page and PDF are written in one UPDATE at the
    end, so a worker killed mid-job leaves the previous report (or none), never a half one.
    """

    class Kind(models.TextChoices):
        STUDENT = "student", _("Student report")
        TEAM = "team", _("Team report")
        CLASS = "class", _("Class packet")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    session = models.ForeignKey("classroom.Session", on_delete=models.CASCADE, related_name="reports")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    seat = models.ForeignKey("classroom.Seat", null=True, blank=True, on_delete=models.CASCADE, related_name="reports")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)
    step = models.CharField(max_length=120, blank=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    html = models.TextField(blank=True)
    pdf = models.BinaryField(blank=True, default=b"")
    data = models.JSONField(default=dict, blank=True)
    queued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "kind", "seat__table__number", "seat__number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "kind", "seat"], name="report_unique_seat"),
            models.UniqueConstraint(
                fields=["session", "kind"], condition=models.Q(seat__isnull=True), name="report_unique_class"
            ),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} {self.pk} of session {self.session_id}"

    @property
    def ready(self) -> bool:
        return bool(self.html)


class ClassPrint(models.Model):
    """One of a session's class PDFs, printed when the teacher asks for it: every student's
    summary, every full report, or every family plan, each student's part in that student's
    language (docs/decisions/0015-pdfs-when-asked.md). ``source`` names what it was printed
    from; a PDF whose source has changed since (reports written again, another region) is
    printed again at the next ask."""

    class Kind(models.TextChoices):
        SUMMARIES = "summaries", _("Every student's summary")
        REPORTS = "reports", _("Every student's full report")
        PLANS = "plans", _("Every student's family plan")

    session = models.ForeignKey("classroom.Session", on_delete=models.CASCADE, related_name="class_prints")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    source = models.CharField(max_length=64)
    pdf = models.BinaryField(default=b"")
    printed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "kind"], name="class_print_unique_kind")]

    def __str__(self):
        return f"{self.kind} of session {self.session_id}"
