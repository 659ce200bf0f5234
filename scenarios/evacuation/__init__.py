"""Hurricane Approaching!: the 48-hour peninsula evacuation, as a pure rules engine.

Every seat plays at once on its own clock; see ``RULES.md`` for every interpretation of the
rule book and ``rules.py`` (which gathers ``book``, ``roads``, ``state``, ``moves``, ``points`` and
``screens``) for the rules themselves.
"""

from __future__ import annotations

from ..base import canonical
from . import projector as _projector
from . import rules

#: Named sets of option values merged over the defaults (the platform labels the keys).
#: "as_printed" plays and scores as the rule book prints it; where the book contradicts
#: itself it takes the Scoring section's destination points (RULES.md, "As printed").
PRESETS = {
    "as_printed": {
        "race_points": "on",
        "bank_scoring": "book",
        "timeline": "off",
        "destination_points": "scoring",
        "half_tank": "off",
    },
}


class EvacuationEngine:
    """The engine object the registry hands out (see scenarios.base.Engine)."""

    key = "evacuation"

    #: the projector's sentences (``scenarios.base.Engine.projector``)
    projector_words = _projector.WORDS

    def projector(self, view: dict) -> dict:
        """This table on the projector, from its teacher view (``projector.py``)."""
        return _projector.line(view)

    version = rules.VERSION
    schema_version = rules.SCHEMA_VERSION
    content_hash = rules.CONTENT_HASH

    def setup(self, seed, seats, options=None):
        """A new game for ``seats`` households, all at home at hour 0 (the hurricane watch)."""
        return rules.new_state(seed, seats, options)

    def to_act(self, state):
        """Every seat still playing: seats never wait for each other."""
        return rules.to_act(state)

    def seat_open(self, state, seat):
        """A household still on its way (not arrived, home for the storm or out of time)."""
        return seat in rules.to_act(state)

    def actions(self, state, seat):
        """Every legal action for ``seat`` now."""
        return rules.actions(state, seat)

    def apply(self, state, seat, action):
        """Validate (raising IllegalAction with the state untouched), then play; the events."""
        return rules.apply(state, seat, action)

    def canonical(self, action):
        """The applied ``action`` as it is stored: its known fields only (IllegalAction otherwise)."""
        return canonical(action, rules.ACTION_FIELDS, rules.ACTION_WORDS)

    def board(self):
        """The static board: nodes with x/y, links with thresholds and labels, cards, options."""
        return rules.board()

    def view(self, state, seat):
        """What ``seat`` may see now; ``None`` is the teacher's view of every seat."""
        return rules.view(state, seat)

    def own(self, state, seat):
        """What ``seat``'s view is built from besides its ``others`` part: while it compares
        equal, the seat's view and choices are as they were (optional in the contract)."""
        return rules.own(state, seat)

    def others(self, state, seat):
        """The ``others`` part of ``seat``'s view: the other households' progress (optional)."""
        return rules.others(state, seat)

    def finished(self, state):
        """True when every seat has arrived, stayed or run out of time, or the teacher ended it."""
        return rules.finished(state)

    def results(self, state):
        """Per seat: seat, score, rank and a breakdown of points and safety."""
        return rules.results(state)

    def dump(self, state):
        """A JSON-ready copy of the state."""
        return rules.dump(state)

    def load(self, data):
        """The state from ``dump``'s output (upgrading old schemas step by step)."""
        return rules.load(data)

    def options(self):
        """The teacher's session options: name, default, choices, description."""
        return rules.options()


ENGINE = EvacuationEngine()
