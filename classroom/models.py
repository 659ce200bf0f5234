import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.db import models
from django.db.models.signals import post_delete
from django.dispatch import Signal, receiver
from django.utils.translation import gettext_lazy as _

from classroom import regions
from scenarios import registry
from scenarios.audience import AGE_BANDS, FRANK, GENTLE, Audience

#: the age bands a teacher chooses from ("10+": the youngest students are ten)
AGE_BAND_CHOICES = [(band, band) for band in AGE_BANDS]
# A device on long-poll that has not been heard from for this long is shown offline.
OFFLINE_AFTER_SECONDS = 30


class TeacherManager(BaseUserManager):
    use_in_migrations = True

    def create_user(self, email, password=None, **extra):
        if not email:
            raise ValueError("A teacher needs an e-mail address.")
        teacher = self.model(email=self.normalize_email(email).lower(), **extra)
        teacher.set_password(password)
        teacher.save(using=self._db)
        return teacher

    def create_superuser(self, email, password=None, **extra):
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        return self.create_user(email, password, **extra)


#: Sent when a saved teacher's password changed (``teacher_id``).
password_changed_signal = Signal()


class Teacher(AbstractUser):
    """A teacher's account. Students never have accounts."""

    username = None
    email = models.EmailField(_("e-mail address"), unique=True)
    #: The password's hash as it was when found to be none of the passwords published with
    #: Stormwise (``classroom.accounts.uses_published_password``): while the two are equal, a
    #: server start need not hash every published password again to know.
    password_vetted = models.CharField(max_length=128, blank=True, default="", editable=False)

    objects = TeacherManager()

    USERNAME_FIELD = "email"
    REQUIRED_FIELDS = []

    class Meta:
        verbose_name = _("teacher")
        verbose_name_plural = _("teachers")

    def __str__(self):
        return self.email

    def set_password(self, raw_password):
        super().set_password(raw_password)
        # Here the password is known in the clear, so a look-up tells whether it was published.
        self.password_vetted = "" if raw_password in settings.PUBLISHED_PASSWORDS else self.password

    def save(self, *args, **kwargs):
        password_changed = self.pk is not None and self._password is not None
        super().save(*args, **kwargs)
        if password_changed:
            # A changed password signs out the teacher's other browsers (Django's session hash);
            # ``classroom.accounts`` closes their open dashboards too, in every process.
            password_changed_signal.send(sender=Teacher, teacher_id=self.pk)


class Session(models.Model):
    """One lesson run: a teacher, a scenario, a join code, and the tables that play it."""

    class Status(models.TextChoices):
        LOBBY = "lobby", _("Students joining")
        PLAYING = "playing", _("Playing")
        PAUSED = "paused", _("Paused")
        PARKED = "parked", _("Parked until next lesson")
        ENDED = "ended", _("Ended")

    class Intensity(models.TextChoices):
        GENTLE = GENTLE, _("Gentle: no death tolls")
        FRANK = FRANK, _("Frank: death tolls shown where a fact has them")

    class Names(models.TextChoices):
        APPROVE = "approve", _("Students type a nickname; I approve it")
        AUTO = "auto", _("Students type a nickname; shown at once (blocked words are still refused)")
        GENERATED = "generated", _("Generated nicknames (adjective + animal)")

    teacher = models.ForeignKey(Teacher, on_delete=models.CASCADE, related_name="sessions")
    title = models.CharField(_("title"), max_length=80, blank=True)
    scenario = models.CharField(_("scenario"), max_length=40, choices=registry.choices, default=registry.default_key)
    join_code = models.CharField(max_length=6, unique=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY)
    seats_per_table = models.PositiveSmallIntegerField(_("seats per table"), default=4)
    fill_with_bots = models.BooleanField(_("fill empty seats with bots"), default=True)
    turn_timer = models.BooleanField(_("bot plays for an idle student"), default=True)
    turn_seconds = models.PositiveIntegerField(_("seconds before an idle seat is played"), default=120)
    names = models.CharField(_("names"), max_length=10, choices=Names.choices, default=Names.APPROVE)
    seed = models.BigIntegerField(_("seed"), null=True, blank=True)
    options = models.JSONField(default=dict, blank=True)
    #: when the teacher's countdown to the class step ends (e.g. "storm moves" for every table)
    storm_deadline = models.DateTimeField(null=True, blank=True)
    #: the most students (devices) that may join; the teacher can raise or lower it during the lesson
    max_participants = models.PositiveSmallIntegerField(_("most students who may join"), default=40)
    #: the teacher closed the door: nobody new joins (students already in keep playing)
    joining_locked = models.BooleanField(_("joining locked"), default=False)
    #: devices the teacher turned away (hashes of their signed ids): they cannot join again
    banned_devices = models.JSONField(default=list, blank=True)
    #: once the teacher moves a student, new arrivals no longer reshuffle the tables
    arranged_by_teacher = models.BooleanField(default=False)
    #: the teacher's language when they opened or ended the session: the class packet's
    language = models.CharField(max_length=8, default="en")
    #: what the students may see (``scenarios.audience``): chosen on the new-session form, it
    #: governs tablets, printables, reports and the family plan alike
    intensity = models.CharField(_("death tolls"), max_length=10, choices=Intensity.choices, default=Intensity.GENTLE)
    age_band = models.CharField(_("youngest students"), max_length=4, choices=AGE_BAND_CHOICES, default=AGE_BANDS[0])
    #: where the class lives: the family plan's emergency number, alerts, links, units and paper
    region = models.CharField(_("region"), max_length=20, choices=regions.choices, default=regions.DEFAULT)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")

    def __str__(self):
        return self.title or f"{self.get_scenario_display()} · {self.join_code}"

    def get_absolute_url(self):
        from django.urls import reverse

        return reverse("classroom:session", args=[self.pk])

    def get_scenario_display(self):
        return dict(registry.choices()).get(self.scenario, self.scenario)

    @property
    def preset(self):
        """The named set of rules the session plays ("" is the scenario's tuned defaults)."""
        return self.options.get("preset", "")

    def get_preset_display(self):
        """The rules played, as a teacher reads them; tuned rules the teacher changed say so."""
        if self.preset or not self.changed_options():
            return preset_label(self.preset)
        return PRESET_LABELS["changed"]

    def changed_options(self):
        """The engine options this session sets to something other than the engine's default."""
        defaults = {o["name"]: o["default"] for o in registry.get(self.scenario).options()}
        return sorted(k for k, v in self.options.items() if k in defaults and v != defaults[k])

    @property
    def audience(self) -> Audience:
        """What this session's students may see (``scenarios.audience.Audience``)."""
        return Audience.of(self.intensity, self.age_band)

    @property
    def shared_step(self):
        """The scenario's class step is on: every table waits for it, and it happens for the
        whole class at once (one storm moving for every table, for example)."""
        return self.scenario in registry.keys() and registry.get(self.scenario).shared_step(self.options)


