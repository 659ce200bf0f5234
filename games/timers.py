"""More time: a student's turn timer pushed back when they ask (WCAG 2.2.1, timing adjustable).

The tablet warns ``WARN_SECONDS`` before a seat's turn timer runs out and a bot plays for the
student; "More time" then gives the seat a fresh turn from now. Generic: it touches only the
game row's deadlines, for any scenario, and saves them as a teacher's pause does
(``games.services.change_running``: nothing locks the row; a change that raced a move is worked
out again from the new row).

Why it cannot be turned against the class: only a seat held by a person (not a bot) and only
inside the warning window may ask, and each fresh turn runs at least ``MIN_EXTRA_SECONDS``, so
a seat can ask at most once every ``MIN_EXTRA_SECONDS - WARN_SECONDS`` seconds, and each ask is
one small row update and one broadcast to its own table. The teacher can still hand the seat to
a bot from the dashboard.
"""

from datetime import datetime

from django.utils import timezone

from games import clock, services
from games.models import Game

#: How long before the bot plays the tablet warns, and from when "More time" is accepted.
WARN_SECONDS = 20
#: The least a fresh turn runs: longer than the warning, so asking again waits.
MIN_EXTRA_SECONDS = 45


def more_time(*, game_id: int, seat: int) -> bool:
    """Give ``seat`` a fresh turn timer (its game's turn length, at least MIN_EXTRA_SECONDS)
    if its timer is running for a person and runs out within WARN_SECONDS. Returns whether it
    did; anything else changes nothing."""
    key = str(seat)

    def fresh_turn(game):
        if game.status != Game.Status.PLAYING or key in game.bots or key not in game.timers or not game.turn_seconds:
            return False
        now = timezone.now()
        if datetime.fromisoformat(game.timers[key]) - now > clock.span(WARN_SECONDS):
            return False
        fresh = clock.later(now, max(game.turn_seconds, MIN_EXTRA_SECONDS))
        game.timers = {**game.timers, key: fresh.isoformat()}
        game.next_deadline = min(datetime.fromisoformat(t) for t in game.timers.values())

    game = services.change_running(game_id, fresh_turn, rescheduled=False)
    return game is not None and game.status == Game.Status.PLAYING
