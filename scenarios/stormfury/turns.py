"""The turn flow: a round's Forecast Phase, each player's turn, the end of the Player Phase
and the end of the game (the Hurricane Phase between rounds is in ``storm.py``).

``TurnFlow`` is the part of the ``Stormfury`` engine class (``rules.py``) that moves a table
from one phase to the next.
"""

from __future__ import annotations

from ..base import shuffled
from .state import _draw_cards
from .tables import DECKS, DRAW, FORECAST_SIZE, MOVES, TERRAINS


class TurnFlow:
    """Rounds, turns and the end (a part of the ``Stormfury`` engine class, see ``rules.py``)."""

    def _begin_round(self, state: dict, events: list) -> None:
        """Forecast Phase, then the start of the Player Phase."""
        state["round"] += 1
        storm = state["storm"]
        terrain = TERRAINS[state["options"]["edition"]]
        deck = "ocean" if terrain[tuple(storm["at"])] == "ocean" else "land"
        storm["deck"] = deck
        state["forecast"] = shuffled(DECKS[deck], state["options"]["storm_seed"], "forecast", None, state["round"])[
            :FORECAST_SIZE
        ]
        events.append({"type": "forecast", "round": state["round"], "deck": deck, "cards": list(state["forecast"])})
        state["phase"] = "player"
        for p in state["players"]:
            p.update(status="waiting", moves=MOVES, drawn=0, to_pile=0, pile_cards={}, power_used=False, offers_made=0)
        if state["options"]["turn_order"] == "round_table":
            state["turn"] = 0
            self._start_turn(state, state["players"][0])
        else:
            for p in state["players"]:
                self._start_turn(state, p)

    def _start_turn(self, state: dict, p: dict) -> None:
        """Draw 2 from the deck, unless there is a Relief pile to choose from (§13)."""
        if state["pile"] and p["role"] != "relief_corps":
            p["status"] = "start"
            return
        cards = _draw_cards(state, DRAW)
        for k in cards:
            p["hand"][k] += 1
            p["drawn"] += 1
        if p["role"] == "relief_corps":
            self._may_pile(p, cards)
        p["status"] = "drawn"

    def _may_pile(self, p: dict, cards: list[str]) -> None:
        """The Relief Corps may put the cards she just drew on her pile this turn (§13)."""
        p["to_pile"] += len(cards)
        for k in cards:
            p["pile_cards"][k] = p["pile_cards"].get(k, 0) + 1

    def _finish_turn(self, state: dict, p: dict, events: list, storm: bool = True) -> None:
        p["status"] = "ended"
        events.append({"type": "turn_ended", "seat": p["seat"]})
        if state["options"]["turn_order"] == "round_table":
            nxt = p["seat"] + 1
            if nxt < state["seats"] and state["players"][nxt]["status"] == "waiting":
                state["turn"] = nxt
                if storm:
                    self._start_turn(state, state["players"][nxt])
                return
        if all(q["status"] == "ended" for q in state["players"]):
            self._end_player_phase(state, events, storm)

    def _end_player_phase(self, state: dict, events: list, storm: bool = True) -> None:
        for o in state["offers"]:
            events.append({"type": "offer_expired", "offer": o["id"]})
        state["offers"] = []
        state["turn"] = None
        state["phase"] = "storm"
        if not storm:
            return
        if state["options"]["hold_storm"]:
            events.append({"type": "storm_waiting"})
            return
        self._hurricane(state, events)

    def _game_over(self, state: dict, reason: str) -> None:
        state["phase"] = "over"
        state["ended"] = reason
        state["turn"] = None
        state["forecast"] = []
        for p in state["players"]:
            p["status"] = "ended"
