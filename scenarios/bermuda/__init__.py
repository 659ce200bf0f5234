"""Bermuda Triangle: sail freight between ports while a storm cloud roams the sea (rule book
004), and learn how mariners keep out of a hurricane's way.

``ENGINE`` satisfies the engine contract of ``scenarios.base``; every reading of the rule book
is in RULES.md. ``PRESETS["as_printed"]`` plays the printed book as closely as the engine can.
"""

from .rules import ENGINE, Bermuda

PRESETS = {
    "as_printed": {"turns": "in_turn", "target": 350, "rounds": 60, "cargo_at_risk": False},
}

__all__ = ["ENGINE", "PRESETS", "Bermuda"]
