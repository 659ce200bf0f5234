"""Bermuda Triangle: fleets sail freight between ports while a storm cloud roams the sea.

Every reading of the rule book (seed 004) is in RULES.md. The engine is pure: a seed and the
move log give the same game; dice and the spinner come from ``scenarios.base`` streams.

Words used throughout:
- a *cell* is a dot of the sea grid, ``(x, y)`` with x growing east and y growing south;
- a *space* is where a ship can be: a port id (``"MIA"``) or a path space (``"MIA-CHS.2"``);
- the cloud has a locator cell, a rotation letter A–H and, per letter, *capture* cells (its
  magnets: a ship on a path space there is caught) and *push* cells (the rest of its footprint).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from scenarios.base import EngineBasics, IllegalAction, draw, load_content, roll, shuffled
from scenarios.words import gettext_noop  # marks refusal sentences for the web layer to translate

CONTENT, CONTENT_HASH = load_content(Path(__file__).parent / "content", ["sea.json", "cloud.json", "lessons.json"])
SEA, CLOUD, LESSONS = CONTENT["sea"], CONTENT["cloud"], CONTENT["lessons"]
VERSION = "1.0.0"
SCHEMA_VERSION = 1

GRID = SEA["grid"]
COLS, ROWS = GRID["cols"], GRID["rows"]
CENTRE = tuple(GRID["centre"])
PORTS = {p["id"]: p for p in SEA["ports"]}
HOME = next(p["id"] for p in SEA["ports"] if p["home"])
PATHS = {p["id"]: p for p in SEA["paths"]}
ROTATIONS = {k: {"capture": [tuple(c) for c in v["capture"]], "push": [tuple(c) for c in v["push"]]}
             for k, v in CLOUD["rotations"].items()}
SPINNER = CLOUD["spinner"]
STEP = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}
UNIT = SEA["unit"]

#: space id -> cell; path space id -> (path id, index)
CELL = {pid: tuple(p["cell"]) for pid, p in PORTS.items()}
ON_PATH = {}
for _pid, _path in PATHS.items():
    for _i, _cell in enumerate(_path["cells"]):
        CELL[f"{_pid}.{_i}"] = tuple(_cell)
        ON_PATH[f"{_pid}.{_i}"] = (_pid, _i)
AT_CELL = {cell: space for space, cell in CELL.items()}

OPTIONS = [
    {"name": "turns", "default": "in_turn", "choices": ["in_turn", "together"],
     "label": gettext_noop("Ship moves"),
     "choice_labels": {"in_turn": gettext_noop("In turn"), "together": gettext_noop("Together")},
     "description": gettext_noop("In turn: one player after another, as the rule book plays; "
                                 "together: every player moves one ship in the same round, in any order (a shorter game).")},
    {"name": "target", "default": 200, "choices": [200, 350],
     "label": gettext_noop("Freight to win (thousands of dollars)"),
     "description": gettext_noop("The game ends when a player holds this much freight ($200,000 is the book's shorter game).")},
    {"name": "rounds", "default": 16, "choices": [12, 16, 20, 60],
     "label": gettext_noop("Most rounds"),
     "description": gettext_noop("The game also ends after this many rounds, so it fits the lesson.")},
    {"name": "cargo_at_risk", "default": True, "choices": [True, False],
     "label": gettext_noop("Freight sails in the hold"),
     "description": gettext_noop("A freight card stays aboard its ship until the ship docks at its next port; "
                                 "a ship caught by the cloud loses it. Off: cards are banked at once, as printed.")},
]
DEFAULTS = {o["name"]: o["default"] for o in OPTIONS}

ACTION_FIELDS = {"sail": ("ship", "to"), "end_now": ()}


def ship_ids(seats):
    return [f"s{seat}{n}" for seat in range(seats) for n in range(SEA["ships_per_seat"])]


WORDS = frozenset(list(CELL) + ship_ids(4))
CARDS = {}
for _kind, _values in SEA["decks"].items():
    for _n, _value in enumerate(_values):
        CARDS[f"{_kind}{_n}"] = {"kind": _kind, "value": _value}
for _n, _value in enumerate(SEA["bonus"]):
    CARDS[f"bonus{_n}"] = {"kind": "bonus", "value": _value}


# --- The cloud ---------------------------------------------------------------------------------

def footprint(at, letter):
    """(capture cells, push cells) of the cloud at ``at`` with ``letter`` on the notch."""
    return _footprint(tuple(at), letter)


@lru_cache(maxsize=None)
def _footprint(at, letter):
    x, y = at
    rot = ROTATIONS[letter]
    inside = lambda c: 0 <= c[0] < COLS and 0 <= c[1] < ROWS  # noqa: E731
    capture = frozenset(c for c in ((x + dx, y + dy) for dx, dy in rot["capture"]) if inside(c))
    push = frozenset(c for c in ((x + dx, y + dy) for dx, dy in rot["push"]) if inside(c))
    return capture, push


def track(at, outcome):
    """The locator cells the cloud passes through for one spinner outcome, start excluded."""
    dx, dy = STEP[outcome["direction"]]
    steps = outcome["count"] if outcome["count"] is not None else max(COLS, ROWS)
    x, y = at
    cells = []
    for _ in range(steps):
        if not (0 <= x + dx < COLS and 0 <= y + dy < ROWS):
            break  # never past an outside dot
        x, y = x + dx, y + dy
        cells.append((x, y))
    return cells


@lru_cache(maxsize=None)
def danger(at, letter):
    """What the spinner can do next from the cloud at ``at`` (the letter does not matter: the
    spin turns the cloud first): per cell, in how many of the spinner's sectors the magnets pass
    over it (``capture``) or the cloud ends over it (``cover``). The tablet's cone."""
    capture, cover = {}, {}
    for outcome in SPINNER:
        swept = set(footprint(at, outcome["letter"])[0])
        end = at
        for cell in track(at, outcome):
            swept |= footprint(cell, outcome["letter"])[0]
            end = cell
        if outcome["count"] is None:
            end = CENTRE
            letter_after = "A"
        else:
            letter_after = outcome["letter"]
        for cell in swept:
            capture[cell] = capture.get(cell, 0) + 1
        cap, push = footprint(end, letter_after)
        for cell in cap | push:
            cover[cell] = cover.get(cell, 0) + 1
    return capture, cover


