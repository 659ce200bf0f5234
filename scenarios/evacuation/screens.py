"""What the screens show: the static board and each seat's and the teacher's view."""

from __future__ import annotations

from bisect import bisect_right

from ..words import gettext_noop, said  # gettext_noop marks sentences for the web layer to translate
from .moves import actions, finished, to_act
from .points import results
from .roads import _allowed, threshold
from .state import _fuel_cost, _fuel_price_here, _seat, final_system, system_at
from .tables import (
    ADJ,
    BOOK,
    CARD_IDS,
    CARDS,
    CONTENT_HASH,
    DESTINATIONS,
    END,
    LINKS,
    MIN_SUPPLIES,
    MINUTES,
    MONEY,
    NETWORK,
    NODES,
    OPTIONS,
    REASONS,
    START,
    VERSION,
    _chance_in_10,
)

# --- What the screens show ---------------------------------------------------------------------


def board():
    """Everything that never changes during a game: sent once, cached by content hash."""
    return {
        "key": "evacuation",
        "version": VERSION,
        "content_hash": CONTENT_HASH,
        "box": [1000, 1000],
        "water": NETWORK["water"],
        "nodes": [dict(n) for n in NETWORK["nodes"]],
        "links": [
            {
                **link,
                "needs": {column: threshold(link, system) for column, system in _NEED_COLUMNS.items()},
            }
            for link in LINKS
        ],
        "chance_in_10": {str(t): _chance_in_10(t) for t in range(1, 11)},
        "cards": [dict(CARDS[c]) for c in CARD_IDS],
        "destinations": {
            k: {**v, "points": {name: table[k] for name, table in BOOK["destination_points"].items()}}
            for k, v in DESTINATIONS.items()
        },
        "timeline": [dict(item) for item in BOOK["timeline"]],
        "reasons": REASONS,
        "consequences": BOOK["consequences"],
        "options": options(),
        "rules": {
            "minutes": MINUTES,
            "money": MONEY,
            "start": START,
            "clock": BOOK["clock"],
            "time_points": BOOK["time_points"],
        },
    }


# The roll a link needs depends on the system only through these two fields: the board lists
# each link's need for every combination, and a view names the column that applies.
_NEED_COLUMNS = {
    f"{numbers}{'+contraflow' if contraflow else ''}": {"numbers": numbers, "contraflow": contraflow}
    for numbers in ("black", "red")
    for contraflow in (False, True)
}


def _need_column(system):
    return f"{system['numbers']}{'+contraflow' if system['contraflow'] else ''}"


def options():
    """The teacher's session options: name, default, choices, description."""
    return [dict(o) for o in OPTIONS]


def _system_view(system):
    return {
        "numbers": system["numbers"],
        "fuel_price": system["fuel_price"],
        "fuel_limit": system["fuel_limit"],
        "supply_price": system["supply_price"],
        "bridges": {b: system["bridge." + b] for b in ("west", "bay", "east")},
        "contraflow": system["contraflow"],
        "destinations": {d: system["destination." + d] for d in DESTINATIONS},
    }


TEACHER_FEED = 5  # a household's last events on the dashboard


def _label(node):
    return NODES[node]["label"] if node in NODES else node


_FEED_SAY = {
    "moved": lambda e: (
        said(
            gettext_noop("Drove to %(place)s (rolled %(roll)s, needed %(needs)s+)"),
            place=_label(e["to"]),
            roll=e["roll"],
            needs=e["needs"],
        )
        if e.get("roll")
        else said(gettext_noop("Drove to %(place)s over the bridge"), place=_label(e["to"]))
    ),
    "stuck": lambda e: said(
        gettext_noop("Stuck in traffic: rolled %(roll)s, needed %(needs)s+"), roll=e["roll"], needs=e["needs"]
    ),
    "card": lambda e: said(gettext_noop("Chance: %(title)s"), title=CARDS[e["card"]]["title"]),
    "left_home": lambda e: said(gettext_noop("Left home")),
    "arrived": lambda e: said(
        gettext_noop("Arrived at the %(place)s"), place=DESTINATIONS[e["destination"]]["label"].lower()
    ),
    "home_secured": lambda e: said(gettext_noop("Put up shutters and plywood: home secured")),
    "withdrew": lambda e: said(gettext_noop("Took $%(amount)s from the bank"), amount=e["amount"]),
    "bought_home_supplies": lambda e: said(gettext_noop("Bought shutters and plywood")),
    "picked_up_friends": lambda e: said(gettext_noop("Picked up friends")),
    "bought_fuel": lambda e: said(
        gettext_noop("Bought %(gallons)s gallons for $%(cost)s"), gallons=e["gallons"], cost=e["cost"]
    ),
    "bought_supplies": lambda e: said(
        gettext_noop("Bought %(units)s supplies for $%(cost)s"), units=e["units"], cost=e["cost"]
    ),
    "lost_turn": lambda e: said(gettext_noop("Bought gas and supplies at one stop: lost a turn")),
    "destination": lambda e: said(
        gettext_noop("Chose the %(place)s"), place=DESTINATIONS[e["destination"]]["label"].lower()
    ),
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
    "supplies_short": lambda e: said(
        gettext_noop("Arrived with too few supplies: bought %(short)s for $%(cost)s"), short=e["short"], cost=e["cost"]
    ),
    "skipped": lambda e: said(gettext_noop("Turn skipped by the teacher")),
    "reason": lambda e: said(gettext_noop("Gave a reason")),
}