#: How the platform names a scenario's option presets (engines hold no UI text); "" is the
#: scenario's own defaults.
PRESET_LABELS = {
    "": _("Tuned for class (default)"),
    "as_printed": _("As printed in the rule book"),
    "changed": _("Tuned for class, with options changed by the teacher"),
}


def preset_label(key):
    """The teacher-facing name of a preset key (a readable fallback for a key not listed)."""
    return PRESET_LABELS.get(key) or key.replace("_", " ").capitalize()


def new_report_secret() -> str:
    return secrets.token_urlsafe(16)


class Participant(models.Model):
    """A student in one session: a nickname and a device token, nothing else about them."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="participants")
    nickname = models.CharField(max_length=24)
    approved = models.BooleanField(default=False)
    token_hash = models.CharField(max_length=64, unique=True)
    #: a new device asking to carry on this student's seats (its token), until the teacher approves
    move_token_hash = models.CharField(max_length=64, blank=True, default="")
    #: the device that joined (a hash of its signed id), so the teacher can turn it away
    device_hash = models.CharField(max_length=64, blank=True, default="")
    #: how many seats this device plays (pass-and-play on one shared tablet)
    players = models.PositiveSmallIntegerField(default=1)
    asked_teacher_at = models.DateTimeField(null=True, blank=True)
    #: refused taps in a row; three or more shows the seat as stuck on the dashboard
    refusals = models.PositiveSmallIntegerField(default=0)
    last_seen_at = models.DateTimeField(null=True, blank=True)
    connected = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    #: in the student's report link beside the signature, so a link cannot be made from ids alone
    report_secret = models.CharField(max_length=32, default=new_report_secret, editable=False)
    #: the language this tablet chose (a code of settings.LANGUAGES): its screens and its report
    language = models.CharField(max_length=8, default="en")

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["session", "nickname"], name="participant_unique_nickname"),
        ]

    def __str__(self):
        return self.nickname

    def shown_online(self, now) -> bool:
        """Online on the teacher's dashboard: a socket open, or heard from by long-poll lately."""
        return self.connected > 0 or bool(
            self.last_seen_at and (now - self.last_seen_at).total_seconds() < OFFLINE_AFTER_SECONDS
        )


class Table(models.Model):
    """One table of a session; it plays one game once the session starts."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="table")

    class Meta:
        ordering = ["session", "number"]
        constraints = [models.UniqueConstraint(fields=["session", "number"], name="table_unique_number")]

    def __str__(self):
        return f"Table {self.number}"


@receiver(post_delete, sender=Table)
def _delete_tables_game(sender, instance, **kwargs):
    """A table's game goes with it, however the table is deleted (with its session, or with a
    teacher's account and all their sessions): no orphan game is left for bots to play on."""
    if instance.game_id:
        from games.models import Game

        game = Game.objects.filter(pk=instance.game_id)
        # The game's row first: a move saves its game's row and its own in one statement (and
        # writes nothing else), so a move in flight is stored before the move log is read for
        # deletion, and a later one finds no game. Read first, a bot's move stored between the
        # read and the game's deletion broke the move's reference, and the delete failed.
        list(game.select_for_update().values_list("pk", flat=True))
        game.delete()


class Seat(models.Model):
    """A player's place at a table: held by a participant, or by a bot when it has none."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    participant = models.ForeignKey(Participant, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats")
    #: when a bot began keeping this seat for a late arrival (the game's start, or a student taken
    #: out); None while a student holds it. A late arrival takes the seat kept longest.
    kept_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="seat_unique_number")]

    def __str__(self):
        return f"{self.table} seat {self.number + 1}"
