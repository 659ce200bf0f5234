"""Bots for the resort game: random, a prepared owner who buys options in proportion to how
often real storms reach each resort (the policy bot), and fixed habits for the balance table:
never, always, insured (prepares, then insures) and plot_random (prepares, plots anywhere).
Each is ``bot(state, seat) -> action`` and returns one of ``ENGINE.actions(state, seat)``."""

from __future__ import annotations

from scenarios.base import draw, seatings_of_two, tally_head_to_head

from . import ENGINE
from .rules import (
    DECKS,
    EDITIONS,
    EXPOSURE,
    OUTER,
    PROGRAM_IDS,
    RESORTS,
    TRACK_POINTS,
    options_price,
    resort_value,
    season_damage,
)

#: a bot keeps this much cash in hand after buying a resort
RESERVE = 60000


def _best(rid, edition) -> int:
    """The number of options that costs least over the real storms in the deck: what they cost,
    plus the average damage they leave after insurance's claims, less what they add to the
    resort's end value (the fewest on a tie)."""
    resort, deck = RESORTS[rid], DECKS[edition]

    def cost(k):
        expected = sum(season_damage(p, {rid: k}, edition, net=True) for p in deck.values()) / len(deck)
        return options_price(rid, 0, k, edition) + expected - resort_value(resort, k, edition)

    return min(range(6), key=lambda k: (round(cost(k)), k))


TARGET = {edition: {rid: _best(rid, edition) for rid in RESORTS} for edition in EDITIONS}


def _edition(state) -> int:
    return state["options"].get("edition", 1)


def _target(rid, state) -> int:
    return TARGET[_edition(state)][rid]


def _exact(state):
    line = ENGINE.program(state)["lines"][state["line"]]
    return {"type": "track", "lat": line["lat"], "lon": line["lon"]}


def _at_random(state, seat):
    """A placement anywhere on the grid, drawn from the seed: a player who does not read the
    bulletin's latitude and longitude."""
    lat, lon = TRACK_POINTS[draw(state["seed"], "plot", seat, state["line"]) % len(TRACK_POINTS)]
    return {"type": "track", "lat": lat, "lon": lon}


def _habit(want_options, track=None):
    """A bot that rolls, buys what it can afford keeping a reserve, places the storm exactly (or
    as ``track(state, seat)`` says) and wants ``want_options(resort, state)`` options on each
    resort; it sails from wherever is nearer and, out of the Bermuda Triangle, goes to the first
    Shelter ahead."""

    def bot(state, seat):
        phase = state["phase"]
        if phase == "track":
            return track(state, seat) if track else _exact(state)
        actions = ENGINE.actions(state, seat)
        if phase == "buy":
            rid = ENGINE.space_resort(state, seat)
            cash = state["seats"][seat]["cash"]
            k = want_options(rid, state)
            while k >= 0:
                cost = RESORTS[rid]["price"] + options_price(rid, 0, k, _edition(state))
                if {"type": "buy", "options": k} in actions and cash - cost >= RESERVE:
                    return {"type": "buy", "options": k}
                k -= 1
            return {"type": "pass"}
        if phase == "option":
            short = [
                a
                for a in actions
                if a["type"] == "option" and state["held"][a["resort"]] < want_options(a["resort"], state)
            ]
            if short:
                return max(short, key=lambda a: (EXPOSURE[a["resort"]], a["resort"]))
            return {"type": "pass"}
        if phase == "shelter":
            return {"type": "stay"}
        if phase == "sail_from":
            choice = ENGINE.view(state, seat)["sail_choice"]
            return {"type": "sail_from", "dock": choice["from_dock"] <= choice["from_port"]}
        if phase == "refuge":
            pawn = state["seats"][seat]["pawn"]
            return min(actions, key=lambda a: (a["space"] - pawn) % len(OUTER))
        return actions[0]

    return bot


def random_bot(state, seat):
    actions = ENGINE.actions(state, seat)
    pick = draw(state["seed"], "bot", seat, state["rolls"] * 7 + len(state["tracks"]) + state["line"] * 97)
    return actions[pick % len(actions)]


BOTS = {
    "prepared": _habit(_target),
    "never": _habit(lambda rid, state: 0),
    "always": _habit(lambda rid, state: 5),
    "random": random_bot,
    # the owner who also buys the book's fifth option: buys each resort with the four measures
    # and insures it on a P space when it has the cash (insurance is held only with the four
    # before it, in the book's order); "always" buys all five at once
    "insured": _habit(lambda rid, state: 5 if state["phase"] == "option" else 4),
    # the prepared owner who places the storm anywhere: what plotting precision is worth
    "plot_random": _habit(_target, _at_random),
}
POLICY_BOT = "prepared"


def play_out(seed: int, bots: list[str], options: dict | None = None) -> dict:
    """One game played to its end by the named bots, one per seat; the final state."""
    state = ENGINE.setup(seed, len(bots), options or {})
    while not ENGINE.finished(state):
        for seat in ENGINE.to_act(state)[:1] if state["phase"] != "track" else ENGINE.to_act(state):
            ENGINE.apply(state, seat, BOTS[bots[seat]](state, seat))
    return state


def head_to_head(careful: str, reckless: str, seeds: int = 4, options: dict | None = None) -> dict:
    """The balance yardstick: 4-seat games with two seats of each habit, in all six seatings, on
    every real storm of the deck and ``seeds`` seeds each. A game is decided when the richest
    seats are of one habit only; ``first`` counts the decided games each habit won."""

    def played():
        for storm in PROGRAM_IDS:
            for seed in range(seeds):
                for bots in seatings_of_two(careful, reckless):
                    yield bots, ENGINE.results(play_out(seed, list(bots), dict(options or {}, storm=storm)))

    duel = tally_head_to_head(played(), careful, reckless)
    return {
        **duel,
        "mean_worth": {bot: sum(r["score"] for r in rows) / len(rows) for bot, rows in duel["rows"].items()},
    }
