"""The rules of "Hurricane Approaching!" (Murray-Tuite, Virginia Tech, 2013) as pure functions.

The state is a plain JSON-ready dict (see ``new_state``), changed in place by ``apply`` only
after ``check`` has accepted the action, so a refused action never changes anything. Every
interpretation of the rule book is written down in ``RULES.md`` beside this file.
"""
from __future__ import annotations

import hashlib
import heapq
from bisect import bisect_right
from pathlib import Path

from ..base import IllegalAction, json_copy, load_content, roll, rules_fingerprint
from ..words import english, gettext_noop, said  # gettext_noop marks sentences for the web layer to translate

VERSION = "1.1.0"
SCHEMA_VERSION = 1
CONTENT, CONTENT_HASH = load_content(
    Path(__file__).parent / "content", ["network.json", "cards.json", "rules.json"]
)
#: Content fields that are words: they may be corrected in place (RULES.md, "Content versions").
WORDS = frozenset({"about", "title", "text", "basis", "source", "fact", "grade", "url", "label", "name",
                   "reasons", "consequences"})
RULES_FINGERPRINT = rules_fingerprint(CONTENT, WORDS)
NETWORK = CONTENT["network"]
CARDS = {card["id"]: card for card in CONTENT["cards"]["cards"]}
CARD_IDS = [card["id"] for card in CONTENT["cards"]["cards"]]
BOOK = CONTENT["rules"]

END = BOOK["clock"]["end_minute"]
LINK_MIN = BOOK["clock"]["link_minutes"]
FAIL_MIN = BOOK["clock"]["failed_roll_minutes"]
MINUTES = BOOK["minutes"]
MONEY = BOOK["money"]
START = BOOK["start"]
TANK = START["tank"]
MIN_SUPPLIES = START["min_supplies_on_arrival"]
BASE_SYSTEM = BOOK["system"]
DESTINATIONS = BOOK["destinations"]
REASONS = BOOK["reasons"]
HOME = "H"

NODES = {node["id"]: node for node in NETWORK["nodes"]}
NODE_IDS = [node["id"] for node in NETWORK["nodes"]]
DEST_NODE = {n["destination"]: n["id"] for n in NETWORK["nodes"] if n["kind"] == "destination"}
NODE_DEST = {v: k for k, v in DEST_NODE.items()}
GAS = tuple(n["id"] for n in NETWORK["nodes"] if n.get("activity") == "gas")
STOPS = frozenset(n["id"] for n in NETWORK["nodes"] if n["kind"] in ("activity", "destination"))
CHANCE = frozenset(n["id"] for n in NETWORK["nodes"] if n["kind"] == "chance")
LINKS = []
for _i, _link in enumerate(NETWORK["links"]):
    LINKS.append({
        "id": f"L{_i + 1}", "a": _link["a"], "b": _link["b"],
        "black": _link.get("black"), "red": _link.get("red"),
        "bridge": _link.get("bridge"), "name": _link.get("name"),
        "contraflow": bool(_link.get("contraflow")),
    })
# Per link, for the drive loop: (black, red, contraflow, id); black is None for a bridge.
_LINK_FAST = [(lk["black"], lk["red"], lk["contraflow"], lk["id"]) for lk in LINKS]
# ADJ[node] = [(neighbour, link index, inbound)]: inbound means driving b -> a, toward home.
ADJ = {node_id: [] for node_id in NODE_IDS}
for _i, _link in enumerate(LINKS):
    ADJ[_link["a"]].append((_link["b"], _i, False))
    ADJ[_link["b"]].append((_link["a"], _i, True))

OPTIONS = [
    {"name": "destination_points", "label": gettext_noop("Points for the destination"),
     "default": "scoring", "choices": ["scoring", "table"],
     "choice_labels": {"scoring": gettext_noop("Scoring section"), "table": gettext_noop("Destination table")},
     "description": gettext_noop("Points for where you end up. Scoring section (of the rule book): relative 25, "
                                 "hotel 20, shelter 5. Destination table (of the book): relative 50, hotel 25, "
                                 "shelter 5.")},
    {"name": "bank_scoring", "label": gettext_noop("Cash from the bank"),
     "default": "net", "choices": ["net", "book"],
     "choice_labels": {"net": gettext_noop("Savings"), "book": gettext_noop("As the book")},
     "description": gettext_noop("Savings: cash taken from the bank is your own savings moved to your pocket, "
                                 "so it does not add points (it lets you pay on the road). As the book: every "
                                 "dollar in your pocket scores (bank trips then add up to 40 points).")},
    {"name": "race_points", "label": gettext_noop("Points for arriving first"),
     "default": "half", "choices": ["on", "half", "off"],
     "choice_labels": {"on": gettext_noop("Full"), "half": gettext_noop("Half"), "off": gettext_noop("Off")},
     "description": gettext_noop("Points for the order of arrival at the table. Full (the book): 30/20/10 to "
                                 "the first, second and third. Half (default): 15/10/5, so preparing the "
                                 "home and leaving early both pay, and racing the table does not beat "
                                 "preparing. Off: none. The 20 points for arriving in time always stay.")},
    {"name": "timeline", "label": gettext_noop("Warning timeline"),
     "default": "on", "choices": ["on", "off"],
     "choice_labels": {"on": gettext_noop("On"), "off": gettext_noop("Off")},
     "description": gettext_noop("On: the warning timeline changes the roads on the clock (contraflow at "
                                 "hour 14, heavy traffic 16-30, fuel limits at 36, causeway closes at 40, all "
                                 "bridges at 44). Off: only chance cards change the state of the system.")},
    {"name": "reasons", "label": gettext_noop("Ask why"),
     "default": "on", "choices": ["on", "off"],
     "choice_labels": {"on": gettext_noop("On"), "off": gettext_noop("Off")},
     "description": gettext_noop("Ask a one-tap reason when a player leaves home and chooses a destination.")},
]
RACE_FACTOR = {"on": 1, "half": 0.5, "off": 0}
OPTION_DEFAULTS = {o["name"]: o["default"] for o in OPTIONS}


