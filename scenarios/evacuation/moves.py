"""Checking and applying actions, and reading whose turn it is and what a seat may do."""

from __future__ import annotations

from ..base import IllegalAction, roll
from ..words import gettext_noop  # gettext_noop marks sentences for the web layer to translate
from .roads import _ROUTES, _routes
from .state import (
    _add_change,
    _advance,
    _die,
    _draw_card,
    _event,
    _fuel_cost,
    _fuel_price_here,
    _max_gallons,
    _nearest_gas,
    _seat,
    _spend,
    _system_span,
    _towed_here,
    system_at,
)
from .tables import (
    _LINK_FAST,
    CARDS,
    CHANCE,
    DESTINATIONS,
    END,
    FAIL_MIN,
    HOME,
    LINK_MIN,
    LINKS,
    MIN_SUPPLIES,
    MINUTES,
    MONEY,
    NODE_DEST,
    NODE_IDS,
    NODES,
    REASONS,
    STOPS,
    TANK,
    _refuse,
)

# --- Validation --------------------------------------------------------------------------------


def check(state, seat, action):
    """Raise IllegalAction unless ``seat`` may take ``action`` now. Changes nothing."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        _refuse("bad_action", gettext_noop("That is not an action."))
    kind = action["type"]
    if seat is None:
        return _check_system(state, action)
    s = _seat(state, seat)
    if kind == "reason" and s["prompt"] is not None:
        # A reason may still be given after the move that asked it ended the seat's game.
        return _check_reason(state, s, None, action)
    if state["ended"] or s["status"] != "playing":
        _refuse("not_playing", gettext_noop("Your game is over: wait for the results."), status=s["status"])
    handler = _CHECKS.get(kind)
    if handler is None:
        _refuse("unknown_action", gettext_noop("That is not something you can do in this game."), type=kind)
    if s["prompt"] is None and kind == "reason":
        _refuse("no_question", gettext_noop("There is no question to answer right now."))
    return handler(state, s, system_at(state, s["clock"]) if kind not in _NO_SYSTEM else None, action)


_NO_SYSTEM = frozenset(("wait", "reason", "stay_home", "pick_up_friends", "withdraw", "buy_home_supplies"))


def _check_system(state, action):
    kind = action["type"]
    if kind == "end_now":
        if state["done"]:
            _refuse("game_over", gettext_noop("This game has already ended."))
        return None
    if kind == "skip":
        s = _seat(state, action.get("seat"))
        if state["ended"] or s["status"] != "playing":
            _refuse("not_playing", gettext_noop("That seat's game is over."), seat=s["seat"])
        return None
    _refuse("unknown_action", gettext_noop("The teacher can end the game now or skip a seat."), type=kind)


def _check_drive(state, s, system, action):
    to = action.get("to")
    if not isinstance(to, str) or to not in NODES:
        _refuse("no_such_place", gettext_noop("That place is not on the map."), to=to)
    if to == s["pos"]:
        _refuse("already_there", gettext_noop("You are already there."), to=to)
    if s["fuel"] <= 0:
        _refuse(
            "not_enough_fuel",
            gettext_noop("You have 0 gallons left: buy fuel here if you can, or call a tow."),
            need=1,
            have=0,
        )
    config = system["config"]
    dest = NODE_DEST.get(to)
    if dest is not None:
        if not system["destination." + dest]:
            _refuse(
                "destination_closed",
                gettext_noop("The %(place)s is not taking anyone now: choose another place."),
                destination=dest,
                place=DESTINATIONS[dest]["label"].lower(),
            )
        if s["destination"] != dest:
            _refuse(
                "choose_destination_first",
                gettext_noop("Choose the %(place)s as your destination first."),
                destination=dest,
                place=DESTINATIONS[dest]["label"].lower(),
            )
        if s["home_supplies"] and s["pos"] != HOME and s["pos"] in _routes(config, HOME):
            _refuse(
                "secure_home_first",
                gettext_noop("You bought shutters and plywood: drive home to put them up before you leave for good."),
            )
    if s["pos"] not in _routes(config, to):
        _refuse(
            "no_route",
            gettext_noop(
                "No open road goes there from here right now (a bridge may be closed, or contraflow runs the other way)."
            ),
            to=to,
        )
    return None


def _activity(s, wanted, message):
    node = NODES[s["pos"]]
    if node.get("activity") != wanted:
        _refuse("wrong_place", message, here=s["pos"])


def _check_withdraw(state, s, system, action):
    _activity(s, "bank", gettext_noop("You can only take out cash at the bank."))
    amount = action.get("amount")
    left = min(MONEY["bank_trip"], MONEY["bank_total"] - s["withdrawn"])
    if s["visit"][0]:
        _refuse(
            "bank_trip_used", gettext_noop("You already took cash on this trip: drive away and come back for more.")
        )
    if left <= 0:
        _refuse(
            "bank_limit",
            gettext_noop("You have taken out the most the bank allows ($4,000)."),
            limit=MONEY["bank_total"],
        )
    if (
        not isinstance(amount, int)
        or isinstance(amount, bool)
        or amount <= 0
        or amount > left
        or amount % MONEY["bank_step"]
    ):
        _refuse("bad_amount", gettext_noop("Choose $500, $1,000, ... up to $%(most)s."), amount=amount, most=left)


def _check_home_supplies(state, s, system, action):
    _activity(s, "home_supply", gettext_noop("Shutters and plywood are sold at the home supply store."))
    if s["home_supplies"] or s["secured"]:
        _refuse("already_have", gettext_noop("You already have supplies for your home."))
    if s["cash"] < MONEY["home_supplies"]:
        _refuse(
            "not_enough_cash",
            gettext_noop("Home supplies cost $%(need)s and you have $%(have)s: visit the bank first."),
            need=MONEY["home_supplies"],
            have=s["cash"],
        )


def _check_friends(state, s, system, action):
    _activity(s, "friends", gettext_noop("Your friends are waiting at their house."))
    if s["friends"]:
        _refuse("already_have", gettext_noop("Your friends are already in the car."))


def _check_fuel(state, s, system, action):
    price = _fuel_price_here(s, system)
    if price is None:
        _refuse(
            "wrong_place",
            gettext_noop(
                "Fuel is sold at the gas stations (and for 3 times the price at the bank, the home supply store and your friends' house)."
            ),
        )
    gallons = action.get("gallons")
    if not isinstance(gallons, int) or isinstance(gallons, bool) or gallons <= 0:
        _refuse("bad_amount", gettext_noop("Choose how many gallons."), gallons=gallons)
    if s["fuel"] + gallons > TANK:
        _refuse(
            "tank_full",
            gettext_noop("Your tank holds %(tank)s gallons and has %(fuel)s."),
            room=TANK - s["fuel"],
            tank=TANK,
            fuel=s["fuel"],
        )
    if gallons > system["fuel_limit"]:
        _refuse(
            "fuel_limit",
            gettext_noop("Stations sell at most %(limit)s gallons per car right now."),
            limit=system["fuel_limit"],
        )
    cost = _fuel_cost(s, price, gallons)
    if cost > s["cash"] and not _towed_here(s):
        _refuse(
            "not_enough_cash",
            gettext_noop("%(gallons)s gallons cost $%(need)s and you have $%(have)s."),
            need=cost,
            have=s["cash"],
            gallons=gallons,
        )


def _check_supplies(state, s, system, action):
    _activity(s, "gas", gettext_noop("Food and water are sold at the store beside the gas station."))
    units = action.get("units")
    step = MONEY["supply_step"]
    if not isinstance(units, int) or isinstance(units, bool) or units <= 0 or units % step:
        _refuse("bad_amount", gettext_noop("Supplies come in packs of %(step)s."), units=units, step=step)
    cost = units * system["supply_price"]
    if cost > s["cash"]:
        _refuse(
            "not_enough_cash",
            gettext_noop("%(units)s supplies cost $%(need)s and you have $%(have)s."),
            need=cost,
            have=s["cash"],
            units=units,
        )


def _check_destination(state, s, system, action):
    dest = action.get("destination")
    if not isinstance(dest, str) or dest not in DESTINATIONS:
        _refuse(
            "no_such_destination",
            gettext_noop("Choose the relative's home, the hotel or the public shelter."),
            destination=dest,
        )
    if not system["destination." + dest]:
        _refuse(
            "destination_closed",
            gettext_noop("The %(place)s is not taking anyone now."),
            destination=dest,
            place=DESTINATIONS[dest]["label"].lower(),
        )
    if s["destination"] == dest:
        _refuse("already_chosen", gettext_noop("That is already your destination."), destination=dest)


def _check_tow(state, s, system, action):
    if s["fuel"] > 0:
        _refuse(
            "not_empty", gettext_noop("You still have fuel: you only need a tow with an empty tank."), have=s["fuel"]
        )
    if NODES[s["pos"]].get("activity") == "gas":
        _refuse("at_gas", gettext_noop("You are at a gas station already: buy fuel here."))
    if _nearest_gas(s, system["config"]) is None:
        _refuse(
            "no_tow",
            gettext_noop(
                "No tow truck can reach you now (the roads to the gas stations are closed): wait, or stay if you are home."
            ),
        )


def _check_wait(state, s, system, action):
    return None


def _check_stay(state, s, system, action):
    if s["pos"] != HOME:
        _refuse("not_home", gettext_noop("You can only choose to stay when you are at home."))


def _check_reason(state, s, system, action):
    about, choice = action.get("about"), action.get("choice")
    if about != s["prompt"]:
        _refuse("wrong_question", gettext_noop("Answer the question on the screen."), about=about, asked=s["prompt"])
    if choice != "skip" and (not isinstance(choice, str) or choice not in REASONS[about]["choices"]):
        _refuse("bad_choice", gettext_noop("Pick one of the answers, or skip."), choice=choice)


_CHECKS = {
    "drive": _check_drive,
    "withdraw": _check_withdraw,
    "buy_home_supplies": _check_home_supplies,
    "pick_up_friends": _check_friends,
    "buy_fuel": _check_fuel,
    "buy_supplies": _check_supplies,
    "set_destination": _check_destination,
    "tow": _check_tow,
    "wait": _check_wait,
    "stay_home": _check_stay,
    "reason": _check_reason,
}


# What an action of each type may carry (students' and, last two, the teacher's), and every word
# its fields may hold: what ``canonical`` keeps of an applied action for the move log.
ACTION_FIELDS = {
    "drive": ("to",),
    "withdraw": ("amount",),
    "buy_home_supplies": (),
    "pick_up_friends": (),
    "buy_fuel": ("gallons",),
    "buy_supplies": ("units",),
    "set_destination": ("destination",),
    "tow": (),
    "wait": (),
    "stay_home": (),
    "reason": ("about", "choice"),
    "end_now": (),
    "skip": ("seat",),
}
ACTION_WORDS = frozenset(
    [
        *NODE_IDS,
        *DESTINATIONS,
        *REASONS,
        "skip",
        *(choice for reason in REASONS.values() for choice in reason["choices"]),
    ]
)


def legal(state, seat, action):
    """True if ``check`` accepts the action."""
    try:
        check(state, seat, action)
    except IllegalAction:
        return False
    return True


# --- Applying ----------------------------------------------------------------------------------


def apply(state, seat, action):
    """Validate, then play ``action`` for ``seat`` (None: teacher/system). Returns the events."""
    check(state, seat, action)
    events = []
    kind = action["type"]
    if seat is None:
        if kind == "end_now":
            state["ended"] = True
            for s in state["seats"]:
                if s["status"] == "playing":
                    s["status"] = "stopped"
                    s["prompt"] = None
            events.append({"type": "ended_now", "seat": None})
        else:
            s = state["seats"][action["seat"]]
            s["prompt"] = None
            _event(s, events, "skipped", minutes=MINUTES["skip"])
            _advance(s, MINUTES["skip"], events)
    else:
        s = state["seats"][seat]
        s["taps"] += 1
        if kind == "reason":
            s["reasons"][action["about"]] = action["choice"]
            s["prompt"] = None
            _event(s, events, "reason", about=action["about"], choice=action["choice"])
        else:
            s["turns"] += 1
            s["prompt"] = None
            _DO[kind](state, s, action, events)
    if not state["done"] and finished(state):
        _finish(state, events)
    return events


def _do_drive(state, s, action, events):
    """Roll link by link toward the target until something stops the move (the hot path)."""
    target = action["to"]
    if s["pos"] == HOME and not s["left_home"]:
        s["left_home"] = True
        _event(s, events, "left_home")
        if state["options"]["reasons"] == "on":
            s["prompt"] = "leave"
    s["visit"] = [False, False, False]
    system, until, seq = _system_span(state, s["clock"])
    while True:
        clock = s["clock"]
        if clock >= until or state["change_seq"] != seq:
            system, until, seq = _system_span(state, clock)
        pos = s["pos"]
        table = _ROUTES.get(system["config"])
        hops = table.get(target) if table is not None else None
        hop = (hops if hops is not None else _routes(system["config"], target)).get(pos)
        if hop is None:
            _event(s, events, "no_route", to=target)
            return
        if s["fuel"] <= 0:
            _event(s, events, "out_of_fuel", position=pos)
            return
        nxt, li = hop
        black, red, contraflow, link_id = _LINK_FAST[li]
        if black is None:
            need = die = None
        else:
            need = red if system["numbers"] == "red" else black
            if contraflow and system["contraflow"]:
                need = need - 2 if need > 3 else 1
            die = _die(state, s)
            if die < need:
                _event(s, events, "stuck", link=link_id, roll=die, needs=need)
                _advance(s, FAIL_MIN, events)
                return
        s["fuel"] -= 1
        s["pos"] = nxt
        clock += LINK_MIN
        s["clock"] = clock if clock < END else END
        _event(s, events, "moved", to=nxt, link=link_id, roll=die, needs=need)
        dest = NODE_DEST.get(nxt)
        if dest is not None:
            _arrive(state, s, dest, events)
            return
        if clock >= END:
            _advance(s, 0, events)
            return
        if nxt in CHANCE and _chance(state, s, events):
            return
        if nxt == target or nxt in STOPS:
            if nxt == HOME:
                _at_home(s, events)
            return
        if nxt == HOME and s["home_supplies"]:
            _at_home(s, events)
            return


def _at_home(s, events):
    if s["home_supplies"]:
        s["home_supplies"] = False
        s["secured"] = True
        _event(s, events, "home_secured", minutes=MINUTES["secure_home"])
        _advance(s, MINUTES["secure_home"], events)


def _arrive(state, s, dest, events):
    s["status"] = "arrived"
    s["arrived_at"] = s["clock"]
    if s["supplies"] < MIN_SUPPLIES:
        short = MIN_SUPPLIES - s["supplies"]
        price = system_at(state, s["clock"])["supply_price"]
        cost = short * price * MONEY["short_supply_factor"]
        _spend(s, cost)
        s["supplies"] = MIN_SUPPLIES
        s["short"] = short
        _event(s, events, "supplies_short", short=short, cost=cost)
    _event(s, events, "arrived", destination=dest)


def _chance(state, s, events):
    """Draw and follow a chance card; True if the drive stops here."""
    card_id = _draw_card(state, s)
    card = CARDS[card_id]
    s["last_card"] = [card_id, s["clock"]]
    _event(s, events, "card", card=card_id)
    for field, value in (card.get("system") or {}).items():
        _add_change(state, s["clock"], field, value, card_id, s["seat"])
    if "supplies" in card:
        use = card["supplies"] * (2 if s["friends"] and not card.get("no_double") else 1)
        s["supplies"] = max(0, s["supplies"] + use)
    if "fuel" in card:
        s["fuel"] = min(TANK, max(0, s["fuel"] + card["fuel"]))
    if "cash" in card:
        _spend(s, -card["cash"])
    if "pay_or_delay" in card:
        amount, minutes = card["pay_or_delay"]
        if s["cash"] >= amount:
            _spend(s, amount)
        else:
            _event(s, events, "no_cash", minutes=minutes)
            _advance(s, minutes, events)
    stop = bool(card.get("stop"))
    if "tired" in card:
        if s["friends"]:
            _event(s, events, "friends_drive")
            stop = False  # the friend takes the wheel and the car drives on
        else:
            _advance(s, card["tired"], events)
    if "delay" in card:
        _advance(s, card["delay"], events)
    if card.get("return_home") and s["status"] == "playing":
        _drive_home(state, s, events)
        return True
    return stop or s["status"] != "playing"


def _drive_home(state, s, events):
    """A card sends the family home: they drive the roads open now, link by link, without dice
    (they turn back against the outbound traffic), 30 minutes and a gallon a link. Closed
    bridges and contraflow lanes are not driven: with no open road home, or when the tank or
    the clock runs out on the way, the family stays where it stopped and the card's promise
    of no home damage does not hold."""
    links = 0
    while s["pos"] != HOME:
        hop = _routes(system_at(state, s["clock"])["config"], HOME).get(s["pos"])
        if hop is None:
            _event(s, events, "no_way_home", links=links)
            return
        if s["fuel"] <= 0:
            _event(s, events, "out_of_fuel", position=s["pos"])
            return
        nxt, li = hop
        s["fuel"] -= 1
        s["pos"] = nxt
        links += 1
        _event(s, events, "drove_back", to=nxt, link=LINKS[li]["id"])
        _advance(s, LINK_MIN, events)
        if s["status"] != "playing":
            return
    s["card_home"] = True
    _event(s, events, "sent_home", links=links, minutes=links * LINK_MIN)
    _at_home(s, events)


def _do_withdraw(state, s, action, events):
    amount = action["amount"]
    s["cash"] += amount
    s["withdrawn"] += amount
    s["visit"][0] = True
    _event(s, events, "withdrew", amount=amount)
    _advance(s, MINUTES["bank"], events)


def _do_home_supplies(state, s, action, events):
    _spend(s, MONEY["home_supplies"])
    s["home_supplies"] = True
    _event(s, events, "bought_home_supplies", cost=MONEY["home_supplies"])
    _advance(s, MINUTES["home_supplies"], events)


def _do_friends(state, s, action, events):
    s["friends"] = True
    _event(s, events, "picked_up_friends")
    _advance(s, MINUTES["friends"], events)


def _both_bought(s, events):
    if s["visit"][1] and s["visit"][2]:
        _event(s, events, "lost_turn", minutes=MINUTES["lost_turn"])
        _advance(s, MINUTES["lost_turn"], events)


def _do_fuel(state, s, action, events):
    system = system_at(state, s["clock"])
    price = _fuel_price_here(s, system)
    gallons = action["gallons"]
    cost = _fuel_cost(s, price, gallons)
    _spend(s, cost)
    s["fuel"] += gallons
    if NODES[s["pos"]]["activity"] == "gas":
        s["tow_price"] = False
    first = not s["visit"][1]
    s["visit"][1] = True
    _event(s, events, "bought_fuel", gallons=gallons, cost=cost)
    _advance(s, MINUTES["buy_fuel"], events)
    if first and NODES[s["pos"]]["activity"] == "gas" and s["status"] == "playing":
        _both_bought(s, events)


def _do_supplies(state, s, action, events):
    system = system_at(state, s["clock"])
    units = action["units"]
    cost = units * system["supply_price"]
    _spend(s, cost)
    s["supplies"] += units
    first = not s["visit"][2]
    s["visit"][2] = True
    _event(s, events, "bought_supplies", units=units, cost=cost)
    _advance(s, MINUTES["buy_supplies"], events)
    if first and s["status"] == "playing":
        _both_bought(s, events)


def _do_destination(state, s, action, events):
    s["destination"] = action["destination"]
    _event(s, events, "destination", destination=action["destination"])
    if state["options"]["reasons"] == "on":
        s["prompt"] = "destination"


def _do_tow(state, s, action, events):
    gas, _ = _nearest_gas(s, system_at(state, s["clock"])["config"])
    _spend(s, MONEY["tow"])
    s["pos"] = gas
    s["tow_price"] = gas
    s["visit"] = [False, False, False]
    _event(s, events, "towed", to=gas, cost=MONEY["tow"])
    _advance(s, MINUTES["tow"], events)


def _do_wait(state, s, action, events):
    _event(s, events, "waited", minutes=MINUTES["wait"])
    _advance(s, MINUTES["wait"], events)


def _do_stay(state, s, action, events):
    s["status"] = "stayed"
    _event(s, events, "stayed_home")


_DO = {
    "drive": _do_drive,
    "withdraw": _do_withdraw,
    "buy_home_supplies": _do_home_supplies,
    "pick_up_friends": _do_friends,
    "buy_fuel": _do_fuel,
    "buy_supplies": _do_supplies,
    "set_destination": _do_destination,
    "tow": _do_tow,
    "wait": _do_wait,
    "stay_home": _do_stay,
}


def _finish(state, events):
    """End of the game: each home's damage roll (none if a card sent that family home)."""
    state["done"] = True
    forced = (state.get("forced") or {}).get("damage", {})
    for s in state["seats"]:
        if s["card_home"]:
            s["damage_roll"] = 0
        else:
            s["damage_roll"] = forced.get(str(s["seat"]), roll(state["seed"], "damage", s["seat"], 0))
    events.append({"type": "game_over", "seat": None})


