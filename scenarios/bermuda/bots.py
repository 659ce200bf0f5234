"""Three ways to sail: at random, bold (the best freight, whatever the cloud may do) and
cautious (the best freight outside the cone: the mariner's rule of keeping out of the danger
area). The cautious captain fills empty seats and is the yardstick in reports."""
from __future__ import annotations

from scenarios.base import draw

from .rules import CELL, ENGINE, PORTS, SPINNER, danger, walk

#: how much a ship and its cargo are worth to a cautious captain, in thousands
SHIP_WORTH = 40


def _arrival(state, ship, port):
    """What docking ``ship`` at ``port`` brings: its cargo delivered and the card it loads."""
    cargo = ENGINE.held_card(ship)
    if cargo and ship["loaded_at"] == port:
        return 0  # the hold stays full at the port it was loaded
    return cargo + ENGINE._dock_gain(state, port)


def _worth(state, move, ship):
    """What a move brings: the arrival now if it docks, else the arrival it heads for, less
    for every further turn it needs."""
    if move["to"] in PORTS:
        return _arrival(state, ship, move["to"])
    turns = 1 + len(walk(move["to"], move["route"], move["direction"])) // 7
    return 0.9 * _arrival(state, ship, move["toward"]) * 0.6 ** turns


def _pick(state, seat, score):
    ships = {s["id"]: s for s in state["ships"] if s["seat"] == seat}
    capture, _ = danger(tuple(state["cloud"]["at"]), state["cloud"]["letter"])
    risk = lambda space: 0 if space in PORTS else capture.get(CELL[space], 0) / len(SPINNER)  # noqa: E731
    best = max(ENGINE.moves(state, seat), key=lambda m: (score(m, ships[m["ship"]], risk), m["ship"], m["to"]))
    return {"type": "sail", "ship": best["ship"], "to": best["to"]}


def random_bot(state, seat):
    actions = ENGINE.actions(state, seat)
    n = state["seats"][seat]["moves"]
    return actions[draw(state["seed"], "random-bot", seat, n) % len(actions)]


def bold(state, seat):
    return _pick(state, seat, lambda m, ship, risk: _worth(state, m, ship))


def cautious(state, seat):
    def score(m, ship, risk):
        stake = SHIP_WORTH + ENGINE.held_card(ship)
        safer = risk(ship["at"]) - risk(m["to"])  # taking a ship out of the cone
        return _worth(state, m, ship) + 2 * stake * safer
    return _pick(state, seat, score)


BOTS = {"random": random_bot, "bold": bold, "cautious": cautious}
POLICY_BOT = "cautious"
