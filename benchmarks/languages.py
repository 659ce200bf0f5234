"""What a tablet in another language costs the server, one line per figure (``name: value unit``).

    python -m benchmarks.languages

Frames carry ids and numbers, the same bytes for every tablet: a Spanish or Dutch tablet costs
the live path nothing per frame. Its words come with the scenario's board, translated once per
page load (``/games/board/<key>.json?...&lang=``, which browsers then keep for good). Figures,
per scenario: the size of a seat's full view a few turns into a game (what every frame of that
kind costs to encode and send, in every language), and the CPU time to build the Spanish board,
best of three runs, in this process's CPU time with Django set up (so gettext is counted).
"""

from __future__ import annotations

import os
import time

import django

from benchmarks import sized

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.utils import translation  # noqa: E402

from classroom import languages  # noqa: E402
from games import broadcast  # noqa: E402
from scenarios import registry  # noqa: E402


def a_view(engine, bot, seats=4, steps=12):
    state = engine.setup(7, seats)
    for _ in range(steps):
        if engine.finished(state):
            break
        for seat in engine.to_act(state):
            engine.apply(state, seat, bot(state, seat))
    return {"type": "view", "seat": 0, "version": 12, "view": engine.view(state, 0)}


def board_ms(key, language, runs):
    """The CPU time of one translated board, best of ``runs`` (the board endpoint's work)."""
    board = registry.engine(key).board()
    best = None
    for _ in range(runs):
        start = time.process_time()
        with translation.override(language):
            languages.translate_content(board, key, language)
        spent = (time.process_time() - start) * 1000
        best = spent if best is None else min(best, spent)
    return best


def main():
    runs = sized(3, 1)
    for scenario in registry.all():
        if "tests" in scenario.package:
            continue
        view = a_view(registry.engine(scenario.key), scenario.bots[scenario.policy_bot])
        print(f"view_{scenario.key}_bytes: {len(broadcast.encode(view))} bytes")
        print(f"board_{scenario.key}_es_ms: {board_ms(scenario.key, 'es', runs):.2f} ms")


if __name__ == "__main__":
    main()