def _chance_in_10(threshold):
    """Of the d10's ten faces (``_die``: 1..10), how many make a road that needs ``threshold``."""
    return 11 - threshold


def _needs_say(threshold):
    """What a road's odds say (``scenarios.words.SAY``), for its ``needs_label``."""
    if threshold is None:
        return said(gettext_noop("bridge: open means no roll"))
    return said(gettext_noop("needs %(needs)s+ (%(chance)s in 10)"), needs=threshold, chance=_chance_in_10(threshold))


def _needs_label(threshold):
    line = _needs_say(threshold)
    return english(line["template"], line["params"])


def _refuse(code, message, **params):
    raise IllegalAction(code, message, **params)


# --- State -------------------------------------------------------------------------------------

def new_state(seed, seats, options=None):
    """A new game: every seat at home at hour 0 with 50 supplies, 10 + d10 gallons, $100 x d10."""
    if not isinstance(seats, int) or not 1 <= seats <= 8:
        _refuse("bad_seats", gettext_noop("A table has 1 to 8 seats."), seats=seats)
    opts = dict(OPTION_DEFAULTS)
    for key, value in (options or {}).items():
        spec = next((o for o in OPTIONS if o["name"] == key), None)
        if spec is None or value not in spec["choices"]:
            _refuse("bad_option", gettext_noop("Unknown option %(name)s=%(value)s."), name=key, value=value)
        opts[key] = value
    seed = int(seed)
    state = {
        "engine": "evacuation", "version": VERSION, "schema": SCHEMA_VERSION,
        "content_hash": CONTENT_HASH, "seed": seed, "options": opts,
        "changes": [], "change_seq": 0, "ended": False, "done": False, "seats": [],
    }
    if opts["timeline"] == "on":
        for item in BOOK["timeline"]:
            for field, value in (item.get("system") or {}).items():
                _add_change(state, item["minute"], field, value, "timeline", None)
    for i in range(seats):
        fuel = START["fuel_base"] + roll(seed, "setup", i, 0)
        cash = START["cash_per_pip"] * roll(seed, "setup", i, 1)
        state["seats"].append({
            "seat": i, "pos": HOME, "clock": 0, "status": "playing",
            "fuel": fuel, "cash": cash, "supplies": START["supplies"],
            "start_fuel": fuel, "start_cash": cash, "withdrawn": 0, "spent": 0,
            "friends": False, "home_supplies": False, "secured": False, "card_home": False,
            "destination": None, "arrived_at": None, "left_home": False, "short": 0,
            "visit": [False, False, False], "tow_price": False,
            "dice": 0, "cards": 0, "turns": 0, "taps": 0, "prompt": None, "reasons": {},
            "last_card": None, "feed": [], "damage_roll": None,
        })
    return state


def _add_change(state, minute, field, value, source, seat):
    changes = state["changes"]
    seq = state["change_seq"]
    state["change_seq"] = seq + 1
    entry = [minute, seq, field, value, source, seat]
    memo = _SYSTEM_MEMO.get(id(changes))
    if memo is not None and memo[0] is changes and memo[1] == seq:
        # Update the memoised snapshots from the insertion point on, instead of rebuilding.
        _, _, stamps, snapshots = memo
        k = bisect_right(stamps, minute)
        changes.insert(k, entry)
        stamps.insert(k, minute)
        system = snapshots[k]
        del snapshots[k + 1:]
        for change in changes[k:]:
            system = dict(system)
            system[change[2]] = change[3]
            system["config"] = _config(system)
            snapshots.append(system)
        _SYSTEM_MEMO[id(changes)] = (changes, seq + 1, stamps, snapshots)
        return
    keys = [c[0] for c in changes]
    changes.insert(bisect_right(keys, minute), entry)


# Snapshots of the system after each change, memoised per changes list. The memo holds the list
# itself, so its id cannot be reused by another list while the entry lives; ``change_seq`` moves
# on every change, so a stale entry is never read. Snapshots are shared: never mutate them.
_SYSTEM_MEMO: dict = {}


def system_at(state, minute):
    """The state of the system a seat sees at ``minute`` of its own clock (do not mutate)."""
    changes = state["changes"]
    entry = _SYSTEM_MEMO.get(id(changes))
    if entry is None or entry[0] is not changes or entry[1] != state["change_seq"]:
        if len(_SYSTEM_MEMO) > 512:
            _SYSTEM_MEMO.clear()
        system = dict(BASE_SYSTEM)
        system["config"] = _config(system)
        stamps, snapshots = [], [system]
        for change in changes:
            system = dict(system)
            system[change[2]] = change[3]
            system["config"] = _config(system)
            stamps.append(change[0])
            snapshots.append(system)
        entry = _SYSTEM_MEMO[id(changes)] = (changes, state["change_seq"], stamps, snapshots)
    return entry[3][bisect_right(entry[2], minute)]


