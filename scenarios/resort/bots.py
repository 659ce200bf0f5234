"""Bots for the resort game: random, a prepared owner who buys options in proportion to how
often real storms reach each resort (the policy bot), and two fixed habits for the balance table.
Each is ``bot(state, seat) -> action`` and returns one of ``ENGINE.actions(state, seat)``."""
from __future__ import annotations

from scenarios.base import draw

from . import ENGINE
from .rules import EXPOSURE, PROGRAMS, RESORTS, resort_value, season_damage

#: a bot keeps this much cash in hand after buying a resort
RESERVE = 60000


def _best(rid) -> int:
    """The number of options that costs least over the real storms in the deck: what they cost,
    plus the average damage they leave, less what they add to the resort's end value."""
    resort = RESORTS[rid]

    def cost(k):
        expected = sum(season_damage(p, {rid: k}) for p in PROGRAMS.values()) / len(PROGRAMS)
        return k * resort["option"] + expected - resort_value(resort, k)
    return min(range(6), key=cost)


TARGET = {rid: _best(rid) for rid in RESORTS}


def _target(rid) -> int:
    return TARGET[rid]


def _exact(state):
    line = ENGINE.program(state)["lines"][state["line"]]
    return {"type": "track", "lat": line["lat"], "lon": line["lon"]}


def _habit(want_options):
    """A bot that rolls, buys what it can afford keeping a reserve, places the storm exactly and
    wants ``want_options(resort)`` options on each resort."""
    def bot(state, seat):
        phase = state["phase"]
        if phase == "track":
            return _exact(state)
        actions = ENGINE.actions(state, seat)
        if phase == "buy":
            rid = ENGINE.space_resort(state, seat)
            cash = state["seats"][seat]["cash"]
            k = want_options(rid)
            while k >= 0:
                cost = RESORTS[rid]["price"] + k * RESORTS[rid]["option"]
                if {"type": "buy", "options": k} in actions and cash - cost >= RESERVE:
                    return {"type": "buy", "options": k}
                k -= 1
            return {"type": "pass"}
        if phase == "option":
            short = [a for a in actions if a["type"] == "option"
                     and state["held"][a["resort"]] < want_options(a["resort"])]
            if short:
                return max(short, key=lambda a: (EXPOSURE[a["resort"]], a["resort"]))
            return {"type": "pass"}
        if phase == "shelter":
            return {"type": "stay"}
        return actions[0]
    return bot


def random_bot(state, seat):
    actions = ENGINE.actions(state, seat)
    pick = draw(state["seed"], "bot", seat, state["rolls"] * 7 + len(state["tracks"]) + state["line"] * 97)
    return actions[pick % len(actions)]


BOTS = {
    "prepared": _habit(_target),
    "never": _habit(lambda rid: 0),
    "always": _habit(lambda rid: 5),
    "random": random_bot,
}
POLICY_BOT = "prepared"
