"""Tornado Alert!: a real-time slap game about where the best storm photo is taken from.

The engine is pure (no Django): ``rules.py`` holds the rules, ``RULES.md`` the translation of the
Dutch rule book and every decision taken where it is silent.
"""

from __future__ import annotations

from ..base import EngineBasics, draw, json_copy
from . import projector as _projector
from . import rules

#: "as_printed": the first slap to arrive wins (no race window), as a table's hands would.
PRESETS = {"as_printed": {"variant": "turns", "race_ms": 0, "face_down_value": 0}}

ACTION_FIELDS = {
    "play": ("card",),
    "slap": ("pile",),
    "wait": ("pile",),
    "settle": (),
    "open": (),
    "allow": ("seat", "ms"),
    "need_time": (),
    "keep": (),
    "strike": (),
    "use_plus": (),
    "use_minus": (),
    "end_now": (),
}


class TornadoAlertEngine(EngineBasics):
    """The engine object the registry hands out (see scenarios.base.Engine)."""

    key = "tornado_alert"

    #: the projector's sentences (``scenarios.base.Engine.projector``)
    projector_words = _projector.WORDS

    def projector(self, view: dict) -> dict:
        """This table on the projector, from its teacher view (``projector.py``)."""
        return _projector.line(view)

    version = rules.VERSION
    schema_version = rules.SCHEMA_VERSION
    content_hash = rules.CONTENT_HASH
    OPTIONS = rules.OPTIONS
    ACTION_FIELDS = ACTION_FIELDS
    ACTION_WORDS = rules.WORDS

    def setup(self, seed, seats, options=None):
        """Round 1 dealt: 6 cards a hand (5 with six players), Game Over buried in the draw pile."""
        return rules.new_state(seed, seats, options)

    def to_act(self, state):
        """Who may act now: the seat to play (every seat with cards in the free variant) and
        every seat that may slap (edition 1: also the opener of a race, whose deadline settled it)."""
        return rules.to_act(state)

    def actions(self, state, seat):
        """Every legal action for ``seat`` now (``None``: the system's settle and the teacher's end_now)."""
        return rules.actions(state, seat)

    def apply(self, state, seat, action):
        """Apply ``action`` for ``seat``; raises IllegalAction before changing anything."""
        return rules.apply(state, seat, action)

    def due(self, state):
        """The server's own next step (the platform's optional hook): a race's settling, at the
        deadline its first slap fixed (edition 2); None when nothing waits."""
        return rules.due(state)

    def aimed(self, action):
        """A slap or a pass names the pile it was aimed at, and ``apply`` judges it by that pile
        alone (the platform's optional hook): a change elsewhere in the view (a card someone
        else may no longer play) does not make it stale."""
        return isinstance(action, dict) and action.get("type") in ("slap", "wait", "need_time")

    def pace(self, state, seat, bot, default):
        """Seconds until ``seat``'s deadline (the platform's optional hook): the race window for
        the seat that opened a race (its timer settles it), a bot's human-like reaction time when
        it may slap, otherwise ``default`` (a bot's step, a human's turn timer or None)."""
        if default is not None and default <= 0:
            return default  # the teacher fast-forwards: no waiting
        race = state.get("race")
        if race is not None and race["slaps"][0] == seat and rules.edition(state) == 1:
            return state["options"]["race_ms"] / 1000
        if state["phase"] == "play" and not rules.may_play(state, seat):
            if not bot:
                return None  # nobody has to slap: no turn timer, no stand-in for a student who lets a pile go
            base = state["options"]["bot_reaction_ms"]
            spread = draw(state["seed"], "reaction", seat, state["moves"]) % 1001 / 1000  # 0..1
            return round(base * (0.5 + spread) / 1000, 3)
        return default

    def finished(self, state):
        return rules.finished(state)

    def results(self, state):
        """Per seat: the worst counted round's average (after chips) is the score; best wins."""
        return rules.results(state)

    def board(self):
        """What never changes: the cards, the locations with their safety notes, the options."""
        return {
            "locations": json_copy(rules.DECKS[rules.EDITION]["locations"]),
            "specials": json_copy(rules.DECKS[rules.EDITION]["specials"]),
            "cards": {cid: dict(card) for cid, card in rules.CARDS.items()},
            "rounds": rules.ROUNDS,
            "options": self.options(),
        }

    def view(self, state, seat):
        """What ``seat`` may see (None: the teacher, who sees no hands)."""
        fdv = state["options"]["face_down_value"]
        race = state["race"]
        seats = []
        for s in range(state["seats"]):
            stack = state["stacks"][s]
            seats.append(
                {
                    "seat": s,
                    "top": rules.top_card(stack),
                    "location": rules.location_of(stack),
                    "cards": len(stack),
                    "face_down": sum(1 for _, up in stack if not up),
                    "average": rules.average(stack, fdv, rules.edition(state)),
                    "chips": list(state["chips"][s]),
                    "hand": len(state["hands"][s]) if state["phase"] == "play" else 0,
                    "results": json_copy(state["results"][s]),
                    "score": rules.final(state["results"][s]),
                    "decided": state["decided"][s],
                    "in_race": bool(race and s in race["slaps"]),
                }
            )
        pile = state["pile"]
        view = {
            "round": state["round"],
            "rounds": rules.ROUNDS,
            "phase": state["phase"],
            "variant": state["options"]["variant"],
            "race_ms": state["options"]["race_ms"],
            "pile": pile[-6:],
            "pile_size": len(pile),
            "pile_id": state["pile_id"],
            "take": rules.value(pile[-1]) if pile else 0,
            "draw": len(state["draw"]),
            "turn": state["turn"] if state["options"]["variant"] == "turns" else None,
            "last_player": state["last_player"],
            "last_take": json_copy(state["last_take"]),
            "race": {"pile": race["pile"], "slaps": len(race["slaps"])} if race else None,
            "seats": seats,
            "events": json_copy(state["last"]),
            "over": rules.finished(state),
            "moves": state["moves"],
            "edition": rules.edition(state),
            # the reaction allowance: the pile waits before the next card (RULES.md)
            "hold": bool(state.get("hold")),
        }
        if seat is not None:
            view["hand"] = list(state["hands"][seat]) if state["phase"] == "play" else []
            view["actions"] = rules.actions(state, seat)
            view["may_slap"] = rules.may_slap(state, seat)
            view["allowance_ms"] = (state.get("allow") or [0] * state["seats"])[seat]
            # edition 3: whether this seat may ask the teacher for more time, and has asked
            view["time_asked"] = seat in state.get("asked", ())
            view["may_ask_time"] = "asked" in state and view["allowance_ms"] < rules.MORE_TIME
        else:
            view["actions"] = []
            if "asked" in state:  # edition 3: the teacher's controls of each seat's allowance
                view["allowance"] = {
                    "seats": list(state["allow"]),
                    "asked": list(state["asked"]),
                    "class": state["options"]["allowance_ms"],
                    "more": rules.MORE_TIME,
                }
        return view


ENGINE = TornadoAlertEngine()