def _system_span(state, minute):
    """(system at ``minute``, first minute it may change, change_seq it was read at)."""
    system = system_at(state, minute)
    stamps = _SYSTEM_MEMO[id(state["changes"])][2]
    i = bisect_right(stamps, minute)
    return system, (stamps[i] if i < len(stamps) else END + 1), state["change_seq"]


def final_system(state):
    """The state of the system at hour 48: every stamped change applied (used for scoring)."""
    return system_at(state, END)


# --- Routing -----------------------------------------------------------------------------------
# One table of next hops per configuration of bridges and contraflow (16 at most), built lazily.

_ROUTES: dict = {}


def _config(system):
    return (system["bridge.west"], system["bridge.bay"], system["bridge.east"], system["contraflow"])


def _allowed(link, inbound, config):
    bridge = link["bridge"]
    if bridge and not config[("west", "bay", "east").index(bridge)]:
        return False
    return not (inbound and config[3] and link["contraflow"])


def _routes(config, target):
    """Next hop toward ``target`` from every node that can reach it: {node: (next, link)}."""
    table = _ROUTES.get(config)
    if table is None:
        table = _ROUTES[config] = {}
    hops = table.get(target)
    if hops is not None:
        return hops
    dist = {target: 0.0}
    hops = {}
    heap = [(0.0, target)]
    while heap:
        d, v = heapq.heappop(heap)
        if d > dist[v]:
            continue
        # Entering v from u: prefer easy roads, avoid stopping at activities on the way, and
        # never pass through a destination or home that is not the target.
        penalty = 0.0
        if v != target:
            if v in DEST_NODE.values() or v == HOME:
                continue
            if v in STOPS:
                penalty = 2.5
        for u, li, inbound_from_v in ADJ[v]:
            link = LINKS[li]
            # Edge u -> v is inbound exactly when v -> u is outbound.
            if not _allowed(link, not inbound_from_v, config):
                continue
            cost = d + 1.0 + (link["black"] or 0) / 10.0 + penalty
            if cost < dist.get(u, 1e18):
                dist[u] = cost
                hops[u] = (v, li)
                heapq.heappush(heap, (cost, u))
    hops.pop(target, None)
    table[target] = hops
    return hops


_HOPS: dict = {}


def hops(config, start, target):
    """Links on the drive route from ``start`` to ``target`` (None if there is no route)."""
    key = (config, start, target)
    if key not in _HOPS:
        table, node, count = _routes(config, target), start, 0
        while node != target and node in table:
            node = table[node][0]
            count += 1
        _HOPS[key] = count if node == target else None
    return _HOPS[key]


def threshold(link, system):
    """The roll a link needs now (None for an open bridge: no roll)."""
    if link["bridge"]:
        return None
    t = link["red"] if system["numbers"] == "red" else link["black"]
    if system["contraflow"] and link["contraflow"]:
        t = max(1, t - 2)
    return t


# --- Dice and cards ----------------------------------------------------------------------------

def force(state, seat, dice=(), cards=(), damage=None):
    """Test helper: queue dice and card ids a seat will get next, and its damage roll.

    Production never calls this; the queues live in the state so dumps and replays keep them.
    """
    forced = state.setdefault("forced", {})
    forced.setdefault("dice", {}).setdefault(str(seat), []).extend(int(d) for d in dice)
    forced.setdefault("cards", {}).setdefault(str(seat), []).extend(cards)
    if damage is not None:
        forced.setdefault("damage", {})[str(seat)] = int(damage)


_DICE_PREFIX: dict = {}


def _die(state, s):
    """The seat's next d10 (1..10): ``base.roll(seed, "move", seat, n)``, prefix hashed once."""
    forced = state.get("forced")
    if forced:
        queue = forced.get("dice", {}).get(str(s["seat"]))
        if queue:
            return queue.pop(0)
    n = s["dice"]
    s["dice"] = n + 1
    key = (state["seed"], s["seat"])
    prefix = _DICE_PREFIX.get(key)
    if prefix is None:
        if len(_DICE_PREFIX) > 4096:
            _DICE_PREFIX.clear()
        prefix = _DICE_PREFIX[key] = hashlib.blake2b(f"{key[0]}:move:{key[1]}:".encode(), digest_size=8)
    h = prefix.copy()
    h.update(str(n).encode())
    return int.from_bytes(h.digest(), "big") % 10 + 1


_DECKS: dict = {}


def _shuffled_deck(seed, seat, n):
    """``base.shuffled(CARD_IDS, seed, "deck", seat, n)``, with the key prefix hashed once."""
    prefix = hashlib.blake2b(f"{seed}:deck/{n}:{seat}:".encode(), digest_size=8)
    keyed = []
    for i, card_id in enumerate(CARD_IDS):
        h = prefix.copy()
        h.update(str(i).encode())
        keyed.append((int.from_bytes(h.digest(), "big"), card_id))
    keyed.sort(key=lambda pair: pair[0])
    return [card_id for _, card_id in keyed]


