"""Bots for empty seats, "finish with bots", simulations and debrief comparisons.

A bot is ``bot(state, seat) -> action``: it reads the state, never changes it, and only returns an
action ``rules.check`` accepts, for any seat in ``to_act`` or with a pending reason prompt (it
answers the prompt first). Its only randomness is ``base.draw`` on a "bot/..." stream indexed
by the seat's tap count, so the same state always gets the same answer.

Policies are built from one plan with switches, so the balance report can take one activity away
at a time: bank (and how much), home supplies, friends, fuel, store supplies, when to leave,
where to go.
"""

from __future__ import annotations

from ..base import draw, seatings_of_two, tally_head_to_head
from . import rules
from .roads import _routes
from .state import _fuel_price_here, _max_gallons, _nearest_gas

WAIT = {"type": "wait"}


def random_bot(state, seat):
    """Any legal action, uniformly."""
    options = rules.actions(state, seat)
    if not options:
        return WAIT
    s = state["seats"][seat]
    return options[draw(state["seed"], "bot/random", seat, s["taps"]) % len(options)]


def _drive(state, seat, target):
    action = {"type": "drive", "to": target}
    return action if rules.legal(state, seat, action) else None


def _first_legal(state, seat, candidates):
    for action in candidates:
        if action is not None and rules.legal(state, seat, action):
            return action
    return None


def make_policy(
    name,
    *,
    bank=0,
    bank_below=None,
    home=True,
    friends=False,
    fuel=True,
    only_needed=False,
    supplies=True,
    supplies_below=60,
    leave_minute=0,
    destinations=("relative", "hotel", "shelter"),
    leave_reason="unsafe",
    destination_reason="family",
):
    """A household that does its chosen errands in a fixed order, then drives to safety.

    Errands, in order: ``bank`` dollars from the bank (one trip per $2,000; only if cash is
    under ``bank_below`` when given), shutters from the home supply store, friends, a full tank
    and 25 supplies (if under ``supplies_below``) at the gas station, home to put the
    shutters up, then the first open destination in ``destinations``. Before ``leave_minute`` it
    waits at home watching the news. With ``only_needed`` (and no ``fuel`` errand) a household
    never fills up: it buys only the gallons its drive needs, with a margin of three.
    """

    def policy(state, seat):
        s = state["seats"][seat]
        if s["prompt"] == "leave":
            return {
                "type": "reason",
                "about": "leave",
                "choice": "warning" if s["clock"] >= 720 and leave_reason == "unsafe" else leave_reason,
            }
        if s["prompt"] == "destination":
            return {"type": "reason", "about": "destination", "choice": destination_reason}
        if s["status"] != "playing" or state["ended"]:
            return WAIT
        action = _plan(state, seat, s)
        # Drives were checked when chosen and waiting is always legal: check only the rest.
        if action is None or (action["type"] not in ("drive", "wait") and not rules.legal(state, seat, action)):
            return WAIT
        return action

    def _plan(state, seat, s):
        system = rules.system_at(state, s["clock"])
        here = s["pos"]
        if s["fuel"] <= 0:
            return _refuel(state, seat, s, system)
        if here == rules.HOME and not s["left_home"] and s["clock"] < leave_minute:
            return WAIT
        # Where to go at the end: the first open destination we can still reach.
        open_dests = [d for d in destinations if system["destination." + d]] or ["shelter"]
        if s["destination"] not in open_dests:
            return {"type": "set_destination", "destination": open_dests[0]}
        # Errands.
        if (
            bank
            and s["withdrawn"] < min(bank, rules.MONEY["bank_total"])
            and (bank_below is None or s["cash"] < bank_below or s["pos"] == "BK")
        ):
            if here == "BK":
                if not s["visit"][0]:
                    left = min(rules.MONEY["bank_trip"], bank - s["withdrawn"])
                    return {
                        "type": "withdraw",
                        "amount": left - left % rules.MONEY["bank_step"] or rules.MONEY["bank_step"],
                    }
                hop = _first_legal(state, seat, [{"type": "drive", "to": n} for n, _, _ in rules.ADJ["BK"]])
                if hop:
                    return hop
            else:
                go = _drive(state, seat, "BK")
                if go:
                    return go
        if home and not s["home_supplies"] and not s["secured"] and s["cash"] >= rules.MONEY["home_supplies"]:
            if here == "HS":
                return {"type": "buy_home_supplies"}
            go = _drive(state, seat, "HS") if s["fuel"] > 4 else None
            if go:
                return go
        if friends and not s["friends"]:
            if here == "FR":
                return {"type": "pick_up_friends"}
            go = _drive(state, seat, "FR")
            if go:
                return go
        # Fuel: a full tank if that is the plan; otherwise enough for the drive out and a margin.
        # Either way only if it can be paid for (or the tow's fill-up is due).
        target = rules.DEST_NODE[s["destination"]]
        to_go = rules.hops(system["config"], here, target)
        enough = (to_go or 8) + 3
        near = _nearest_gas(s, system["config"])
        price = _fuel_price_here(s, system) or system["fuel_price"]
        can_pay = s["cash"] >= 5 * price or s["tow_price"]
        at_gas = rules.NODES[here].get("activity") == "gas"
        # A full tank is an errand near home (far from safety) or when already at a station;
        # on the road only "enough to get there" sends the car back to a station.
        want_fuel = can_pay and (s["fuel"] < enough or (fuel and s["fuel"] < 15 and (at_gas or (to_go or 0) >= 7)))
        if fuel and can_pay and state["options"].get("half_tank") == "on":
            # rules edition 2 scores half a tank on arrival: keep it at least half full after the drive
            left = s["fuel"] - (to_go or 0)  # on arrival, if nothing burns more on the way
            want_fuel = (
                want_fuel
                or (at_gas and left < rules.HALF_TANK[0] + 3)
                or (left < rules.HALF_TANK[0] and (to_go or 0) >= 7)
            )
        if want_fuel and near and not at_gas and s["fuel"] <= near[1]:
            want_fuel = False  # cannot reach a station anyway: keep going and call a tow if needed
        want_supplies = supplies and s["supplies"] < supplies_below and s["cash"] >= 25 * system["supply_price"]
        if want_fuel or want_supplies:
            if at_gas:
                price = _fuel_price_here(s, system)
                most = _max_gallons(s, system, price)
                if only_needed:  # never fills up: only what the drive needs, with its margin
                    most = min(most, max(1, enough - s["fuel"]))
                if want_fuel and most > 0 and not s["visit"][1]:
                    return {"type": "buy_fuel", "gallons": most}
                if want_supplies and not s["visit"][2]:
                    return {"type": "buy_supplies", "units": 25}
            elif near:
                go = _drive(state, seat, near[0])
                if go:
                    return go
        if s["home_supplies"]:
            go = _drive(state, seat, rules.HOME)
            if go:
                return go
        go = _drive(state, seat, target)
        if go:
            return go
        for dest in open_dests:
            if dest != s["destination"] and _drive_ok_after_choice(state, s, dest):
                return {"type": "set_destination", "destination": dest}
        return WAIT

    policy.__name__ = name
    policy.__doc__ = f"The {name} household (see make_policy)."
    return policy


