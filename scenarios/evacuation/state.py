"""The game state: a new game, the system's changes on the clock, dice and cards, the small
helpers moves share, and dump/load."""

from __future__ import annotations

import hashlib
from bisect import bisect_right

from ..base import json_copy, roll
from ..words import gettext_noop  # gettext_noop marks sentences for the web layer to translate
from .roads import _config, _routes
from .tables import (
    BASE_SYSTEM,
    BOOK,
    CARD_IDS,
    CONTENT_HASH,
    END,
    GAS,
    HOME,
    MONEY,
    NODES,
    OPTION_DEFAULTS,
    OPTIONS,
    SCHEMA_VERSION,
    START,
    TANK,
    VERSION,
    _refuse,
)

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
        "engine": "evacuation",
        "version": VERSION,
        "schema": SCHEMA_VERSION,
        "content_hash": CONTENT_HASH,
        "seed": seed,
        "options": opts,
        "changes": [],
        "change_seq": 0,
        "ended": False,
        "done": False,
        "seats": [],
    }
    if opts["timeline"] == "on":
        for item in BOOK["timeline"]:
            for field, value in (item.get("system") or {}).items():
                _add_change(state, item["minute"], field, value, "timeline", None)
    for i in range(seats):
        fuel = START["fuel_base"] + roll(seed, "setup", i, 0)
        cash = START["cash_per_pip"] * roll(seed, "setup", i, 1)
        state["seats"].append(
            {
                "seat": i,
                "pos": HOME,
                "clock": 0,
                "status": "playing",
                "fuel": fuel,
                "cash": cash,
                "supplies": START["supplies"],
                "start_fuel": fuel,
                "start_cash": cash,
                "withdrawn": 0,
                "spent": 0,
                "friends": False,
                "home_supplies": False,
                "secured": False,
                "card_home": False,
                "destination": None,
                "arrived_at": None,
                "left_home": False,
                "short": 0,
                "visit": [False, False, False],
                "tow_price": False,
                "dice": 0,
                "cards": 0,
                "turns": 0,
                "taps": 0,
                "prompt": None,
                "reasons": {},
                "last_card": None,
                "feed": [],
                "damage_roll": None,
            }
        )
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
        del snapshots[k + 1 :]
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


def _memo(state):
    """The memo entry of ``state``'s changes: ``(changes, change_seq, stamps, snapshots)``.

    Callers keep the entry they were given rather than looking it up again: another thread's
    game or report may clear the memo in between (each state is one thread's own)."""
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
    return entry


def system_at(state, minute):
    """The state of the system a seat sees at ``minute`` of its own clock (do not mutate)."""
    _changes, _seq, stamps, snapshots = _memo(state)
    return snapshots[bisect_right(stamps, minute)]


def _system_span(state, minute):
    """(system at ``minute``, first minute it may change, change_seq it was read at)."""
    _changes, _seq, stamps, snapshots = _memo(state)
    i = bisect_right(stamps, minute)
    return snapshots[i], (stamps[i] if i < len(stamps) else END + 1), state["change_seq"]


def final_system(state):
    """The state of the system at hour 48: every stamped change applied (used for scoring)."""
    return system_at(state, END)


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