def _draw_card(state, s):
    forced = state.get("forced")
    if forced:
        queue = forced.get("cards", {}).get(str(s["seat"]))
        if queue:
            return queue.pop(0)
    n = s["cards"]
    s["cards"] = n + 1
    key = (state["seed"], s["seat"], n // len(CARD_IDS))
    deck = _DECKS.get(key)
    if deck is None:
        if len(_DECKS) > 4096:
            _DECKS.clear()
        deck = _DECKS[key] = _shuffled_deck(state["seed"], s["seat"], key[2])
    return deck[n % len(CARD_IDS)]


# --- Helpers -----------------------------------------------------------------------------------

def _seat(state, seat):
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(state["seats"]):
        _refuse("no_such_seat", gettext_noop("That seat is not at this table."), seat=seat)
    return state["seats"][seat]


def _event(s, events, kind, **data):
    data["type"] = kind
    data["seat"] = s["seat"]
    data["minute"] = s["clock"]
    events.append(data)
    feed = s["feed"]
    feed.append(data)
    if len(feed) > 8:
        del feed[0]
    return data


def _advance(s, minutes, events):
    """Spend game time; a seat still playing at hour 48 is out of time."""
    clock = s["clock"] + minutes
    if clock >= END:
        clock = END
    s["clock"] = clock
    if clock >= END and s["status"] == "playing":
        s["status"] = "out_of_time"
        _event(s, events, "out_of_time", position=s["pos"])


def _spend(s, amount):
    s["cash"] -= amount
    s["spent"] += amount


def _fuel_price_here(s, system):
    """Dollars per gallon at the seat's position, or None where fuel is not sold."""
    node = NODES[s["pos"]]
    if node["kind"] != "activity":
        return None
    price = system["fuel_price"]
    if node["activity"] == "gas":
        return price * MONEY["tow_fuel_factor"] if _towed_here(s) else price
    return price * MONEY["elsewhere_fuel_factor"]


def _towed_here(s):
    """True at the station a tow brought the seat to, until its first fill-up there. States
    stored by engine 1.0.0 hold ``True`` instead of the station's id."""
    return s["tow_price"] is True or s["tow_price"] == s["pos"]


def _fuel_cost(s, price, gallons):
    cost = price * gallons
    return (cost + 1) // 2 if s["friends"] else cost


def _max_gallons(s, system, price):
    room = min(TANK - s["fuel"], system["fuel_limit"])
    if _towed_here(s):
        return room  # the fill-up after a tow is part of the tow: it may leave cash negative
    while room > 0 and _fuel_cost(s, price, room) > s["cash"]:
        room -= 1
    return room


_NEAREST_GAS: dict = {}


def _nearest_gas(s, config):
    """(gas station, links) nearest by road from the seat's position, or None if none is reachable."""
    key = (s["pos"], config)
    if key not in _NEAREST_GAS:
        _NEAREST_GAS[key] = _find_nearest_gas(s["pos"], config)
    return _NEAREST_GAS[key]


def _find_nearest_gas(pos, config):
    best = None
    for gas in GAS:
        if gas == pos:
            return gas, 0
        steps, node = 0, pos
        hops = _routes(config, gas)
        while node != gas:
            hop = hops.get(node)
            if hop is None:
                steps = None
                break
            node = hop[0]
            steps += 1
        if steps is not None and (best is None or steps < best[1]):
            best = (gas, steps)
    return best


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
        _refuse("not_enough_fuel", gettext_noop("You have 0 gallons left: buy fuel here if you can, or call a tow."),
                need=1, have=0)
    config = system["config"]
    dest = NODE_DEST.get(to)
    if dest is not None:
        if not system["destination." + dest]:
            _refuse("destination_closed", gettext_noop("The %(place)s is not taking anyone now: choose another place."),
                    destination=dest, place=DESTINATIONS[dest]["label"].lower())
        if s["destination"] != dest:
            _refuse("choose_destination_first", gettext_noop("Choose the %(place)s as your destination first."),
                    destination=dest, place=DESTINATIONS[dest]["label"].lower())
        if s["home_supplies"] and s["pos"] != HOME and s["pos"] in _routes(config, HOME):
            _refuse("secure_home_first", gettext_noop("You bought shutters and plywood: drive home to put them up before you leave for good."))
    if s["pos"] not in _routes(config, to):
        _refuse("no_route", gettext_noop("No open road goes there from here right now (a bridge may be closed, or contraflow runs the other way)."),
                to=to)
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
        _refuse("bank_trip_used", gettext_noop("You already took cash on this trip: drive away and come back for more."))
    if left <= 0:
        _refuse("bank_limit", gettext_noop("You have taken out the most the bank allows ($4,000)."), limit=MONEY["bank_total"])
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0 or amount > left or amount % MONEY["bank_step"]:
        _refuse("bad_amount", gettext_noop("Choose $500, $1,000, ... up to $%(most)s."), amount=amount, most=left)


def _check_home_supplies(state, s, system, action):
    _activity(s, "home_supply", gettext_noop("Shutters and plywood are sold at the home supply store."))
    if s["home_supplies"] or s["secured"]:
        _refuse("already_have", gettext_noop("You already have supplies for your home."))
    if s["cash"] < MONEY["home_supplies"]:
        _refuse("not_enough_cash", gettext_noop("Home supplies cost $%(need)s and you have $%(have)s: visit the bank first."),
                need=MONEY["home_supplies"], have=s["cash"])


def _check_friends(state, s, system, action):
    _activity(s, "friends", gettext_noop("Your friends are waiting at their house."))
    if s["friends"]:
        _refuse("already_have", gettext_noop("Your friends are already in the car."))


def _check_fuel(state, s, system, action):
    price = _fuel_price_here(s, system)
    if price is None:
        _refuse("wrong_place", gettext_noop("Fuel is sold at the gas stations (and for 3 times the price at the bank, the home supply store and your friends' house)."))
    gallons = action.get("gallons")
    if not isinstance(gallons, int) or isinstance(gallons, bool) or gallons <= 0:
        _refuse("bad_amount", gettext_noop("Choose how many gallons."), gallons=gallons)
    if s["fuel"] + gallons > TANK:
        _refuse("tank_full", gettext_noop("Your tank holds %(tank)s gallons and has %(fuel)s."), room=TANK - s["fuel"],
                tank=TANK, fuel=s["fuel"])
    if gallons > system["fuel_limit"]:
        _refuse("fuel_limit", gettext_noop("Stations sell at most %(limit)s gallons per car right now."),
                limit=system["fuel_limit"])
    cost = _fuel_cost(s, price, gallons)
    if cost > s["cash"] and not _towed_here(s):
        _refuse("not_enough_cash", gettext_noop("%(gallons)s gallons cost $%(need)s and you have $%(have)s."),
                need=cost, have=s["cash"], gallons=gallons)


def _check_supplies(state, s, system, action):
    _activity(s, "gas", gettext_noop("Food and water are sold at the store beside the gas station."))
    units = action.get("units")
    step = MONEY["supply_step"]
    if not isinstance(units, int) or isinstance(units, bool) or units <= 0 or units % step:
        _refuse("bad_amount", gettext_noop("Supplies come in packs of %(step)s."), units=units, step=step)
    cost = units * system["supply_price"]
    if cost > s["cash"]:
        _refuse("not_enough_cash", gettext_noop("%(units)s supplies cost $%(need)s and you have $%(have)s."),
                need=cost, have=s["cash"], units=units)


def _check_destination(state, s, system, action):
    dest = action.get("destination")
    if not isinstance(dest, str) or dest not in DESTINATIONS:
        _refuse("no_such_destination", gettext_noop("Choose the relative's home, the hotel or the public shelter."), destination=dest)
    if not system["destination." + dest]:
        _refuse("destination_closed", gettext_noop("The %(place)s is not taking anyone now."), destination=dest,
                place=DESTINATIONS[dest]["label"].lower())
    if s["destination"] == dest:
        _refuse("already_chosen", gettext_noop("That is already your destination."), destination=dest)


def _check_tow(state, s, system, action):
    if s["fuel"] > 0:
        _refuse("not_empty", gettext_noop("You still have fuel: you only need a tow with an empty tank."), have=s["fuel"])
    if NODES[s["pos"]].get("activity") == "gas":
        _refuse("at_gas", gettext_noop("You are at a gas station already: buy fuel here."))
    if _nearest_gas(s, system["config"]) is None:
        _refuse("no_tow", gettext_noop("No tow truck can reach you now (the roads to the gas stations are closed): wait, or stay if you are home."))


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
    "drive": _check_drive, "withdraw": _check_withdraw, "buy_home_supplies": _check_home_supplies,
    "pick_up_friends": _check_friends, "buy_fuel": _check_fuel, "buy_supplies": _check_supplies,
    "set_destination": _check_destination, "tow": _check_tow, "wait": _check_wait,
    "stay_home": _check_stay, "reason": _check_reason,
}