def say(event):
    """What a report's line of ``event`` says (``scenarios.words.SAY``): its template and params.
    A tablet writes the same sentences from the view's feed line (renderer.js, ``T.ev``)."""
    line = _FEED_SAY.get(event["type"])
    return line(event) if line else said(event["type"])


# The fields of an event its feed line is written from, by the renderer in the tablet's words.
_FEED_FIELDS = {
    "moved": ("to", "roll", "needs"),
    "stuck": ("roll", "needs"),
    "card": ("card",),
    "arrived": ("destination",),
    "withdrew": ("amount",),
    "bought_fuel": ("gallons", "cost"),
    "bought_supplies": ("units", "cost"),
    "destination": ("destination",),
    "towed": ("to", "cost"),
    "sent_home": ("links",),
    "drove_back": ("to",),
    "no_cash": ("minutes",),
    "supplies_short": ("short", "cost"),
}


def _feed_line(event):
    """``event`` as a line of a feed: its hour, type and the ids and numbers its sentence needs."""
    line = {"hour": event["minute"] / 60, "type": event["type"]}
    for field in _FEED_FIELDS.get(event["type"], ()):
        line[field] = event[field]
    return line


def own(state, seat):
    """Everything a seat's view is built from except its ``others`` part: its own household,
    the stamped changes to the system, and whether the game is over."""
    return (_seat(state, seat), state["changes"], state["ended"], finished(state))


def others(state, seat):
    """The ``others`` part of a seat's view: where the other households are on their clocks."""
    return [
        {"seat": o["seat"], "status": o["status"], "hour": o["clock"] / 60} for o in state["seats"] if o["seat"] != seat
    ]


def _seat_view(state, s, tablet):
    """A seat's household as its tablet shows it, or (``tablet`` False) with only what the
    teacher's dashboard keeps of it (``_household``): the parts only the tablet shows are then
    left out unbuilt, as every move builds the teacher's view of every household."""
    clock = s["clock"]
    system = system_at(state, clock)
    # The card's title, text and basis, the places' labels and the reasons' words are the board's.
    card = {"id": s["last_card"][0], "hour": s["last_card"][1] / 60} if tablet and s["last_card"] else None
    roads = [
        {
            "to": nxt,
            "link": LINKS[li]["id"],
            "open": _allowed(LINKS[li], inbound, system["config"]),
            "needs": threshold(LINKS[li], system),
        }
        for nxt, li, inbound in (ADJ[s["pos"]] if tablet else ())
    ]
    about = s["prompt"]
    prompt = {"about": about, "choices": [*REASONS[about]["choices"], "skip"]} if about else None
    view = {
        "seat": s["seat"],
        "status": s["status"],
        "clock": clock,
        "hour": clock / 60,
        "phase": _phase(clock),
        "minutes_left": END - clock,
        "position": s["pos"],
        "tally": {
            "fuel": s["fuel"],
            "cash": s["cash"],
            "supplies": s["supplies"],
            "supplies_short": max(0, MIN_SUPPLIES - s["supplies"]),
            "withdrawn": s["withdrawn"],
            "friends": s["friends"],
            "home_supplies_in_car": s["home_supplies"],
            "home_secured": s["secured"],
            "destination": s["destination"],
            "start_fuel": s["start_fuel"],
            "start_cash": s["start_cash"],
            "tow_price": s["tow_price"],
            "left_home": s["left_home"],
        },
        "system": _system_view(system),
        "links": _links_view(system) if tablet else None,
        "timeline": _timeline_view(state, clock) if tablet else None,
        "changes": [
            {"hour": c[0] / 60, "field": c[2], "value": c[3], "source": c[4]}
            for c in state["changes"]
            if tablet and c[0] <= clock and c[4] != "timeline"
        ][-6:],
        "last_card": card,
        "feed": [_feed_line(e) for e in (s["feed"] if tablet else s["feed"][-TEACHER_FEED:])],
        "roads": roads,
        "reason_prompt": prompt,
        "reasons": dict(s["reasons"]),
        "turns": s["turns"],
        "taps": s["taps"],
    }
    if tablet:
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
    own tablet needs (the road choices, the timeline, the last card) and with its last few events.
    It travels to every dashboard after every move, so it stays small."""
    full = _seat_view(state, s, False)
    for only_on_the_tablet in ("timeline", "roads", "changes", "last_card", "links", "phase", "minutes_left"):
        del full[only_on_the_tablet]
    return full


def view(state, seat):
    """What ``seat`` sees (its own tally, clock, system, feed, actions); None: the teacher."""
    common = {"finished": finished(state), "ended_early": state["ended"], "seats": len(state["seats"])}
    if seat is None:
        return {
            **common,
            "teacher": True,
            "system": _system_view(final_system(state)),
            "changes": [
                {"hour": c[0] / 60, "field": c[2], "value": c[3], "source": c[4], "seat": c[5]}
                for c in state["changes"]
            ],
            "tables": [_household(state, s) for s in state["seats"]],
            "progress": _class_progress(state),
            "to_act": to_act(state),
            "results": results(state) if finished(state) else None,
        }
    s = _seat(state, seat)
    out = {**common, **_seat_view(state, s, True), "others": others(state, seat)}
    if out["finished"]:
        out["results"] = results(state)
    return out
