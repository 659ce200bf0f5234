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
from scenarios.bermuda import projector as _projector
from scenarios.words import gettext_noop  # marks refusal sentences for the web layer to translate

CONTENT, CONTENT_HASH = load_content(
    Path(__file__).parent / "content",
    ["sea.json", "sea_2.json", "cloud.json", "cloud_2.json", "storm_3.json", "storm_5.json", "lessons.json"],
)
CLOUD, LESSONS = CONTENT["cloud"], CONTENT["lessons"]
VERSION = "5.0.0"
SCHEMA_VERSION = 2
#: the rules edition new games are set up with; edition 1 replays games stored by engine 1.0.0,
#: edition 2 those stored by engine 2.0.0, edition 3 those set up while the fleets took strict
#: turns by default (RULES.md, "Strict turns or moves together"), edition 4 those set up before a
#: short haul paid less (RULES.md, "Freight and the end")
EDITION = 5
EDITIONS = (1, 2, 3, 4, 5)
#: how the fleets move when the teacher does not choose: edition 4's together fits 20 minutes
#: of play at a child's pace with a hesitant captain at the table (``python -m benchmarks.bermuda``)
TURNS = {1: "in_turn", 2: "in_turn", 3: "in_turn", 4: "together", 5: "together"}

ROTATIONS = {
    k: {"capture": [tuple(c) for c in v["capture"]], "push": [tuple(c) for c in v["push"]]}
    for k, v in CLOUD["rotations"].items()
}
STEP = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}


