"""Pure scenario engines. ``ENGINES[key]`` is the engine object for a scenario key."""
from __future__ import annotations

from importlib import import_module

from .base import IllegalAction  # noqa: F401

SCENARIOS = ("evacuation", "stormfury")


class _Registry(dict):
    """Imports an engine package the first time it is asked for."""

    def __missing__(self, key):
        if key not in SCENARIOS:
            raise KeyError(key)
        engine = import_module(f"{__name__}.{key}").ENGINE
        self[key] = engine
        return engine


ENGINES = _Registry()


def presets(key):
    """A scenario's named option presets, ``{name: {option: value}}`` ({} if it has none).

    Each engine package may expose a module-level ``PRESETS``; a preset's values are merged over
    the engine's defaults (and the teacher's other choices) when a session uses it.
    """
    ENGINES[key]  # an unknown key raises KeyError here
    return getattr(import_module(f"{__name__}.{key}"), "PRESETS", {})