# What an action of each type may carry (students' and, last two, the teacher's), and every word
# its fields may hold: what ``canonical`` keeps of an applied action for the move log.
ACTION_FIELDS = {
    "drive": ("to",), "withdraw": ("amount",), "buy_home_supplies": (), "pick_up_friends": (),
    "buy_fuel": ("gallons",), "buy_supplies": ("units",), "set_destination": ("destination",),
    "tow": (), "wait": (), "stay_home": (), "reason": ("about", "choice"),
    "end_now": (), "skip": ("seat",),
}
ACTION_WORDS = frozenset([*NODE_IDS, *DESTINATIONS, *REASONS, "skip",
                          *(choice for reason in REASONS.values() for choice in reason["choices"])])


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
    "drive": _do_drive, "withdraw": _do_withdraw, "buy_home_supplies": _do_home_supplies,
    "pick_up_friends": _do_friends, "buy_fuel": _do_fuel, "buy_supplies": _do_supplies,
    "set_destination": _do_destination, "tow": _do_tow, "wait": _do_wait, "stay_home": _do_stay,
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


# --- Scoring -----------------------------------------------------------------------------------

def _arrival_points(state):
    order = BOOK["time_points"]["order"]
    arrived = sorted((s["arrived_at"], s["seat"]) for s in state["seats"] if s["status"] == "arrived")
    points, i = {}, 0
    while i < len(arrived):
        j = i
        while j < len(arrived) and arrived[j][0] == arrived[i][0]:
            j += 1
        share = round(sum(order[k] if k < len(order) else 0 for k in range(i, j)) / (j - i), 2)
        for k in range(i, j):
            points[arrived[k][1]] = share
        i = j
    return points


