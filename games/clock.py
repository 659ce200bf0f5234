"""The lesson's clock: every wait the server counts in a lesson's time (a turn timer, a bot's
step, a storm's class timer, a race window) becomes a deadline through ``later``.

``settings.LESSON_CLOCK_SPEED`` is 1 on a served install. A test of a whole lesson at a child's
pace (tests/browser/test_human_pace.py) sets it higher, so that every clock of the lesson runs
that many times faster together (five: a 25-minute lesson is played out in five).
"""

from datetime import datetime, timedelta

from django.conf import settings


def span(seconds: float) -> timedelta:
    """``seconds`` of the lesson's time, as the server waits them."""
    return timedelta(seconds=seconds / settings.LESSON_CLOCK_SPEED)


def later(now: datetime, seconds: float) -> datetime:
    """The moment ``seconds`` of the lesson's time after ``now``."""
    return now + span(seconds)
