"""Race to the shelter: a tiny scenario written as a test fixture (see RULES.md)."""

from .rules import ShelterRace

ENGINE = ShelterRace()
PRESETS = {"as_printed": {"storm_rounds": 6}}