def results(state):
    """Per seat: points and safety side by side. Valid once finished; provisional before."""
    opts = state["options"]
    system = final_system(state)
    dest_points = BOOK["destination_points"][opts["destination_points"]]
    order_points = _arrival_points(state)
    rows = []
    for s in state["seats"]:
        arrived = s["status"] == "arrived"
        dest = s["destination"] if arrived else None
        accommodation = DESTINATIONS[dest]["cost"] if dest else 0
        if s["friends"]:
            accommodation //= 2
        die = s["damage_roll"]
        damage = 0
        if die is not None:
            reduce = MONEY["secured_reduction"] if s["secured"] else 0
            damage = max(0, die - reduce) * MONEY["damage_per_pip"]
        fuel_value = s["fuel"] * system["fuel_price"]
        supply_value = s["supplies"] * system["supply_price"]
        savings = s["withdrawn"] if opts["bank_scoring"] == "net" else 0
        total_cash = s["cash"] - savings + fuel_value + supply_value - damage - accommodation
        cash_points = total_cash / 100
        destination_points = dest_points[dest] if dest else 0
        in_time = BOOK["time_points"]["in_time"] if arrived else 0
        order = round(order_points.get(s["seat"], 0) * RACE_FACTOR[opts.get("race_points", "on")], 2)
        score = round(cash_points + destination_points + in_time + order, 2)
        rows.append({
            "seat": s["seat"], "score": score, "rank": None,
            "breakdown": {
                "points": {"cash": round(cash_points, 2), "destination": destination_points,
                           "in_time": in_time, "arrival_order": order, "total": score},
                "cash": {"on_hand": s["cash"], "bank_savings_not_scored": savings,
                         "fuel_value": fuel_value, "supply_value": supply_value,
                         "home_damage": damage, "damage_roll": die, "accommodation": accommodation,
                         "total": total_cash},
                "safety": {"arrived_in_time": arrived, "home_secured": s["secured"],
                           "supplies": s["supplies"], "supplies_short_on_arrival": s["short"],
                           "fuel": s["fuel"], "destination": dest or "none",
                           "outcome": _outcome(s), "arrived_hour": None if s["arrived_at"] is None else s["arrived_at"] / 60,
                           "sent_home_by_card": s["card_home"], "friends": s["friends"]},
            },
        })
    for row in rows:
        row["rank"] = 1 + sum(1 for other in rows if other["score"] > row["score"])
    return rows


def _outcome(s):
    status = s["status"]
    if status == "arrived":
        return "evacuated"
    if status == "stayed" or (s["pos"] == HOME and not s["left_home"]):
        return "stayed home"
    if status == "stopped":
        return "game ended early"
    return "caught on the road"


# --- Dump and load -----------------------------------------------------------------------------

def dump(state):
    """A JSON-ready deep copy (the state is plain JSON already)."""
    return json_copy(state)


def load(data):
    """The state from ``dump``; schema 1 is current (upgrades of later schemas go here, in order)."""
    state = json_copy(data)
    if state.get("schema") != SCHEMA_VERSION:
        raise ValueError(f"Unknown evacuation state schema {state.get('schema')!r}")
    return state


# --- What the screens show ---------------------------------------------------------------------

def board():
    """Everything that never changes during a game: sent once, cached by content hash."""
    return {
        "key": "evacuation", "version": VERSION, "content_hash": CONTENT_HASH,
        "box": [1000, 1000], "water": NETWORK["water"],
        "nodes": [dict(n) for n in NETWORK["nodes"]],
        "links": [{
            **link,
            "black_label": _needs_label(link["black"]), "red_label": _needs_label(link["red"]),
            "contraflow_black_label": _needs_label(None if link["bridge"] else max(1, link["black"] - 2)) if link["contraflow"] else None,
            "contraflow_red_label": _needs_label(None if link["bridge"] else max(1, link["red"] - 2)) if link["contraflow"] else None,
            "needs": {column: threshold(link, system) for column, system in _NEED_COLUMNS.items()},
        } for link in LINKS],
        "chance_in_10": {str(t): _chance_in_10(t) for t in range(1, 11)},
        "cards": [dict(CARDS[c]) for c in CARD_IDS],
        "destinations": {k: {**v, "points": {name: table[k] for name, table in BOOK["destination_points"].items()}}
                         for k, v in DESTINATIONS.items()},
        "timeline": [dict(item) for item in BOOK["timeline"]],
        "reasons": REASONS, "consequences": BOOK["consequences"], "options": options(),
        "rules": {"minutes": MINUTES, "money": MONEY, "start": START, "clock": BOOK["clock"],
                  "time_points": BOOK["time_points"]},
        "die": "d10, 0 counts as 10; a road marked 3 needs 3 or more: 'needs 3+ (8 in 10)'",
    }


# The roll a link needs depends on the system only through these two fields: the board lists
# each link's need for every combination, and a view names the column that applies.
_NEED_COLUMNS = {f"{numbers}{'+contraflow' if contraflow else ''}": {"numbers": numbers, "contraflow": contraflow}
                 for numbers in ("black", "red") for contraflow in (False, True)}


def _need_column(system):
    return f"{system['numbers']}{'+contraflow' if system['contraflow'] else ''}"


def options():
    """The teacher's session options: name, default, choices, description."""
    return [dict(o) for o in OPTIONS]


def _system_view(system):
    return {
        "numbers": system["numbers"], "fuel_price": system["fuel_price"],
        "fuel_limit": system["fuel_limit"], "supply_price": system["supply_price"],
        "bridges": {b: system["bridge." + b] for b in ("west", "bay", "east")},
        "contraflow": system["contraflow"],
        "destinations": {d: system["destination." + d] for d in DESTINATIONS},
    }


TEACHER_FEED = 5  # a household's last events on the dashboard


def _label(node):
    return NODES[node]["label"] if node in NODES else node


