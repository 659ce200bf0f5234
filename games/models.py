from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.Model):
    """One table's game: the engine's state, its version, and who (human or bot) plays each seat.

    ``state`` changes only through ``games.pipeline`` (both drivers save a move only if the row
    still has the version and ``updated_at`` it was worked out from; nothing locks it); every
    change appends a ``Move``, so the log replays to the state.
    """

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        PAUSED = "paused", _("Paused")
        FINISHED = "finished", _("Finished")

    scenario = models.CharField(max_length=40)
    engine_version = models.CharField(max_length=20)
    content_hash = models.CharField(max_length=32)
    schema_version = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    seats = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    #: seat number (as a string) -> bot policy name, for every seat a bot plays now.
    bots = models.JSONField(default=dict, blank=True)
    #: seat (as a string) -> [version when that seat's view last changed for it, fingerprint,
    #: version its view was built at, played, the stand-in's moves, moves] (``games.step.refresh_marks``).
    seat_marks = models.JSONField(default=dict, blank=True)
    #: seat (as a string) -> ISO time at which the deadline loop acts for that seat.
    timers = models.JSONField(default=dict, blank=True)
    #: the earliest of ``timers``: what the deadline loop scans for.
    next_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    #: seconds a human seat may stay idle before its bot plays one move for it; None = no timer.
    turn_seconds = models.PositiveIntegerField(null=True, blank=True)
    bot_step_seconds = models.FloatField(default=1.0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self):
        return f"{self.scenario} game {self.pk}"

    def stand_in_count(self, seat: int) -> tuple[int, int]:
        """The moves the stand-in made for ``seat`` and all the seat's moves (none for marks
        saved before they were counted)."""
        return stand_in_count(self.seat_marks.get(str(seat)))


def stand_in_count(mark) -> tuple[int, int]:
    """A seat mark's (moves the stand-in made for the seat, all the seat's moves)."""
    return (mark[4], mark[5]) if mark is not None and len(mark) > 5 else (0, 0)


class Move(models.Model):
    """One applied action, append-only. ``seq`` numbers moves in a game from 1."""

    class Actor(models.TextChoices):
        STUDENT = "student", _("Student")
        BOT = "bot", _("Bot")
        TIMER = "timer", _("Bot standing in for an idle seat")
        TEACHER = "teacher", _("Teacher")
        SYSTEM = "system", _("System")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    actor = models.CharField(max_length=10, choices=Actor.choices)
    #: unique in the game: a device's tap's under ``games.pipeline.device_action_id`` (its own
    #: 8 to 64 characters in its namespace), a server move's ``server_action_id``.
    action_id = models.CharField(max_length=96)
    action = models.JSONField()
    events = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq"),
            models.UniqueConstraint(fields=["game", "action_id"], name="move_unique_action_id"),
        ]

    def __str__(self):
        return f"move {self.seq} of game {self.game_id}"