# --- Reading the state -------------------------------------------------------------------------


def finished(state):
    """True when every seat has arrived, stayed or run out of time, or the teacher ended it."""
    return state["ended"] or all(s["status"] != "playing" for s in state["seats"])


def to_act(state):
    """Every seat still playing (all at once: nobody waits for another seat's turn)."""
    if state["ended"]:
        return []
    return [s["seat"] for s in state["seats"] if s["status"] == "playing"]


def actions(state, seat):
    """Every legal action for ``seat`` now (amounts offered as a few sensible choices)."""
    s = state["seats"][seat]
    out = []
    if s["prompt"]:
        about = s["prompt"]
        out += [{"type": "reason", "about": about, "choice": c} for c in REASONS[about]["choices"]]
        out.append({"type": "reason", "about": about, "choice": "skip"})
    if state["ended"] or s["status"] != "playing":
        return out
    system = system_at(state, s["clock"])
    pos, config = s["pos"], system["config"]
    if s["fuel"] > 0:
        for node_id in NODE_IDS:
            if node_id == pos:
                continue
            action = {"type": "drive", "to": node_id}
            if node_id in NODE_DEST:
                # The checks below refuse every destination but the chosen one: skip those
                # first, as raising a refusal per place for every view adds up at every tap.
                if NODE_DEST[node_id] == s["destination"] and _ok(_check_drive, state, s, system, action):
                    out.append(action)
            elif pos in _routes(config, node_id):
                out.append(action)
    activity = NODES[s["pos"]].get("activity")
    if activity == "bank" and not s["visit"][0]:
        left = min(MONEY["bank_trip"], MONEY["bank_total"] - s["withdrawn"])
        out += [{"type": "withdraw", "amount": a} for a in range(MONEY["bank_step"], left + 1, MONEY["bank_step"])]
    if activity == "home_supply" and _ok(_check_home_supplies, state, s, system, {}):
        out.append({"type": "buy_home_supplies"})
    if activity == "friends" and not s["friends"]:
        out.append({"type": "pick_up_friends"})
    price = _fuel_price_here(s, system)
    if price is not None:
        most = _max_gallons(s, system, price)
        for g in sorted({g for g in (5, 10, 15) if g < most} | ({most} if most > 0 else set())):
            out.append({"type": "buy_fuel", "gallons": g})
    if activity == "gas":
        step = MONEY["supply_step"]
        for units in (step, 2 * step):
            if units * system["supply_price"] <= s["cash"]:
                out.append({"type": "buy_supplies", "units": units})
    for dest in DESTINATIONS:
        if dest != s["destination"] and system["destination." + dest]:
            out.append({"type": "set_destination", "destination": dest})
    if s["fuel"] <= 0 and _ok(_check_tow, state, s, system, {}):
        out.append({"type": "tow"})
    out.append({"type": "wait"})
    if s["pos"] == HOME:
        out.append({"type": "stay_home"})
    return out


def _ok(fn, state, s, system, action):
    try:
        fn(state, s, system, action)
    except IllegalAction:
        return False
    return True