_FEED_SAY = {
    "moved": lambda e: (said(gettext_noop("Drove to %(place)s (rolled %(roll)s, needed %(needs)s+)"),
                             place=_label(e["to"]), roll=e["roll"], needs=e["needs"]) if e.get("roll")
                        else said(gettext_noop("Drove to %(place)s over the bridge"), place=_label(e["to"]))),
    "stuck": lambda e: said(gettext_noop("Stuck in traffic: rolled %(roll)s, needed %(needs)s+"),
                            roll=e["roll"], needs=e["needs"]),
    "card": lambda e: said(gettext_noop("Chance: %(title)s"), title=CARDS[e["card"]]["title"]),
    "left_home": lambda e: said(gettext_noop("Left home")),
    "arrived": lambda e: said(gettext_noop("Arrived at the %(place)s"),
                              place=DESTINATIONS[e["destination"]]["label"].lower()),
    "home_secured": lambda e: said(gettext_noop("Put up shutters and plywood: home secured")),
    "withdrew": lambda e: said(gettext_noop("Took $%(amount)s from the bank"), amount=e["amount"]),
    "bought_home_supplies": lambda e: said(gettext_noop("Bought shutters and plywood")),
    "picked_up_friends": lambda e: said(gettext_noop("Picked up friends")),
    "bought_fuel": lambda e: said(gettext_noop("Bought %(gallons)s gallons for $%(cost)s"),
                                  gallons=e["gallons"], cost=e["cost"]),
    "bought_supplies": lambda e: said(gettext_noop("Bought %(units)s supplies for $%(cost)s"),
                                      units=e["units"], cost=e["cost"]),
    "lost_turn": lambda e: said(gettext_noop("Bought gas and supplies at one stop: lost a turn")),
    "destination": lambda e: said(gettext_noop("Chose the %(place)s"),
                                  place=DESTINATIONS[e["destination"]]["label"].lower()),
    "towed": lambda e: said(gettext_noop("Towed to %(place)s for $%(cost)s"), place=_label(e["to"]), cost=e["cost"]),
    "waited": lambda e: said(gettext_noop("Waited and watched the news")),
    "stayed_home": lambda e: said(gettext_noop("Decided to stay home")),
    "out_of_time": lambda e: said(gettext_noop("Tropical-storm winds arrived")),
    "out_of_fuel": lambda e: said(gettext_noop("Out of gas")),
    "no_route": lambda e: said(gettext_noop("No open road that way")),
    "sent_home": lambda e: said(gettext_noop("Back home after %(links)s roads"), links=e.get("links", 0)),
    "drove_back": lambda e: said(gettext_noop("Drove back toward home: %(place)s"), place=_label(e["to"])),
    "no_way_home": lambda e: said(gettext_noop("No open road leads home: you stay here")),
    "friends_drive": lambda e: said(gettext_noop("A friend took the wheel")),
    "no_cash": lambda e: said(gettext_noop("No cash: lost %(minutes)s minutes"), minutes=e["minutes"]),
    "supplies_short": lambda e: said(gettext_noop("Arrived with too few supplies: bought %(short)s for $%(cost)s"),
                                     short=e["short"], cost=e["cost"]),
    "skipped": lambda e: said(gettext_noop("Turn skipped by the teacher")),
    "reason": lambda e: said(gettext_noop("Gave a reason")),
}


def say(event):
    """What the feed line of ``event`` says (``scenarios.words.SAY``): its template and params."""
    line = _FEED_SAY.get(event["type"])
    return line(event) if line else said(event["type"])


def describe(event):
    """A short English line for the feed (the web layer writes it in the reader's language from
    ``say``)."""
    line = say(event)
    return english(line["template"], line["params"])


def _feed_line(event):
    line = say(event)
    return {"hour": event["minute"] / 60, "type": event["type"],
            "text": english(line["template"], line["params"]), "say": line}


def own(state, seat):
    """Everything a seat's view is built from except its ``others`` part: its own household,
    the stamped changes to the system, and whether the game is over."""
    return (_seat(state, seat), state["changes"], state["ended"], finished(state))


def others(state, seat):
    """The ``others`` part of a seat's view: where the other households are on their clocks."""
    return [{"seat": o["seat"], "status": o["status"], "hour": o["clock"] / 60}
            for o in state["seats"] if o["seat"] != seat]


def _seat_view(state, s, with_actions):
    clock = s["clock"]
    system = system_at(state, clock)
    card = None
    if s["last_card"]:
        c = CARDS[s["last_card"][0]]
        card = {"id": c["id"], "title": c["title"], "text": c["text"], "basis": c["basis"],
                "source": c["source"], "hour": s["last_card"][1] / 60}
    roads = []
    for nxt, li, inbound in ADJ[s["pos"]]:
        link = LINKS[li]
        ok = _allowed(link, inbound, system["config"])
        need = threshold(link, system)
        odds = _needs_say(need) if ok else said(gettext_noop("closed"))
        roads.append({"to": nxt, "label": NODES[nxt]["label"], "link": link["id"], "open": ok, "needs": need,
                      "needs_label": english(odds["template"], odds["params"]), "say": {**odds, "into": "needs_label"}})
    prompt = None
    if s["prompt"]:
        about = s["prompt"]
        prompt = {"about": about, "question": REASONS[about]["question"],
                  "choices": [{"key": k, "text": v} for k, v in REASONS[about]["choices"].items()] + [{"key": "skip", "text": "Skip"}]}
    view = {
        "seat": s["seat"], "status": s["status"], "clock": clock, "hour": clock / 60,
        "phase": _phase(clock), "minutes_left": END - clock,
        "position": s["pos"], "position_label": NODES[s["pos"]]["label"],
        "tally": {"fuel": s["fuel"], "cash": s["cash"], "supplies": s["supplies"],
                  "supplies_short": max(0, MIN_SUPPLIES - s["supplies"]),
                  "withdrawn": s["withdrawn"], "friends": s["friends"],
                  "home_supplies_in_car": s["home_supplies"], "home_secured": s["secured"],
                  "destination": s["destination"], "start_fuel": s["start_fuel"],
                  "start_cash": s["start_cash"], "tow_price": s["tow_price"],
                  "left_home": s["left_home"]},
        "system": _system_view(system), "links": _links_view(system),
        "timeline": _timeline_view(state, clock),
        "changes": [{"hour": c[0] / 60, "field": c[2], "value": c[3], "source": c[4]}
                    for c in state["changes"] if c[0] <= clock and c[4] != "timeline"][-6:],
        "last_card": card,
        "feed": [_feed_line(e) for e in s["feed"]],
        "roads": roads, "reason_prompt": prompt, "reasons": dict(s["reasons"]),
        "turns": s["turns"], "taps": s["taps"],
    }
    if with_actions:
        view["actions"] = actions(state, s["seat"])
        view["fuel_price_here"] = _fuel_price_here(s, system)
        view["costs"] = _costs(s, system, view["fuel_price_here"], view["actions"])
    return view


