"""Project Stormfury: cooperative hurricane response on a Gulf-coast hex map.

``ENGINE`` satisfies the engine contract of ``scenarios.base``; the rules and every
interpretation of the rule book are in ``rules.py`` and ``RULES.md``.
"""
from .rules import Stormfury

ENGINE = Stormfury()

__all__ = ["ENGINE", "Stormfury"]
