"""Project Stormfury: cooperative hurricane response on a Gulf-coast hex map.

``ENGINE`` satisfies the engine contract of ``scenarios.base``; the rules are in ``rules.py``
(which assembles the engine from the section modules beside it) and every interpretation of the
rule book is in ``RULES.md``.

``PRESETS`` are named sets of engine options, merged over the defaults. ``as_printed`` plays
the printed rule book as closely as the engine can; RULES.md's table says why each value.
"""

from .rules import Stormfury

ENGINE = Stormfury()

PRESETS = {
    "as_printed": {
        "turn_order": "round_table",
        "hits": "per_turn",
        "final_move_damage": False,
        "land_decay": True,
        "open_hands": True,
        "turn_cap": 20,
        "chits": True,
        "storm_start": "single",
    },
}

__all__ = ["ENGINE", "PRESETS", "Stormfury"]