def blocked_cells(cloud):
    """Every cell under the cloud now: no ship may sail there."""
    return _blocked(tuple(cloud["at"]), cloud["letter"])


@lru_cache(maxsize=None)
def _blocked(at, letter):
    capture, push = _footprint(at, letter)
    return capture | push


# --- The sea -----------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def routes(space):
    """Where a ship on ``space`` can head: ``[(path id, direction)]``, direction +1 towards the
    path's ``b`` end, -1 towards ``a``."""
    if space in PORTS:
        return tuple((pid, 1 if p["a"] == space else -1) for pid, p in PATHS.items() if space in (p["a"], p["b"]))
    pid, _ = ON_PATH[space]
    return ((pid, 1), (pid, -1))


@lru_cache(maxsize=None)
def walk(space, pid, direction):
    """The spaces ahead of a ship on ``space`` heading along ``pid`` in ``direction``, ending with
    the port at that end."""
    path = PATHS[pid]
    cells = path["cells"]
    start = (-1 if direction == 1 else len(cells)) if space in PORTS else ON_PATH[space][1]
    out = []
    i = start + direction
    while 0 <= i < len(cells):
        out.append(f"{pid}.{i}")
        i += direction
    out.append(path["b"] if direction == 1 else path["a"])
    return tuple(out)