def _drive_ok_after_choice(state, s, dest):
    system = rules.system_at(state, s["clock"])
    return s["pos"] in _routes(system["config"], rules.DEST_NODE[dest])


def _refuel(state, seat, s, system):
    price = _fuel_price_here(s, system)
    if price is not None:
        most = _max_gallons(s, system, price)
        if most > 0:
            return {"type": "buy_fuel", "gallons": most}
    if rules.legal(state, seat, {"type": "tow"}):
        return {"type": "tow"}
    if s["pos"] == rules.HOME:
        return {"type": "stay_home"}
    return WAIT


#: Leaves at the watch and prepares: $2,000 from the bank if it has under $1,000, shutters
#: (then home to put them up), a full tank, 25 more supplies if under 30; then the relative's.
cautious = make_policy(
    "cautious",
    bank=2000,
    bank_below=1000,
    home=True,
    fuel=True,
    supplies=True,
    supplies_below=30,
    leave_reason="unsafe",
    destination_reason="family",
)
#: Watches the news until hour 36, then drives straight to the hotel, buying fuel only if low.
last_minute = make_policy(
    "last_minute",
    bank=0,
    home=False,
    fuel=False,
    supplies=False,
    leave_minute=36 * 60,
    destinations=("hotel", "relative", "shelter"),
    leave_reason="warning",
    destination_reason="close",
)
#: Two bank trips for the full $4,000, nothing else, then the relative's home.
bank_farming = make_policy(
    "bank_farming", bank=4000, home=False, fuel=False, supplies=False, leave_reason="ready", destination_reason="cost"
)

#: The cautious household's errands, but it never fills up: it buys only the gallons the drive
#: needs (the balance report's habit against the half-tank points of rules edition 2).
never_fills_up = make_policy(
    "never_fills_up", bank=2000, bank_below=1000, fuel=False, only_needed=True, supplies_below=30
)

BOTS = {
    "random": random_bot,
    "cautious": cautious,
    "last_minute": last_minute,
    "bank_farming": bank_farming,
}
POLICY_BOT = "cautious"


def head_to_head(careful: str, reckless, seeds: int = 50, options: dict | None = None) -> dict:
    """The balance yardstick: 4-seat games with two households of each habit in all six
    seatings, ``seeds`` seeds each. ``reckless`` is a name in ``BOTS`` or a policy. A game is
    decided when the highest scores are of one habit only; ``first`` counts the decided games
    each habit won."""
    policies = {"careful": BOTS[careful], "reckless": BOTS[reckless] if isinstance(reckless, str) else reckless}

    def played():
        for seed in range(seeds):
            for kinds in seatings_of_two("careful", "reckless"):
                state = rules.new_state(seed, 4, options)
                while not rules.finished(state):
                    for seat in rules.to_act(state):
                        rules.apply(state, seat, policies[kinds[seat]](state, seat))
                yield kinds, rules.results(state)

    duel = tally_head_to_head(played(), "careful", "reckless")
    return {**duel, "mean": {kind: sum(r["score"] for r in rows) / len(rows) for kind, rows in duel["rows"].items()}}
