"""The "lets the bot play" row of a scenario's ``--balance`` table.

A student who puts the tablet down is played by the stand-in: the scenario's careful policy bot,
recorded as actor ``timer``. Its play is the careful play, so by points a seat left to the
stand-in does as well as a careful student; what keeps it from paying is that the standings and
the debrief mark such a seat (``scenarios.debrief.stand_in_seats``) and rank only the students
who played. This plays two students against two seats left to the stand-in, all six seatings,
and counts both: the points, and the standings as the class sees them.
"""

from __future__ import annotations

import statistics

from scenarios.base import seatings_of_two
from scenarios.debrief import stand_in_seats


def lets_the_bot_play(play_logged, seeds: int = 50) -> dict:
    """``play_logged(seed, kinds)`` plays one 4-seat game with ``kinds[seat]`` "student" or
    "stand_in" and returns (the engine's results, the move log as rows with ``seat`` and
    ``actor``)."""
    games = points_first = marked = ranked_stand_ins = students_first = 0
    scores = {"student": [], "stand_in": []}
    for seed in range(seeds):
        for kinds in seatings_of_two("student", "stand_in"):
            results, moves = play_logged(seed, kinds)
            games += 1
            stood_in = stand_in_seats(moves)
            marked += stood_in == {seat for seat, kind in enumerate(kinds) if kind == "stand_in"}
            for row in results:
                scores[kinds[row["seat"]]].append(row["score"])
            top = max(row["score"] for row in results)
            points_first += all(kinds[row["seat"]] == "stand_in" for row in results if row["score"] == top)
            ranked = [row for row in results if row["seat"] not in stood_in]
            ranked_stand_ins += sum(kinds[row["seat"]] == "stand_in" for row in ranked)
            best = max(row["score"] for row in ranked)
            students_first += all(kinds[row["seat"]] == "student" for row in ranked if row["score"] == best)
    return {
        "games": games,
        "marked": marked,
        "stand_in_first_by_points": points_first,
        "stand_ins_ranked": ranked_stand_ins,
        "student_first_in_standings": students_first,
        "mean": {kind: statistics.mean(values) for kind, values in scores.items()},
    }


def line(duel: dict) -> str:
    """The row as the balance tables print it."""
    return (
        f"lets the bot play: in {duel['marked']} of {duel['games']} games both seats left to the stand-in are "
        f"marked as its play; by points they finish first in {duel['stand_in_first_by_points']} "
        f"(mean {duel['mean']['stand_in']:.2f} against the students' {duel['mean']['student']:.2f}: the stand-in "
        f"plays carefully), but none is ranked ({duel['stand_ins_ranked']} ranked) and a student who played "
        f"is first in the standings in {duel['student_first_in_standings']} of {duel['games']}"
    )
