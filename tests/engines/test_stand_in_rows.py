"""The "lets the bot play" row of every balance table whose seats a stand-in can take: a child who
puts the tablet down is played by the careful bot, and that seat is marked as the stand-in's and
never ranked, so a student who played is first in the standings of every game."""

import importlib

import pytest

from benchmarks import stand_in


@pytest.mark.parametrize("module", ["evacuation", "resort", "bermuda", "tornado_alert"])
def test_seats_left_to_the_stand_in_are_marked_and_never_ranked(module):
    play_logged = importlib.import_module(f"benchmarks.{module}").play_logged
    duel = stand_in.lets_the_bot_play(play_logged, seeds=3)
    assert duel["games"] == 18
    assert duel["marked"] == 18
    assert duel["stand_ins_ranked"] == 0
    assert duel["student_first_in_standings"] == 18
