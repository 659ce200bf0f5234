"""What the game rewards: a team that plays the response plan limits the storm's damage.

Stormfury is cooperative, so a game is one team's: the same storm (seed) is played by four
policy bots and by four players acting at random, and the careful team must do less damage
in most storms where the two differ, and less on average.
"""

import statistics

from benchmarks.stormfury import whole_game
from scenarios.stormfury.bots import POLICY_BOT

STORMS = 60


def test_the_careful_team_does_less_damage_than_the_haphazard_one_on_the_same_storm():
    careful = [whole_game(seed, POLICY_BOT)["damage"]["total"] for seed in range(STORMS)]
    haphazard = [whole_game(seed, "random")["damage"]["total"] for seed in range(STORMS)]
    decided = [(c, h) for c, h in zip(careful, haphazard) if c != h]
    wins = sum(c < h for c, h in decided)
    assert len(decided) >= STORMS // 2
    assert wins / len(decided) >= 0.6, f"careful team ahead on {wins} of {len(decided)} storms"
    assert statistics.mean(careful) < statistics.mean(haphazard)