class Sea:
    """One edition's sea: the grid, ports and paths, and everything worked out from them (where
    the cloud reaches, the cone). Edition 1's grid stops at 19.25 N; edition 2's reaches 18 N so
    San Juan and Santo Domingo sit where they are (RULES.md). Edition 3 sails edition 2's sea
    with ``storm`` rules: the cloud's whole wind field catches, and a caught ship costs salvage."""

    def __init__(self, sea: dict, spinner: list, edition: int, storm: dict | None = None):
        self.data, self.edition, self.spinner = sea, edition, spinner
        self.storm = storm or {}
        #: thousands a fleet pays for each ship caught (edition 3; 0 before)
        self.salvage = self.storm.get("salvage", 0)
        #: edition 5: a card carried fewer than ``spaces`` spaces pays ``pays`` of its value
        self.short_haul = self.storm.get("short_haul")
        self.grid = sea["grid"]
        self.cols, self.rows = self.grid["cols"], self.grid["rows"]
        self.centre = tuple(self.grid["centre"])
        self.ports = {p["id"]: p for p in sea["ports"]}
        self.home = next(p["id"] for p in sea["ports"] if p["home"])
        self.paths = {p["id"]: p for p in sea["paths"]}
        self.unit = sea["unit"]
        #: space id -> cell; path space id -> (path id, index)
        self.cell = {pid: tuple(p["cell"]) for pid, p in self.ports.items()}
        self.on_path = {}
        for pid, path in self.paths.items():
            for i, cell in enumerate(path["cells"]):
                self.cell[f"{pid}.{i}"] = tuple(cell)
                self.on_path[f"{pid}.{i}"] = (pid, i)
        self.at_cell = {cell: space for space, cell in self.cell.items()}
        self.forecast_rule = sea.get("forecast")
        self._footprints = lru_cache(maxsize=None)(self._footprint)
        self._dangers = lru_cache(maxsize=None)(self._danger)
        self._forecasts = lru_cache(maxsize=None)(self._forecast)
        self.routes = lru_cache(maxsize=None)(self._routes)
        self.walk = lru_cache(maxsize=None)(self._walk)
        self._blocked = lru_cache(maxsize=None)(self._blocked_at)

    # --- the cloud -------------------------------------------------------------------------

    def footprint(self, at, letter):
        """(capture cells, push cells) of the cloud at ``at`` with ``letter`` on the notch."""
        return self._footprints(tuple(at), letter)

    def danger(self, at, letter):
        return self._dangers(tuple(at), letter)

    def forecast(self, at):
        return self._forecasts(tuple(at))

    def catching(self, at, letter):
        """The cells where the cloud at ``at`` catches a ship: its magnets (editions 1 and 2), or
        its whole wind field, magnets and the rest of its diamond (edition 3)."""
        capture, push = self.footprint(at, letter)
        return capture | push if self.storm.get("wind_field_catches") else capture

    def inside(self, cell) -> bool:
        return 0 <= cell[0] < self.cols and 0 <= cell[1] < self.rows

    def _footprint(self, at, letter):
        x, y = at
        rot = ROTATIONS[letter]
        capture = frozenset(c for c in ((x + dx, y + dy) for dx, dy in rot["capture"]) if self.inside(c))
        push = frozenset(c for c in ((x + dx, y + dy) for dx, dy in rot["push"]) if self.inside(c))
        return capture, push

    def track(self, at, outcome):
        """The locator cells the cloud passes through for one spinner outcome, start excluded."""
        dx, dy = STEP[outcome["direction"]]
        steps = outcome["count"] if outcome["count"] is not None else max(self.cols, self.rows)
        x, y = at
        cells = []
        for _ in range(steps):
            if not self.inside((x + dx, y + dy)):
                break  # never past an outside dot
            x, y = x + dx, y + dy
            cells.append((x, y))
        return cells

    def swept(self, at, outcome):
        """The cells the magnets pass over for one spinner outcome (turned first, then moved)."""
        cells = set(self.footprint(at, outcome["letter"])[0])
        for cell in self.track(at, outcome):
            cells |= self.footprint(cell, outcome["letter"])[0]
        return frozenset(cells)

    def reach(self, at, outcome):
        """The cells where the cloud catches ships for one spinner outcome: the magnets' sweep,
        or in edition 3 the sweep of its whole wind field."""
        cells = set(self.catching(at, outcome["letter"]))
        for cell in self.track(at, outcome):
            cells |= self.catching(cell, outcome["letter"])
        return frozenset(cells)

    def _danger(self, at, letter):
        """What the spinner can do next from the cloud at ``at`` (the letter does not matter: the
        spin turns the cloud first): per cell, in how many of the spinner's sectors the cloud
        catches there (``capture``: the magnets, in edition 3 its whole wind field) or ends over
        it (``cover``). Edition 1's cone."""
        capture, cover = {}, {}
        for outcome in self.spinner:
            end = (self.track(at, outcome) or [at])[-1]
            if outcome["count"] is None:
                end, letter_after = self.centre, "A"
            else:
                letter_after = outcome["letter"]
            for cell in self.reach(at, outcome):
                capture[cell] = capture.get(cell, 0) + 1
            cap, push = self.footprint(end, letter_after)
            for cell in cap | push:
                cover[cell] = cover.get(cell, 0) + 1
        return capture, cover

    def _forecast(self, at):
        """Edition 2's forecast, as NHC draws one: the *cone* is every cell the magnets sweep in
        the two thirds of the spinner's outcomes whose end lies nearest the average end (the
        forecast position), so the cloud leaves the drawn cone in about one spin of three; the
        *margin* is every other cell within ``margin`` dots of the cone (the mariner's 1-2-3
        rule in small). Returns (cone cells, margin cells, the sectors inside the cone)."""
        rule = self.forecast_rule
        ends = [(self.track(at, o) or [at])[-1] for o in self.spinner]
        mean = (sum(e[0] for e in ends) / len(ends), sum(e[1] for e in ends) / len(ends))
        share = rule["cone_share"]
        keep = -(-len(self.spinner) * share[0] // share[1])
        nearest = sorted(
            range(len(self.spinner)), key=lambda i: ((ends[i][0] - mean[0]) ** 2 + (ends[i][1] - mean[1]) ** 2, i)
        )
        inside = tuple(sorted(nearest[:keep]))
        cone = set()
        for i in inside:
            cone |= self.swept(at, self.spinner[i])
        if self.storm.get("margin_from_reach"):  # edition 5: every other dot the next spin can catch on
            margin = set().union(*(self.reach(at, o) for o in self.spinner)) - cone
            return frozenset(cone), frozenset(margin), inside
        m = rule["margin"]
        margin = {
            (x + dx, y + dy)
            for x, y in cone
            for dx in range(-m, m + 1)
            for dy in range(-m, m + 1)
            if self.inside((x + dx, y + dy))
        } - cone
        return frozenset(cone), frozenset(margin), inside

    def _blocked_at(self, at, letter):
        capture, push = self.footprint(at, letter)
        return capture | push

    def blocked_cells(self, cloud):
        """Every cell under the cloud now: no ship may sail there."""
        return self._blocked(tuple(cloud["at"]), cloud["letter"])

    # --- the sea ---------------------------------------------------------------------------

    def _routes(self, space):
        """Where a ship on ``space`` can head: ``[(path id, direction)]``, direction +1 towards the
        path's ``b`` end, -1 towards ``a``."""
        if space in self.ports:
            return tuple(
                (pid, 1 if p["a"] == space else -1) for pid, p in self.paths.items() if space in (p["a"], p["b"])
            )
        pid, _ = self.on_path[space]
        return ((pid, 1), (pid, -1))

    def _walk(self, space, pid, direction):
        """The spaces ahead of a ship on ``space`` heading along ``pid`` in ``direction``, ending
        with the port at that end."""
        path = self.paths[pid]
        cells = path["cells"]
        start = (-1 if direction == 1 else len(cells)) if space in self.ports else self.on_path[space][1]
        out = []
        i = start + direction
        while 0 <= i < len(cells):
            out.append(f"{pid}.{i}")
            i += direction
        out.append(path["b"] if direction == 1 else path["a"])
        return tuple(out)


SEAS = {
    1: Sea(CONTENT["sea"], CLOUD["spinner"], 1),
    2: Sea(CONTENT["sea_2"], CONTENT["cloud_2"]["spinner"], 2),
    3: Sea(CONTENT["sea_2"], CONTENT["cloud_2"]["spinner"], 3, CONTENT["storm_3"]),
    4: Sea(CONTENT["sea_2"], CONTENT["cloud_2"]["spinner"], 4, CONTENT["storm_3"]),  # edition 3's sea
    5: Sea(CONTENT["sea_2"], CONTENT["cloud_2"]["spinner"], 5, CONTENT["storm_5"]),  # and a short haul pays less
}
#: the current edition's sea, for code that draws new games (kit, tests)
NOW = SEAS[EDITION]
SEA = NOW.data
GRID, COLS, ROWS, CENTRE = NOW.grid, NOW.cols, NOW.rows, NOW.centre
PORTS, HOME, PATHS, UNIT = NOW.ports, NOW.home, NOW.paths, NOW.unit
CELL, ON_PATH, AT_CELL = NOW.cell, NOW.on_path, NOW.at_cell
footprint, danger, forecast, track = NOW.footprint, NOW.danger, NOW.forecast, NOW.track
SPINNER = NOW.spinner
routes, walk, blocked_cells = NOW.routes, NOW.walk, NOW.blocked_cells

OPTIONS = [
    {
        "name": "turns",
        "default": TURNS[EDITION],
        "choices": ["in_turn", "together"],
        "label": gettext_noop("Ship moves"),
        "choice_labels": {"in_turn": gettext_noop("In turn"), "together": gettext_noop("Together")},
        "description": gettext_noop(
            "In turn: one player after another, as the rule book plays; "
            "together: every player moves one ship in the same round, in any order (a shorter game)."
        ),
    },
    {
        "name": "target",
        "default": 200,
        "choices": [200, 350],
        "label": gettext_noop("Freight to win (thousands of dollars)"),
        "description": gettext_noop(
            "The game ends when a player holds this much freight ($200,000 is the book's shorter game)."
        ),
    },
    {
        "name": "rounds",
        "default": 16,
        "choices": [12, 16, 20, 60],
        "label": gettext_noop("Most rounds"),
        "description": gettext_noop("The game also ends after this many rounds, so it fits the lesson."),
    },
    {
        "name": "cargo_at_risk",
        "default": True,
        "choices": [True, False],
        "label": gettext_noop("Freight sails in the hold"),
        "description": gettext_noop(
            "A freight card stays aboard its ship until the ship docks at its next port; "
            "a ship caught by the cloud loses it. Off: cards are banked at once, as printed."
        ),
    },
]
OPTIONS.append(
    {
        "name": "edition",
        "default": EDITION,
        "choices": None,
        "label": gettext_noop("Rules edition"),
        "description": gettext_noop(
            "The rules edition a game was set up with; 1 replays games stored by "
            "engine 1.0.0, 2 those stored by engine 2.0.0."
        ),
    }
)
DEFAULTS = {o["name"]: o["default"] for o in OPTIONS}

ACTION_FIELDS = {"sail": ("ship", "to"), "end_now": ()}


def ship_ids(seats):
    return [f"s{seat}{n}" for seat in range(seats) for n in range(SEA["ships_per_seat"])]


WORDS = frozenset([space for sea in SEAS.values() for space in sea.cell] + ship_ids(4))
CARDS = {}
for _kind, _values in SEA["decks"].items():
    for _n, _value in enumerate(_values):
        CARDS[f"{_kind}{_n}"] = {"kind": _kind, "value": _value}
for _n, _value in enumerate(SEA["bonus"]):
    CARDS[f"bonus{_n}"] = {"kind": "bonus", "value": _value}


class Bermuda(EngineBasics):
    """The engine (``scenarios.base.Engine``)."""

    key = "bermuda"

    #: the projector's sentences (``scenarios.base.Engine.projector``)
    projector_words = _projector.WORDS

    def projector(self, view: dict) -> dict:
        """This table on the projector, from its teacher view (``projector.py``)."""
        return _projector.line(view)

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
        chosen = options or {}
        options = {**DEFAULTS, **chosen}
        if "turns" not in chosen and options["edition"] in TURNS:
            options["turns"] = TURNS[options["edition"]]
        for o in OPTIONS:
            choices = EDITIONS if o["name"] == "edition" else o["choices"]
            if options[o["name"]] not in choices or isinstance(options[o["name"]], bool) != isinstance(
                o["default"], bool
            ):
                raise IllegalAction("bad_option", gettext_noop("That option is not offered."), name=o["name"])
        if not 2 <= seats <= 4:
            raise IllegalAction("bad_seats", gettext_noop("Bermuda Triangle is for 2 to 4 players."), seats=seats)
        decks = {
            kind: shuffled([f"{kind}{n}" for n in range(len(values))], seed, f"deck-{kind}", None, 0)
            for kind, values in SEA["decks"].items()
        }
        ships = []
        for seat in range(seats):
            for n, port in enumerate(SEA["start_ports"]):
                ships.append(
                    {
                        "id": f"s{seat}{n}",
                        "seat": seat,
                        "at": port,
                        "from": port,
                        "cargo": None,
                        "loaded_at": None,
                        "status": "afloat",
                    }
                )
        state = {
            "seed": seed,
            "options": options,
            "seats_n": seats,
            "round": 1,
            "turn": 0,
            "moved": [False] * seats,
            "rolls": [0] * seats,
            "dice_n": [0] * seats,
            "spins": 0,
            "cloud": {"at": list(SEAS[options["edition"]].centre), "letter": "A", "hanging": []},
            "ships": ships,
            "decks": decks,
            "bonus": [f"bonus{n}" for n in range(len(SEA["bonus"]))],
            "seats": [
                {
                    "banked": [],
                    "lost_cards": [],
                    "moves": 0,
                    "into_cone": 0,
                    "cone_avoidable": 0,
                    "captured": 0,
                    "docked": 0,
                    "bumped": 0,
                    "held": 0,
                }
                for _ in range(seats)
            ],
            "history": [],
            "last_spin": None,
            "ended": None,
        }
        if options["edition"] > 1:
            for me in state["seats"]:
                me.update(into_margin=0, caught_outside=0)
        if options["edition"] > 2:
            for me in state["seats"]:
                me.update(salvage=0, owed=0)
        if options["edition"] > 4:
            for me in state["seats"]:
                me.update(haul_cut=0)
        self._start_round(state)
        self._advance(state)
        return state

    def load(self, data):
        """The state from ``dump``'s output; a state of engine 1.0.0 plays on by edition 1."""
        state = super().load(data)
        state["options"].setdefault("edition", 1)
        return state

    def sea(self, state) -> Sea:
        """The sea of the game's rules edition."""
        return SEAS[state["options"].get("edition", 1)]

    def zone(self, state, space) -> int:
        """Edition 2: where a space lies in the forecast the tablet draws: 2 in the cone, 1 in its
        margin, 0 clear of both. Edition 1: 2 in the cone of every spin, else 0."""
        sea = self.sea(state)
        cell = sea.cell[space]
        at = tuple(state["cloud"]["at"])
        if sea.edition == 1:
            return 0 if space in sea.ports else 2 * (sea.danger(at, state["cloud"]["letter"])[0].get(cell, 0) > 0)
        cone, margin, _inside = sea.forecast(at)
        return 2 if cell in cone else 1 if cell in margin else 0

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
        return [
            m
            for ship in state["ships"]
            if ship["seat"] == seat and ship["status"] == "afloat"
            for m in self._ship_moves(state, ship, sea)
        ]

    def _has_move(self, state, seat):
        sea = self._sea(state)
        return any(
            self._ship_moves(state, ship, sea)
            for ship in state["ships"]
            if ship["seat"] == seat and ship["status"] == "afloat"
        )

    def _sea(self, state):
        """What every move looks at: the cells under the cloud, path spaces taken, ships per port."""
        sea = self.sea(state)
        occupied, in_port = set(), {}
        for s in state["ships"]:
            if s["status"] == "afloat":
                if s["at"] in sea.ports:
                    in_port[s["at"]] = in_port.get(s["at"], 0) + 1
                    in_port[(s["at"], s["seat"])] = in_port.get((s["at"], s["seat"]), 0) + 1
                else:
                    occupied.add(s["at"])
        return sea.blocked_cells(state["cloud"]), occupied, in_port

    def _ship_moves(self, state, ship, sea):
        blocked, occupied, in_port = sea
        geo = self.sea(state)
        roll_, seat, full = state["rolls"][ship["seat"]], ship["seat"], state["seats_n"]
        out = []
        for pid, direction in geo.routes(ship["at"]):
            ahead = geo.walk(ship["at"], pid, direction)
            reached, stop = [], None
            for space in ahead[:roll_]:
                if geo.cell[space] in blocked:
                    stop = "cloud"
                    break
                if space in geo.ports:
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
            out.append(
                {
                    "ship": ship["id"],
                    "to": to,
                    "route": pid,
                    "direction": direction,
                    "toward": ahead[-1],
                    "stop": stop,
                    "exact": exact,
                    "steps": reached.index(to) + 1,
                }
            )
        return out

    def _port_count(self, state, port):
        return sum(1 for s in state["ships"] if s["status"] == "afloat" and s["at"] == port)

    def _port_closed(self, state, port, seat):
        ships = [s for s in state["ships"] if s["status"] == "afloat" and s["at"] == port]
        return len(ships) >= state["seats_n"] or sum(1 for s in ships if s["seat"] == seat) >= 2

    def _refuse_sail(self, state, seat, ship_id, to):
        """Why a sail that is not among the seat's moves is refused (raises IllegalAction)."""
        geo = self.sea(state)
        ship = next((s for s in state["ships"] if s["id"] == ship_id), None)
        if ship is None or not isinstance(to, str) or to not in geo.cell:
            raise IllegalAction("no_such_place", gettext_noop("There is no such ship or space."))
        if ship["seat"] != seat:
            raise IllegalAction("not_your_ship", gettext_noop("That ship belongs to another fleet."))
        if ship["status"] != "afloat":
            raise IllegalAction("ship_lost", gettext_noop("That ship was caught by the cloud."))
        if geo.cell[to] in geo.blocked_cells(state["cloud"]):
            raise IllegalAction("under_cloud", gettext_noop("No ship may sail under the cloud."))
        if to in geo.ports and self._port_closed(state, to, seat):
            if self._port_count(state, to) >= state["seats_n"]:
                raise IllegalAction("port_full", gettext_noop("That port is full."), port=to)
            raise IllegalAction("two_own", gettext_noop("You already have two ships in that port."), port=to)
        raise IllegalAction(
            "wrong_count", gettext_noop("Your dice do not take that ship there."), roll=state["rolls"][seat]
        )

    def _sail(self, state, seat, move, offered):
        geo = self.sea(state)
        ship = next(s for s in state["ships"] if s["id"] == move["ship"])
        me = state["seats"][seat]
        if geo.edition == 1:
            capture, _ = geo.danger(tuple(state["cloud"]["at"]), state["cloud"]["letter"])
            risk = 0 if move["to"] in geo.ports else capture.get(geo.cell[move["to"]], 0)
            safest = min((0 if m["to"] in geo.ports else capture.get(geo.cell[m["to"]], 0)) for m in offered)
            me["into_cone"] += risk > 0
            me["cone_avoidable"] += risk > safest
            entry = {"risk": risk, "safest": safest}
        else:  # the zone the tablet showed: 2 cone, 1 margin, 0 clear
            risk = self.zone(state, move["to"])
            safest = min(self.zone(state, m["to"]) for m in offered)
            me["into_cone"] += risk == 2
            me["into_margin"] += risk == 1
            me["cone_avoidable"] += risk > safest
            entry = {"zone": risk, "safest": safest}
        me["moves"] += 1
        state["history"].append(
            {
                "round": state["round"],
                "seat": seat,
                "ship": ship["id"],
                "to": move["to"],
                **entry,
                "spin": state["spins"],
            }
        )
        events = [
            {
                "type": "sailed",
                "seat": seat,
                "ship": ship["id"],
                "from": ship["at"],
                "to": move["to"],
                "steps": move["steps"],
                "stop": move["stop"],
                **({"risk": risk} if geo.edition == 1 else {"zone": risk}),
            }
        ]
        if ship["at"] in geo.ports:
            ship["from"] = ship["at"]
        ship["at"] = move["to"]
        if move["exact"] and move["to"] not in geo.ports:
            for other in state["ships"]:
                if other is not ship and other["status"] == "afloat" and other["at"] == move["to"]:
                    other["at"] = self._send_back(state, other)
                    state["seats"][other["seat"]]["bumped"] += 1
                    events.append(
                        {
                            "type": "landed_on",
                            "seat": seat,
                            "ship": other["id"],
                            "owner": other["seat"],
                            "to": other["at"],
                        }
                    )
        if move["to"] in geo.ports:
            events += self._dock(state, ship)
            if geo.salvage and self._settle(state, seat):
                events.append(
                    {
                        "type": "salvage_paid",
                        "seat": seat,
                        "paid": state["seats"][seat]["salvage"],
                        "owed": state["seats"][seat]["owed"],
                    }
                )
        return events

    def _send_back(self, state, ship):
        """A ship landed on goes back to the port it came from, or the free space nearest it."""
        geo = self.sea(state)
        port = ship["from"]
        if self._port_count(state, port) < state["seats_n"]:
            return port
        pid = geo.on_path[ship["at"]][0] if ship["at"] in geo.on_path else None
        occupied = {s["at"] for s in state["ships"] if s["status"] == "afloat"}
        blocked = geo.blocked_cells(state["cloud"])
        if pid and port in (geo.paths[pid]["a"], geo.paths[pid]["b"]):
            outward = geo.walk(port, pid, 1 if geo.paths[pid]["a"] == port else -1)[:-1]
            for space in outward:
                if space not in occupied and geo.cell[space] not in blocked:
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
            value = CARDS[ship["cargo"]]["value"]
            paid = self.delivery_pays(state, ship["loaded_at"], ship["at"], value)
            event = {
                "type": "delivered",
                "seat": ship["seat"],
                "ship": ship["id"],
                "card": ship["cargo"],
                "value": value,
            }
            if paid < value:  # edition 5: a short haul pays part of the card
                me["haul_cut"] += value - paid
                me["held"] -= value - paid
                event.update(paid=paid, short_haul=True)
            events.append(event)
            ship["cargo"] = None
        port = self.sea(state).ports[ship["at"]]
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
                events.append(
                    {
                        "type": "freight",
                        "seat": ship["seat"],
                        "ship": ship["id"],
                        "card": card,
                        "kind": port["freight"],
                        "value": CARDS[card]["value"],
                    }
                )
        return events

    # --- rounds and the cloud ----------------------------------------------------------------

    def _start_round(self, state):
        for seat in range(state["seats_n"]):
            n = state["dice_n"][seat]
            state["rolls"][seat] = sum(
                roll(state["seed"], "dice", seat, 2 * n + k, SEA["dice"]["sides"]) for k in range(SEA["dice"]["count"])
            )
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
        sector = draw(state["seed"], "spinner", None, state["spins"]) % len(self.sea(state).spinner)
        state["spins"] += 1
        return self.move_cloud(state, sector)

    def move_cloud(self, state, sector):
        """The cloud turns and moves as spinner sector ``sector`` says; its events."""
        geo = self.sea(state)
        cloud = state["cloud"]
        outcome = geo.spinner[sector]
        before = list(cloud["at"])
        if geo.edition > 1:  # where the tablet's forecast stood when the ships moved
            cone, margin, _inside = geo.forecast(tuple(before))
            zones = {
                s["id"]: 2 if geo.cell[s["at"]] in cone else 1 if geo.cell[s["at"]] in margin else 0
                for s in state["ships"]
                if s["status"] == "afloat"
            }
        cloud["letter"] = outcome["letter"]
        caught = self._capture(state, geo.catching(tuple(cloud["at"]), cloud["letter"]))
        for cell in geo.track(tuple(cloud["at"]), outcome):
            cloud["at"] = list(cell)
            caught += self._capture(state, geo.catching(cell, cloud["letter"]))
        events = [
            {
                "type": "spin",
                "sector": sector,
                "letter": outcome["letter"],
                "count": outcome["count"],
                "direction": outcome["direction"],
                "from": before,
                "to": list(cloud["at"]),
            }
        ]
        for ship in caught:
            event = {"type": "caught", "seat": ship["seat"], "ship": ship["id"], "card": ship["lost_card"]}
            if geo.edition > 1:
                event["zone"] = zones[ship["id"]]
                state["seats"][ship["seat"]]["caught_outside"] += zones[ship["id"]] < 2
            if geo.salvage:
                event["salvage"] = geo.salvage
            events.append(event)
        lifted = []
        if outcome["count"] is None:
            for ship in state["ships"]:
                if ship["status"] == "hanging":
                    ship["status"] = "lost"
                    lifted.append(ship["id"])
            cloud["hanging"] = []
            cloud["at"], cloud["letter"] = list(geo.centre), "A"
            events.append({"type": "lifted", "ships": lifted})
        events += self._push(state)
        state["last_spin"] = {
            "round": state["round"],
            "sector": sector,
            "from": before,
            "to": list(cloud["at"]),
            "caught": [s["id"] for s in caught],
            "lifted": lifted,
        }
        return events

    def _capture(self, state, cells):
        geo = self.sea(state)
        # edition 1 read the harbour as a refuge; edition 2: a port is no refuge (RULES.md)
        refuge = geo.ports if geo.edition == 1 else ()
        caught = []
        for ship in state["ships"]:
            if ship["status"] == "afloat" and ship["at"] not in refuge and geo.cell[ship["at"]] in cells:
                ship["status"] = "hanging"
                ship["lost_card"] = ship["cargo"]
                me = state["seats"][ship["seat"]]
                me["captured"] += 1
                if ship["cargo"]:
                    me["lost_cards"].append(ship["cargo"])
                    me["held"] -= CARDS[ship["cargo"]]["value"]
                    ship["cargo"] = None
                if geo.salvage:  # edition 3: the fleet owes salvage for the ship
                    me["owed"] += geo.salvage
                    self._settle(state, ship["seat"])
                state["cloud"]["hanging"].append(ship["id"])
                caught.append(ship)
        return caught

    def _settle(self, state, seat):
        """Edition 3: a fleet pays the salvage it owes from its banked freight, now or as it
        banks more, so its freight never falls below the cards aboard its ships."""
        me = state["seats"][seat]
        banked = sum(CARDS[c]["value"] for c in me["banked"]) - me.get("haul_cut", 0)
        pay = min(me["owed"] - me["salvage"], banked - me["salvage"])
        if pay > 0:
            me["salvage"] += pay
            me["held"] -= pay
        return pay

    def _push(self, state):
        """Ships left under the cloud are set on the nearest free space of their path it clears."""
        geo = self.sea(state)
        blocked = geo.blocked_cells(state["cloud"])
        events = []
        for ship in state["ships"]:
            if ship["status"] != "afloat" or ship["at"] in geo.ports or geo.cell[ship["at"]] not in blocked:
                continue
            pid, i = geo.on_path[ship["at"]]
            occupied = {s["at"] for s in state["ships"] if s["status"] == "afloat"}
            cells = geo.paths[pid]["cells"]
            spot = None
            for d in range(1, len(cells) + 1):
                for j in (i - d, i + d):
                    space = f"{pid}.{j}"
                    if 0 <= j < len(cells) and space not in occupied and geo.cell[space] not in blocked:
                        spot = space
                        break
                if spot:
                    break
            if spot is None:
                ends = [geo.paths[pid]["a"], geo.paths[pid]["b"]]
                spot = ends[0] if i < len(cells) / 2 else ends[1]
            events.append({"type": "pushed", "ship": ship["id"], "seat": ship["seat"], "from": ship["at"], "to": spot})
            ship["at"] = spot
            if spot in geo.ports:
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
        """Freight and bonus value the seat holds (banked and aboard its afloat ships, less the
        salvage it paid in edition 3), thousands: kept as a running total (cards taken, less cards
        lost with caught ships and salvage paid)."""
        return state["seats"][seat]["held"]

    def results(self, state):
        rows = []
        for seat in range(state["seats_n"]):
            me = state["seats"][seat]
            afloat = sum(1 for s in state["ships"] if s["seat"] == seat and s["status"] == "afloat")
            rows.append(
                {
                    "seat": seat,
                    "score": self.held(state, seat) * UNIT,
                    "rank": None,
                    "breakdown": {
                        "freight": self.held(state, seat),
                        "banked": sum(CARDS[c]["value"] for c in me["banked"]) - me.get("haul_cut", 0),
                        "lost_freight": sum(CARDS[c]["value"] for c in me["lost_cards"]),
                        "ships_afloat": afloat,
                        "ships_lost": SEA["ships_per_seat"] - afloat,
                        "moves": me["moves"],
                        "into_cone": me["into_cone"],
                        "cone_avoidable": me["cone_avoidable"],
                        "docked": me["docked"],
                        "bumped": me["bumped"],
                        # edition 2: moves into the cone's margin, and ships caught outside the drawn cone
                        "into_margin": me.get("into_margin", 0),
                        "caught_outside": me.get("caught_outside", 0),
                        # edition 3: what the fleet paid for its caught ships
                        "salvage": me.get("salvage", 0),
                        # edition 5: what short hauls did not pay of their cards
                        "haul_cut": me.get("haul_cut", 0),
                    },
                }
            )
        for row in rows:
            row["rank"] = 1 + sum(1 for other in rows if other["score"] > row["score"])
        return rows

    # --- what the screens show ---------------------------------------------------------------

    def board(self):
        return {
            **self._sea_board(NOW),
            "unit": UNIT,
            "rotations": CLOUD["rotations"],
            "spinner": SPINNER,
            "decks": SEA["decks"],
            "bonus": SEA["bonus"],
            "lessons": LESSONS["lessons"],
            "options": self.options(),
        }

    @staticmethod
    def _sea_board(sea):
        return {
            "grid": sea.grid,
            "ports": sea.data["ports"],
            "paths": sea.data["paths"],
            "spaces": {k: list(v) for k, v in sea.cell.items()},
        }

    def view(self, state, seat):
        geo = self.sea(state)
        cloud = state["cloud"]
        at = tuple(cloud["at"])
        capture, push = geo.footprint(at, cloud["letter"])
        if geo.edition == 1:  # every cell the next spin can sweep, with its count
            cone, cover = geo.danger(at, cloud["letter"])
            total = len(geo.spinner)
            drawn = sorted([x, y, n] for (x, y), n in cone.items())
            risk = lambda space: 0 if space in geo.ports else cone.get(geo.cell[space], 0)  # noqa: E731
        else:  # the forecast as NHC draws it: the cone (2) and its 1-2-3 margin (1), no counts
            in_cone, margin, _inside = geo.forecast(at)
            cover, total = {}, 2
            drawn = sorted([[x, y, 2] for x, y in in_cone] + [[x, y, 1] for x, y in margin])
            risk = lambda space: self.zone(state, space)  # noqa: E731
        acting = self.to_act(state)
        moves = []
        ships_by_id = {s["id"]: s for s in state["ships"]}
        if seat is not None and seat in acting:
            for m in self.moves(state, seat):
                moves.append(
                    {
                        "ship": m["ship"],
                        "to": m["to"],
                        "toward": m["toward"],
                        "steps": m["steps"],
                        "stop": m["stop"],
                        "risk": risk(m["to"]),
                        "docks": m["to"] in geo.ports,
                        "gain": self._dock_gain(state, m["to"]) if m["to"] in geo.ports else None,
                        # edition 5: docking here delivers the cargo aboard for part of its value
                        "short_haul": self._short_haul(state, ships_by_id[m["ship"]], m["to"]),
                    }
                )
        ships = []
        for s in state["ships"]:
            ships.append(
                {
                    "id": s["id"],
                    "seat": s["seat"],
                    "at": s["at"],
                    "status": s["status"],
                    "cargo": CARDS[s["cargo"]]["value"] if s["cargo"] else None,
                    "risk": risk(s["at"]) if s["status"] == "afloat" else 0,
                }
            )
        ports = {}
        for pid, port in geo.ports.items():
            deck = state["bonus"] if port["home"] else state["decks"][port["freight"]]
            ports[pid] = {
                "top": CARDS[deck[0]]["value"] if deck else None,
                "left": len(deck),
                "ships": self._port_count(state, pid),
                "closed": geo.cell[pid] in (capture | push),
            }
        out = {
            "edition": geo.edition,
            "forecast": geo.edition > 1,
            "round": state["round"],
            "rounds": state["options"]["rounds"],
            "target": state["options"]["target"],
            "turns": state["options"]["turns"],
            "turn": state["turn"],
            "acting": acting,
            "roll": state["rolls"][seat] if seat is not None else None,
            "moved": list(state["moved"]),
            "over": self.finished(state),
            "ended": state["ended"],
            "cloud": {
                "at": list(cloud["at"]),
                "letter": cloud["letter"],
                "hanging": list(cloud["hanging"]),
                "capture": sorted(map(list, capture)),
                "push": sorted(map(list, push)),
                "catch": sorted(map(list, geo.catching(at, cloud["letter"]))),
            },
            "salvage": geo.salvage,
            # edition 5: the margin is every other dot the next spin can catch on
            "margin_from_reach": bool(geo.storm.get("margin_from_reach")),
            "cone": drawn,
            "cover": sorted([x, y, n] for (x, y), n in cover.items()),
            "sectors": total,
            "ships": ships,
            "ports": ports,
            "moves": moves,
            "seats": [
                {
                    "seat": n,
                    "freight": self.held(state, n),
                    "lost_freight": sum(CARDS[c]["value"] for c in state["seats"][n]["lost_cards"]),
                    "afloat": sum(1 for s in state["ships"] if s["seat"] == n and s["status"] == "afloat"),
                    # edition 3: salvage paid from banked freight, and salvage owed in all
                    "salvage": state["seats"][n].get("salvage", 0),
                    "owed": state["seats"][n].get("owed", 0),
                    "into_cone": state["seats"][n]["into_cone"],
                    "moves": state["seats"][n]["moves"],
                }
                for n in range(state["seats_n"])
            ],
            "last_spin": state["last_spin"],
            "last_sail": state["history"][-1] if state["history"] else None,
            "cards": (
                [
                    {"kind": CARDS[c]["kind"], "value": CARDS[c]["value"], "aboard": False}
                    for c in state["seats"][seat]["banked"]
                ]
                + [
                    {"kind": CARDS[sh["cargo"]]["kind"], "value": CARDS[sh["cargo"]]["value"], "aboard": sh["id"]}
                    for sh in state["ships"]
                    if sh["seat"] == seat and sh["status"] == "afloat" and sh["cargo"]
                ]
            )
            if seat is not None
            else [],
            "actions": self.actions(state, seat) if seat is not None else [],
            "progress": min(
                100, round(100 * max(self.held(state, n) for n in range(state["seats_n"])) / state["options"]["target"])
            ),
        }
        if geo.data is not NOW.data:  # a game of an older edition draws its own sea
            out["sea"] = self._sea_board(geo)
        return out

    def held_card(self, ship):
        """The value of the card in a ship's hold, thousands (0 if none)."""
        return CARDS[ship["cargo"]]["value"] if ship["cargo"] else 0

    def haul(self, state, a, b):
        """Spaces of sea between ports ``a`` and ``b`` along the shortest path joining them,
        counting the arrival (None if no path joins them)."""
        paths = self.sea(state).paths.values()
        return min((len(p["cells"]) + 1 for p in paths if {p["a"], p["b"]} == {a, b}), default=None)

    def delivery_pays(self, state, loaded_at, port, value):
        """What a card of ``value`` loaded at ``loaded_at`` pays delivered at ``port``: all of it,
        or in edition 5 part of it when the haul is short (``storm_5.json``)."""
        rule = self.sea(state).short_haul
        if not rule or loaded_at is None:
            return value
        spaces = self.haul(state, loaded_at, port)
        if spaces is not None and spaces < rule["spaces"]:
            return round(value * rule["pays"])
        return value

    def _short_haul(self, state, ship, to) -> bool:
        """Whether docking ``ship`` at ``to`` delivers its cargo for less than its value."""
        if to not in self.sea(state).ports or not ship["cargo"] or ship["loaded_at"] == to:
            return False
        value = CARDS[ship["cargo"]]["value"]
        return self.delivery_pays(state, ship["loaded_at"], to, value) < value

    def _dock_gain(self, state, port):
        ports = self.sea(state).ports
        deck = state["bonus"] if ports[port]["home"] else state["decks"][ports[port]["freight"]]
        return CARDS[deck[0]]["value"] if deck else 0


ENGINE = Bermuda()