class Bermuda(EngineBasics):
    """The engine (``scenarios.base.Engine``)."""

    key = "bermuda"
    version = VERSION
    schema_version = SCHEMA_VERSION
    content_hash = CONTENT_HASH
    OPTIONS = OPTIONS
    ACTION_FIELDS = ACTION_FIELDS
    ACTION_WORDS = WORDS

    def turn(self, state, seat):
        """A seat's turn is its move of the round: an idle captain's stand-in plays all of it."""
        return [state["round"], state["turn"]]

    # --- setup -----------------------------------------------------------------------------

    def setup(self, seed, seats, options=None):
        options = {**DEFAULTS, **(options or {})}
        for o in OPTIONS:
            if options[o["name"]] not in o["choices"]:
                raise IllegalAction("bad_option", gettext_noop("That option is not offered."), name=o["name"])
        if not 2 <= seats <= 4:
            raise IllegalAction("bad_seats", gettext_noop("Bermuda Triangle is for 2 to 4 players."), seats=seats)
        decks = {kind: shuffled([f"{kind}{n}" for n in range(len(values))], seed, f"deck-{kind}", None, 0)
                 for kind, values in SEA["decks"].items()}
        ships = []
        for seat in range(seats):
            for n, port in enumerate(SEA["start_ports"]):
                ships.append({"id": f"s{seat}{n}", "seat": seat, "at": port, "from": port,
                              "cargo": None, "loaded_at": None, "status": "afloat"})
        state = {
            "seed": seed, "options": options, "seats_n": seats, "round": 1, "turn": 0,
            "moved": [False] * seats, "rolls": [0] * seats, "dice_n": [0] * seats, "spins": 0,
            "cloud": {"at": list(CENTRE), "letter": "A", "hanging": []},
            "ships": ships, "decks": decks, "bonus": [f"bonus{n}" for n in range(len(SEA["bonus"]))],
            "seats": [{"banked": [], "lost_cards": [], "moves": 0, "into_cone": 0, "cone_avoidable": 0,
                       "captured": 0, "docked": 0, "bumped": 0, "held": 0} for _ in range(seats)],
            "history": [], "last_spin": None, "ended": None,
        }
        self._start_round(state)
        self._advance(state)
        return state

    # --- the contract ------------------------------------------------------------------------

    def finished(self, state):
        return state["ended"] is not None

    def to_act(self, state):
        if self.finished(state):
            return []
        if state["options"]["turns"] == "in_turn":
            return [state["turn"]]
        return [s for s in range(state["seats_n"]) if not state["moved"][s]]

    def actions(self, state, seat):
        if self.finished(state):
            return []
        if seat is None:
            return [{"type": "end_now"}]
        if seat not in self.to_act(state):
            return []
        return [{"type": "sail", "ship": m["ship"], "to": m["to"]} for m in self.moves(state, seat)]

    def apply(self, state, seat, action):
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("not_now", gettext_noop("That is not something you can do now."))
        if self.finished(state):
            raise IllegalAction("game_over", gettext_noop("The game is over."))
        if action["type"] == "end_now":
            if seat is not None:
                raise IllegalAction("not_now", gettext_noop("Only your teacher can end the game."))
            state["ended"] = "teacher"
            return [{"type": "ended", "reason": "teacher"}]
        if action["type"] != "sail" or set(action) != {"type", "ship", "to"}:
            raise IllegalAction("not_now", gettext_noop("That is not something you can do now."))
        if seat not in self.to_act(state):
            raise IllegalAction("not_your_turn", gettext_noop("It is not your turn to sail."))
        offered = self.moves(state, seat)
        move = next((m for m in offered if m["ship"] == action["ship"] and m["to"] == action["to"]), None)
        if move is None:
            self._refuse_sail(state, seat, action["ship"], action["to"])
        events = self._sail(state, seat, move, offered)
        state["moved"][seat] = True
        events += self._advance(state)
        return events

    # --- moves -------------------------------------------------------------------------------

    def moves(self, state, seat):
        """Every legal sail of ``seat`` this turn, each with where it ends and why."""
        sea = self._sea(state)
        return [m for ship in state["ships"] if ship["seat"] == seat and ship["status"] == "afloat"
                for m in self._ship_moves(state, ship, sea)]

    def _has_move(self, state, seat):
        sea = self._sea(state)
        return any(self._ship_moves(state, ship, sea) for ship in state["ships"]
                   if ship["seat"] == seat and ship["status"] == "afloat")

    def _sea(self, state):
        """What every move looks at: the cells under the cloud, path spaces taken, ships per port."""
        occupied, in_port = set(), {}
        for s in state["ships"]:
            if s["status"] == "afloat":
                if s["at"] in PORTS:
                    in_port[s["at"]] = in_port.get(s["at"], 0) + 1
                    in_port[(s["at"], s["seat"])] = in_port.get((s["at"], s["seat"]), 0) + 1
                else:
                    occupied.add(s["at"])
        return blocked_cells(state["cloud"]), occupied, in_port

    def _ship_moves(self, state, ship, sea):
        blocked, occupied, in_port = sea
        roll_, seat, full = state["rolls"][ship["seat"]], ship["seat"], state["seats_n"]
        out = []
        for pid, direction in routes(ship["at"]):
            ahead = walk(ship["at"], pid, direction)
            reached, stop = [], None
            for space in ahead[:roll_]:
                if CELL[space] in blocked:
                    stop = "cloud"
                    break
                if space in PORTS:
                    if in_port.get(space, 0) >= full:
                        stop = "full"
                        break
                    if in_port.get((space, seat), 0) >= 2:
                        stop = "two_own"
                        break
                    reached.append(space)
                    stop = "port"
                    break
                reached.append(space)
            if not reached:
                continue
            to = reached[-1]
            exact = stop in (None, "port")
            if not exact:  # stopped short: nearest free space back along the way
                free = [s for s in reached if s not in occupied]
                if not free:
                    continue
                to = free[-1]
            out.append({"ship": ship["id"], "to": to, "route": pid, "direction": direction,
                        "toward": ahead[-1], "stop": stop, "exact": exact,
                        "steps": reached.index(to) + 1})
        return out

    def _port_count(self, state, port):
        return sum(1 for s in state["ships"] if s["status"] == "afloat" and s["at"] == port)

    def _port_closed(self, state, port, seat):
        ships = [s for s in state["ships"] if s["status"] == "afloat" and s["at"] == port]
        return len(ships) >= state["seats_n"] or sum(1 for s in ships if s["seat"] == seat) >= 2

    def _refuse_sail(self, state, seat, ship_id, to):
        """Why a sail that is not among the seat's moves is refused (raises IllegalAction)."""
        ship = next((s for s in state["ships"] if s["id"] == ship_id), None)
        if ship is None or not isinstance(to, str) or to not in CELL:
            raise IllegalAction("no_such_place", gettext_noop("There is no such ship or space."))
        if ship["seat"] != seat:
            raise IllegalAction("not_your_ship", gettext_noop("That ship belongs to another fleet."))
        if ship["status"] != "afloat":
            raise IllegalAction("ship_lost", gettext_noop("That ship was caught by the cloud."))
        if CELL[to] in blocked_cells(state["cloud"]):
            raise IllegalAction("under_cloud", gettext_noop("No ship may sail under the cloud."))
        if to in PORTS and self._port_closed(state, to, seat):
            if self._port_count(state, to) >= state["seats_n"]:
                raise IllegalAction("port_full", gettext_noop("That port is full."), port=to)
            raise IllegalAction("two_own", gettext_noop("You already have two ships in that port."), port=to)
        raise IllegalAction("wrong_count", gettext_noop("Your dice do not take that ship there."), roll=state["rolls"][seat])

    def _sail(self, state, seat, move, offered):
        ship = next(s for s in state["ships"] if s["id"] == move["ship"])
        me = state["seats"][seat]
        capture, _ = danger(tuple(state["cloud"]["at"]), state["cloud"]["letter"])
        risk = 0 if move["to"] in PORTS else capture.get(CELL[move["to"]], 0)
        safest = min((0 if m["to"] in PORTS else capture.get(CELL[m["to"]], 0)) for m in offered)
        me["moves"] += 1
        me["into_cone"] += risk > 0
        me["cone_avoidable"] += risk > safest
        state["history"].append({"round": state["round"], "seat": seat, "ship": ship["id"], "to": move["to"],
                                 "risk": risk, "safest": safest, "spin": state["spins"]})
        events = [{"type": "sailed", "seat": seat, "ship": ship["id"], "from": ship["at"], "to": move["to"],
                   "steps": move["steps"], "stop": move["stop"], "risk": risk}]
        if ship["at"] in PORTS:
            ship["from"] = ship["at"]
        ship["at"] = move["to"]
        if move["exact"] and move["to"] not in PORTS:
            for other in state["ships"]:
                if other is not ship and other["status"] == "afloat" and other["at"] == move["to"]:
                    other["at"] = self._send_back(state, other)
                    state["seats"][other["seat"]]["bumped"] += 1
                    events.append({"type": "landed_on", "seat": seat, "ship": other["id"], "owner": other["seat"],
                                   "to": other["at"]})
        if move["to"] in PORTS:
            events += self._dock(state, ship)
        return events

    def _send_back(self, state, ship):
        """A ship landed on goes back to the port it came from, or the free space nearest it."""
        port = ship["from"]
        if self._port_count(state, port) < state["seats_n"]:
            return port
        pid = ON_PATH[ship["at"]][0] if ship["at"] in ON_PATH else None
        occupied = {s["at"] for s in state["ships"] if s["status"] == "afloat"}
        blocked = blocked_cells(state["cloud"])
        if pid and port in (PATHS[pid]["a"], PATHS[pid]["b"]):
            outward = walk(port, pid, 1 if PATHS[pid]["a"] == port else -1)[:-1]
            for space in outward:
                if space not in occupied and CELL[space] not in blocked:
                    return space
        return port  # nowhere else: it shelters in its port over the count

    def _dock(self, state, ship):
        me = state["seats"][ship["seat"]]
        me["docked"] += 1
        events = []
        if ship["cargo"] and ship["loaded_at"] == ship["at"]:
            return events  # cargo is delivered to another port: the hold stays full here
        if ship["cargo"]:
            me["banked"].append(ship["cargo"])
            events.append({"type": "delivered", "seat": ship["seat"], "ship": ship["id"], "card": ship["cargo"],
                           "value": CARDS[ship["cargo"]]["value"]})
            ship["cargo"] = None
        port = PORTS[ship["at"]]
        if port["home"]:
            if state["bonus"]:
                card = state["bonus"].pop(0)
                me["banked"].append(card)
                me["held"] += CARDS[card]["value"]
                events.append({"type": "bonus", "seat": ship["seat"], "card": card, "value": CARDS[card]["value"]})
        else:
            deck = state["decks"][port["freight"]]
            if deck:
                card = deck.pop(0)
                me["held"] += CARDS[card]["value"]
                if state["options"]["cargo_at_risk"]:
                    ship["cargo"], ship["loaded_at"] = card, ship["at"]
                else:
                    me["banked"].append(card)
                events.append({"type": "freight", "seat": ship["seat"], "ship": ship["id"], "card": card,
                               "kind": port["freight"], "value": CARDS[card]["value"]})
        return events

    # --- rounds and the cloud ----------------------------------------------------------------

    def _start_round(self, state):
        for seat in range(state["seats_n"]):
            n = state["dice_n"][seat]
            state["rolls"][seat] = sum(roll(state["seed"], "dice", seat, 2 * n + k, SEA["dice"]["sides"])
                                       for k in range(SEA["dice"]["count"]))
            state["dice_n"][seat] += 1
            state["moved"][seat] = False
        state["turn"] = 0

    def _advance(self, state):
        """After a sail: end the game, or pass seats with no move, spin when all have moved."""
        events = []
        for _ in range(1000):  # each pass marks a seat or spins; a round cap ends it
            if self._check_end(state, events):
                return events
            seats = range(state["seats_n"])
            if state["options"]["turns"] == "in_turn":
                current = state["turn"]
                if not state["moved"][current]:
                    if self._has_move(state, current):
                        return events
                    state["moved"][current] = True
                    events.append({"type": "passed", "seat": current})
                    continue
                nxt = next((s for s in seats if not state["moved"][s]), None)
                if nxt is not None:
                    state["turn"] = nxt
                    continue
            else:
                waiting = [s for s in seats if not state["moved"][s]]
                stuck = [s for s in waiting if not self._has_move(state, s)]
                for s in stuck:
                    state["moved"][s] = True
                    events.append({"type": "passed", "seat": s})
                if [s for s in waiting if s not in stuck]:
                    return events
            events += self._spin(state)
            if self._check_end(state, events):
                return events
            state["round"] += 1
            if state["round"] > state["options"]["rounds"]:
                state["ended"] = "rounds"
                events.append({"type": "ended", "reason": "rounds"})
                return events
            self._start_round(state)
        state["ended"] = "stuck"
        return events

    def _spin(self, state):
        sector = draw(state["seed"], "spinner", None, state["spins"]) % len(SPINNER)
        state["spins"] += 1
        return self.move_cloud(state, sector)

    def move_cloud(self, state, sector):
        """The cloud turns and moves as spinner sector ``sector`` says; its events."""
        cloud = state["cloud"]
        outcome = SPINNER[sector]
        before = list(cloud["at"])
        cloud["letter"] = outcome["letter"]
        caught = self._capture(state, footprint(cloud["at"], cloud["letter"])[0])
        for cell in track(tuple(cloud["at"]), outcome):
            cloud["at"] = list(cell)
            caught += self._capture(state, footprint(cell, cloud["letter"])[0])
        events = [{"type": "spin", "sector": sector, "letter": outcome["letter"], "count": outcome["count"],
                   "direction": outcome["direction"], "from": before, "to": list(cloud["at"])}]
        for ship in caught:
            events.append({"type": "caught", "seat": ship["seat"], "ship": ship["id"], "card": ship["lost_card"]})
        lifted = []
        if outcome["count"] is None:
            for ship in state["ships"]:
                if ship["status"] == "hanging":
                    ship["status"] = "lost"
                    lifted.append(ship["id"])
            cloud["hanging"] = []
            cloud["at"], cloud["letter"] = list(CENTRE), "A"
            events.append({"type": "lifted", "ships": lifted})
        events += self._push(state)
        state["last_spin"] = {"round": state["round"], "sector": sector, "from": before, "to": list(cloud["at"]),
                              "caught": [s["id"] for s in caught], "lifted": lifted}
        return events

    def _capture(self, state, cells):
        caught = []
        for ship in state["ships"]:
            if ship["status"] == "afloat" and ship["at"] not in PORTS and CELL[ship["at"]] in cells:
                ship["status"] = "hanging"
                ship["lost_card"] = ship["cargo"]
                me = state["seats"][ship["seat"]]
                me["captured"] += 1
                if ship["cargo"]:
                    me["lost_cards"].append(ship["cargo"])
                    me["held"] -= CARDS[ship["cargo"]]["value"]
                    ship["cargo"] = None
                state["cloud"]["hanging"].append(ship["id"])
                caught.append(ship)
        return caught

    def _push(self, state):
        """Ships left under the cloud are set on the nearest free space of their path it clears."""
        blocked = blocked_cells(state["cloud"])
        events = []
        for ship in state["ships"]:
            if ship["status"] != "afloat" or ship["at"] in PORTS or CELL[ship["at"]] not in blocked:
                continue
            pid, i = ON_PATH[ship["at"]]
            occupied = {s["at"] for s in state["ships"] if s["status"] == "afloat"}
            cells = PATHS[pid]["cells"]
            spot = None
            for d in range(1, len(cells) + 1):
                for j in (i - d, i + d):
                    space = f"{pid}.{j}"
                    if 0 <= j < len(cells) and space not in occupied and CELL[space] not in blocked:
                        spot = space
                        break
                if spot:
                    break
            if spot is None:
                ends = [PATHS[pid]["a"], PATHS[pid]["b"]]
                spot = ends[0] if i < len(cells) / 2 else ends[1]
            events.append({"type": "pushed", "ship": ship["id"], "seat": ship["seat"], "from": ship["at"], "to": spot})
            ship["at"] = spot
            if spot in PORTS:
                ship["from"] = spot
        return events

    def _check_end(self, state, events):
        if state["ended"]:
            return True
        target = state["options"]["target"]
        for seat in range(state["seats_n"]):
            if self.held(state, seat) >= target:
                state["ended"] = "target"
                events.append({"type": "ended", "reason": "target", "seat": seat})
                return True
            if not any(s["status"] == "afloat" for s in state["ships"] if s["seat"] == seat):
                state["ended"] = "fleet_lost"
                events.append({"type": "ended", "reason": "fleet_lost", "seat": seat})
                return True
        if not state["bonus"] and not any(state["decks"].values()):
            state["ended"] = "no_freight"
            events.append({"type": "ended", "reason": "no_freight"})
            return True
        return False

    # --- scores ------------------------------------------------------------------------------

    def held(self, state, seat):
        """Freight and bonus value the seat holds (banked and aboard its afloat ships), thousands:
        kept as a running total (cards taken, less cards lost with caught ships)."""
        return state["seats"][seat]["held"]

    def results(self, state):
        rows = []
        for seat in range(state["seats_n"]):
            me = state["seats"][seat]
            afloat = sum(1 for s in state["ships"] if s["seat"] == seat and s["status"] == "afloat")
            rows.append({"seat": seat, "score": self.held(state, seat) * UNIT, "rank": None, "breakdown": {
                "freight": self.held(state, seat),
                "banked": sum(CARDS[c]["value"] for c in me["banked"]),
                "lost_freight": sum(CARDS[c]["value"] for c in me["lost_cards"]),
                "ships_afloat": afloat, "ships_lost": SEA["ships_per_seat"] - afloat,
                "moves": me["moves"], "into_cone": me["into_cone"], "cone_avoidable": me["cone_avoidable"],
                "docked": me["docked"], "bumped": me["bumped"]}})
        for row in rows:
            row["rank"] = 1 + sum(1 for other in rows if other["score"] > row["score"])
        return rows

    # --- what the screens show ---------------------------------------------------------------

    def board(self):
        return {"grid": GRID, "ports": SEA["ports"], "paths": SEA["paths"], "unit": UNIT,
                "rotations": CLOUD["rotations"], "spinner": SPINNER, "decks": SEA["decks"],
                "bonus": SEA["bonus"], "lessons": LESSONS["lessons"], "spaces": {k: list(v) for k, v in CELL.items()},
                "options": self.options()}

    def view(self, state, seat):
        cloud = state["cloud"]
        capture, push = footprint(cloud["at"], cloud["letter"])
        cone, cover = danger(tuple(cloud["at"]), cloud["letter"])
        total = len(SPINNER)
        acting = self.to_act(state)
        moves = []
        if seat is not None and seat in acting:
            for m in self.moves(state, seat):
                risk = 0 if m["to"] in PORTS else cone.get(CELL[m["to"]], 0)
                moves.append({"ship": m["ship"], "to": m["to"], "toward": m["toward"], "steps": m["steps"],
                              "stop": m["stop"], "risk": risk, "docks": m["to"] in PORTS,
                              "gain": self._dock_gain(state, m["to"]) if m["to"] in PORTS else None})
        ships = []
        for s in state["ships"]:
            risk = 0 if (s["status"] != "afloat" or s["at"] in PORTS) else cone.get(CELL[s["at"]], 0)
            ships.append({"id": s["id"], "seat": s["seat"], "at": s["at"], "status": s["status"],
                          "cargo": CARDS[s["cargo"]]["value"] if s["cargo"] else None, "risk": risk})
        ports = {}
        for pid, port in PORTS.items():
            deck = state["bonus"] if port["home"] else state["decks"][port["freight"]]
            ports[pid] = {"top": CARDS[deck[0]]["value"] if deck else None, "left": len(deck),
                          "ships": self._port_count(state, pid), "closed": CELL[pid] in (capture | push)}
        return {
            "round": state["round"], "rounds": state["options"]["rounds"], "target": state["options"]["target"],
            "turns": state["options"]["turns"], "turn": state["turn"], "acting": acting,
            "roll": state["rolls"][seat] if seat is not None else None,
            "moved": list(state["moved"]), "over": self.finished(state), "ended": state["ended"],
            "cloud": {"at": list(cloud["at"]), "letter": cloud["letter"], "hanging": list(cloud["hanging"]),
                      "capture": sorted(map(list, capture)), "push": sorted(map(list, push))},
            "cone": sorted([x, y, n] for (x, y), n in cone.items()),
            "cover": sorted([x, y, n] for (x, y), n in cover.items()),
            "sectors": total, "ships": ships, "ports": ports, "moves": moves,
            "seats": [{"seat": n, "freight": self.held(state, n),
                       "lost_freight": sum(CARDS[c]["value"] for c in state["seats"][n]["lost_cards"]),
                       "afloat": sum(1 for s in state["ships"] if s["seat"] == n and s["status"] == "afloat"),
                       "into_cone": state["seats"][n]["into_cone"], "moves": state["seats"][n]["moves"]}
                      for n in range(state["seats_n"])],
            "last_spin": state["last_spin"],
            "last_sail": state["history"][-1] if state["history"] else None,
            "cards": ([{"kind": CARDS[c]["kind"], "value": CARDS[c]["value"], "aboard": False}
                       for c in state["seats"][seat]["banked"]]
                      + [{"kind": CARDS[sh["cargo"]]["kind"], "value": CARDS[sh["cargo"]]["value"], "aboard": sh["id"]}
                         for sh in state["ships"] if sh["seat"] == seat and sh["status"] == "afloat" and sh["cargo"]])
            if seat is not None else [],
            "actions": self.actions(state, seat) if seat is not None else [],
            "progress": min(100, round(100 * max(self.held(state, n) for n in range(state["seats_n"]))
                                       / state["options"]["target"])),
        }

    def held_card(self, ship):
        """The value of the card in a ship's hold, thousands (0 if none)."""
        return CARDS[ship["cargo"]]["value"] if ship["cargo"] else 0

    def _dock_gain(self, state, port):
        deck = state["bonus"] if PORTS[port]["home"] else state["decks"][PORTS[port]["freight"]]
        return CARDS[deck[0]]["value"] if deck else 0


ENGINE = Bermuda()