def _timeline_view(state, clock):
    """Which of the board's timeline items this game shows (the marks always; the rest with the
    timeline option on), and how many of the board's items have passed at ``clock``: the items
    and their texts are static, in the board."""
    shown = [i for i, t in enumerate(BOOK["timeline"]) if t.get("mark") or state["options"]["timeline"] == "on"]
    return {"shown": shown, "passed": bisect_right([t["minute"] for t in BOOK["timeline"]], clock)}


def _phase(clock):
    """The warning timeline's latest mark at ``clock``: "watch", "warning" or "ts_winds"."""
    phase = None
    for item in BOOK["timeline"]:
        if item.get("mark") and item["minute"] <= clock:
            phase = item["mark"]
    return phase


_LINKS_VIEW: dict = {}


def _links_view(system):
    """How the map draws the roads now: the column of the board's ``needs`` that applies, the
    links closed both ways and those open one way only (contraflow). Shared between views of
    the same configuration (at most 32): do not mutate."""
    key = (system["config"], system["numbers"])
    out = _LINKS_VIEW.get(key)
    if out is None:
        config = system["config"]
        closed, one_way = [], []
        for link in LINKS:
            if not _allowed(link, False, config):
                closed.append(link["id"])
            elif not _allowed(link, True, config):
                one_way.append(link["id"])
        out = _LINKS_VIEW[key] = {"needs": _need_column(system), "closed": closed, "one_way": one_way}
    return out


def _costs(s, system, fuel_price, offered):
    """The dollars each offered action that spends money takes from the seat's cash, by its
    parameter (gallons, units, destination); a destination is paid on arrival."""
    costs = {}
    for action in offered:
        kind = action["type"]
        if kind == "buy_fuel":
            costs.setdefault(kind, {})[str(action["gallons"])] = _fuel_cost(s, fuel_price, action["gallons"])
        elif kind == "buy_supplies":
            costs.setdefault(kind, {})[str(action["units"])] = action["units"] * system["supply_price"]
        elif kind == "set_destination":
            costs.setdefault(kind, {})[action["destination"]] = _accommodation(s, action["destination"])
        elif kind == "tow":
            costs[kind] = MONEY["tow"]
        elif kind == "buy_home_supplies":
            costs[kind] = MONEY["home_supplies"]
    return costs


def _accommodation(s, dest):
    """What staying at ``dest`` costs the seat when it arrives (friends pay half, as scored)."""
    cost = DESTINATIONS[dest]["cost"]
    return cost // 2 if s["friends"] else cost


def _class_progress(state):
    """How far through their 48 hours the households are, in percent (the projector's bar); a
    household that arrived or stayed counts as done."""
    done = [min(1, s["clock"] / END) if s["status"] == "playing" else 1 for s in state["seats"]]
    return round(100 * sum(done) / len(done)) if done else 0


def _household(state, s):
    """One household as the teacher's dashboard shows it: the seat's view without what only its
    own tablet needs (the road choices, the timeline, the card text) and with its last few events.
    It travels to every dashboard after every move, so it stays small."""
    full = _seat_view(state, s, False)
    for only_on_the_tablet in ("timeline", "roads", "changes", "last_card", "links", "phase", "minutes_left"):
        del full[only_on_the_tablet]
    full["feed"] = full["feed"][-TEACHER_FEED:]
    return full


def view(state, seat):
    """What ``seat`` sees (its own tally, clock, system, feed, actions); None: the teacher."""
    common = {"finished": finished(state), "ended_early": state["ended"], "seats": len(state["seats"])}
    if seat is None:
        return {**common, "teacher": True,
                "system": _system_view(final_system(state)),
                "changes": [{"hour": c[0] / 60, "field": c[2], "value": c[3], "source": c[4], "seat": c[5]}
                            for c in state["changes"]],
                "tables": [_household(state, s) for s in state["seats"]],
                "progress": _class_progress(state),
                "to_act": to_act(state),
                "results": results(state) if finished(state) else None}
    s = _seat(state, seat)
    out = {**common, **_seat_view(state, s, True), "others": others(state, seat)}
    if out["finished"]:
        out["results"] = results(state)
    return out
