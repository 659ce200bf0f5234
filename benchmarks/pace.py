"""A human pace for the scenarios' minutes-per-game figures: the lesson's play slot is 20
minutes, and a table plays at the pace of the children at it.

Every decision takes ``DECISION_SECONDS``, except that one seat per table (``HESITANT_SEAT``)
takes ``HESITANT_SECONDS`` for each of its own: the child who reads everything twice. The
figures are computed from the bots' taps and these constants, never timed.

``Clock`` follows a game move by move. Each seat's tap starts when the seat may act (the move
that let it act has been made) and when its previous tap is done, so seats deciding at the same
time overlap and seats taking turns add up; the game ends when its last move does.
"""

from __future__ import annotations

import statistics

#: seconds a child takes to read, decide and tap (the lesson budget's 8–15 s, in the middle)
DECISION_SECONDS = 12
#: the one hesitant child per table
HESITANT_SECONDS = 25
HESITANT_SEAT = 0
#: the lesson's play slot (DESIGN.md, "Time is the budget")
PLAY_MINUTES = 20

ASSUMED = (
    f"{DECISION_SECONDS} s a decision, one seat per table at {HESITANT_SECONDS} s; "
    f"the play slot is {PLAY_MINUTES} minutes"
)


def seconds_per_decision(seat: int) -> float:
    return HESITANT_SECONDS if seat == HESITANT_SEAT else DECISION_SECONDS


class Clock:
    """Real seconds of a game at a human pace. Call ``ready`` with the seats that may act after
    each move (and at the start), ``tap`` for each seat's decision, ``wait`` for the time the
    table spends on the system's own step (a storm read out), ``cap`` when a timer ends a phase."""

    def __init__(self, seats: int):
        self.now = 0.0
        self.since = {s: 0.0 for s in range(seats)}  # when the seat could start its next decision
        self.waiting: set[int] = set()
        self.key = None

    def ready(self, seats, key=None) -> None:
        """The seats that may act now: those that could not before start counting from now, and
        every one of them when the game's phase (``key``, any value that names it) changed."""
        seats = set(seats)
        if key != self.key:
            for seat in seats:
                self.since[seat] = self.now
        else:
            for seat in seats - self.waiting:
                self.since[seat] = max(self.since[seat], self.now)
        self.waiting, self.key = seats, key

    def tap(self, seat: int, decisions: float = 1) -> None:
        """One decision by ``seat`` (``decisions`` scales it: a read-only tap may count less)."""
        done = self.since[seat] + decisions * seconds_per_decision(seat)
        self.since[seat] = done
        self.now = max(self.now, done)

    def wait(self, seconds: float) -> None:
        self.now += seconds

    def cap(self, start: float, seconds: float) -> None:
        """A timer that ends a phase ``seconds`` after ``start``: the table moves on then, however
        far its slowest seat got."""
        self.now = min(self.now, start + seconds)

    @property
    def minutes(self) -> float:
        return self.now / 60


def fits(minutes: float) -> bool:
    return minutes <= PLAY_MINUTES


def spread(minutes) -> str:
    """A set of games' minutes as the figures print them: the median, nine games in ten, the longest."""
    ordered = sorted(minutes)
    return (
        f"{statistics.median(ordered):.1f} min (median; nine games in ten within {ordered[int(0.9 * len(ordered))]:.1f}, "
        f"the longest {ordered[-1]:.1f})"
    )
