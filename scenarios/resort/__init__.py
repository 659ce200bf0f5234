"""Hurricane (rule book 000): run coastal resorts through one real storm's season.

``ENGINE`` satisfies the engine contract of ``scenarios.base``; every reading of the rule book is
in ``RULES.md``. The hurricane programs are built from NOAA's best tracks by ``build_programs``.
"""

from .rules import Resort

ENGINE = Resort()

PRESETS = {"as_printed": {"track_bonus": False, "round_cap": 40}}

__all__ = ["ENGINE", "PRESETS", "Resort"]
