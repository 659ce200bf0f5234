"""The resort game ("Hurricane", rule book 000): run coastal resorts through one real storm.

Pure rules, no Django: ``Resort`` satisfies ``scenarios.base.Engine``. Every reading of the rule
book, and every hole it leaves that this engine fills, is in ``RULES.md``. Money is in dollars.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

from scenarios.base import EngineBasics, IllegalAction, draw, load_content, roll, shuffled
from scenarios.resort import projector as _projector
from scenarios.words import gettext_noop  # marks refusal sentences for the web layer to translate

CONTENT, CONTENT_HASH = load_content(
    Path(__file__).parent / "content",
    ["board.json", "bulletins.json", "programs.json", "programs_2.json", "measures.json"],
)
BOARD = CONTENT["board"]
SEA = BOARD["sea"]
RESORTS = {r["id"]: r for r in BOARD["resorts"]}
RESORT_IDS = [r["id"] for r in BOARD["resorts"]]
OUTER = BOARD["outer"]
BULLETINS = {c["id"]: c for c in CONTENT["bulletins"]["cards"]}
#: the program cards of each rules edition: edition 1 sampled every storm's fixes evenly (and so
#: dropped some peaks and landfalls); edition 2 keeps them (RULES.md, "Program cards")
DECKS = {
    1: {p["key"]: p for p in CONTENT["programs"]["programs"]},
    2: {p["key"]: p for p in CONTENT["programs_2"]["programs"]},
}
DECKS[3] = DECKS[4] = DECKS[2]  # editions 3 and 4 change the season's length and the bonus, not the cards
PROGRAMS = DECKS[2]
PROGRAM_IDS = list(PROGRAMS)
MEASURES = CONTENT["measures"]
OPTION_IDS = [o["id"] for o in BOARD["options"]]
MONEY = BOARD["money"]
DAMAGE = {int(k): v for k, v in BOARD["damage_table"]["percent"].items()}
VALUE = BOARD["value_table"]["percent"]
COLOURS = {c["colour"]: c["bonus"] for c in BOARD["colours"]}
DIE = BOARD["die"]
SAIL_TURNS = BOARD["sail_turns"]
LOST_TURNS = BOARD["bermuda_turns_lost"]
STEP = SEA["step"]
LATS = [row["lat"] for row in SEA["rows"]]
LONS = SEA["lons"]
WATER = {(row["lat"], lon) for row in SEA["rows"] for lon, cell in zip(LONS, row["land"]) if cell == "."}
CRUISEPORT = tuple(SEA["cruiseport"])
TRIANGLE = tuple(SEA["triangle"])
VERSION = "4"
SCHEMA_VERSION = 2
#: the rules edition new games are set up with; edition 1 replays games stored by engine "1",
#: edition 2 those set up before the season fitted a lesson's play, edition 3 those set up while an
#: exact plot paid 5,000 (RULES.md, "Edition 4")
EDITION = 4
EDITIONS = (1, 2, 3, 4)
#: the season's length in rounds of a four-player table when the teacher does not choose one:
#: edition 3's fits 20 minutes of play at a child's pace (``python -m benchmarks.resort``)
ROUND_CAP = {1: 30, 2: 30, 3: 12, 4: 12}
#: what the bank pays for an exact plot with ``track_bonus`` on: edition 4 pays a fifth of
#: before, so that reading the coordinates no longer outweighs preparing (RULES.md, "Edition 4")
TRACK_BONUS = {1: MONEY["exact_track_bonus_edition_3"], 2: MONEY["exact_track_bonus_edition_3"]}
TRACK_BONUS.update({3: TRACK_BONUS[2], 4: MONEY["exact_track_bonus"]})

OPTIONS = [
    {
        "name": "storm",
        "default": "surprise",
        "choices": ["surprise"] + PROGRAM_IDS,
        "label": gettext_noop("Storm"),
        "choice_labels": {"surprise": gettext_noop("Surprise")},
        "description": gettext_noop(
            "The real storm whose best track is the hurricane program (name and year), or a surprise."
        ),
    },
    {
        "name": "round_cap",
        "default": ROUND_CAP[EDITION],
        "choices": [10, 12, 14, 16, 20, 30, 40],
        "label": gettext_noop("Season length (rounds of four players)"),
        "description": gettext_noop(
            "After this many rounds of a four-player table (proportionally more for fewer players) the rest of the storm's program is read out at once."
        ),
    },
    {
        "name": "track_bonus",
        "default": True,
        "label": gettext_noop("Pay for an exact storm position"),
        "description": gettext_noop("The bank pays a small bonus to every player who places the storm exactly."),
    },
    {
        "name": "edition",
        "default": EDITION,
        "choices": None,
        "label": gettext_noop("Rules edition"),
        "description": gettext_noop("The rules edition a game was set up with; 1 replays games stored by engine 1."),
    },
]
ACTION_FIELDS = {
    "roll": (),
    "buy": ("options",),
    "pass": (),
    "option": ("resort",),
    "return": (),
    "stay": (),
    "track": ("lat", "lon"),
    "end_now": (),
    "refuge": ("space",),
    "sail_from": ("dock",),
}
WORDS = frozenset(RESORT_IDS)
TRACK_POINTS = [(lat, lon) for lat in LATS for lon in LONS]


def _neighbours(cell):
    lat, lon = cell
    for d_lat, d_lon in ((STEP, 0), (-STEP, 0), (0, -STEP), (0, STEP)):  # north, south, east, west
        nxt = (lat + d_lat, lon + d_lon)
        if nxt in WATER:
            yield nxt


def _distances(target):
    dist = {target: 0}
    queue = deque([target])
    while queue:
        cell = queue.popleft()
        for nxt in _neighbours(cell):
            if nxt not in dist:
                dist[nxt] = dist[cell] + 1
                queue.append(nxt)
    return dist


#: squares by water from every resort's docking circle (yachts never cross land)
SAIL = {rid: _distances((r["lat"], r["lon"])) for rid, r in RESORTS.items()}


def category_hit(line, resort) -> int:
    """The category a program line strikes a resort with: the full category on the storm's own
    square, one less on the eight squares around it, nothing further away (RULES.md)."""
    d = max(abs(line["lat"] - resort["lat"]), abs(line["lon"] - resort["lon"])) // STEP
    if d == 0:
        return line["category"]
    if d == 1:
        return max(0, line["category"] - 1)
    return 0


#: edition 2's measures (``measures.json``), in the book's order: kit, plan, seawall, reinforce, insurance
MEASURE = {m["id"]: m for m in MEASURES["measures"]}
LOSS = {int(k): v for k, v in MEASURES["loss_percent"].items()}
SURGE = MEASURES["surge_share"]
CLAIM = MEASURE["insurance"]["claim_share"]


def damage_for(resort, category, options, edition=EDITION) -> int:
    """Dollars of damage to the buildings. Edition 1: the DAMAGE TABLE, per cent of the price by
    category and options held. Edition 2: the loss by category, of which the seawall (the third
    option) takes a share off the water's part and structural reinforcement (the fourth) off the
    wind's part; the kit, the plan and insurance leave the buildings' damage as it is."""
    if category <= 0:
        return 0
    if edition == 1:
        return resort["price"] * DAMAGE[category][options] // 100
    bare = resort["price"] * LOSS[category] / 100
    water, wind = bare * SURGE, bare * (1 - SURGE)
    if options >= 3:
        water *= 1 - MEASURE["seawall"]["avoids"]
    if options >= 4:
        wind *= 1 - MEASURE["reinforce"]["avoids"]
    return round(water + wind)


def claim_for(damage, options, edition=EDITION) -> int:
    """Edition 2: what hurricane insurance (the fifth option) pays back of a damage (none without it)."""
    return round(damage * CLAIM) if edition != 1 and options >= 5 else 0


def resort_value(resort, options, edition=EDITION) -> int:
    """A resort's end value. Edition 1: the RESORT VALUE TABLE, per cent of the price by options
    held. Edition 2: the price plus what the seawall and the reinforcement held cost (they are
    part of the buildings; the kit, the plan and the premium are spent)."""
    if edition == 1:
        return resort["price"] * VALUE[options] // 100
    return resort["price"] + sum(MEASURE_PRICE[resort["id"]][k] for k in (2, 3) if options > k)


def docking_fee(resort, edition=EDITION) -> int:
    """The docking fee: the resort's own in edition 1, half of it in edition 2 (RULES.md)."""
    return resort["fee"] if edition == 1 else round(resort["fee"] * MEASURES["docking_fee_share"])


def season_damage(program, holdings, edition=EDITION, net=False) -> int:
    """What a whole program does to ``holdings`` ({resort: options held}): the counterfactual the
    debrief and the policy bot use (every line read out, options as held). ``net``: less what
    insurance pays back."""
    total = 0
    for line in program["lines"]:
        for rid, options in holdings.items():
            damage = damage_for(RESORTS[rid], category_hit(line, RESORTS[rid]), options, edition)
            total += damage - (claim_for(damage, options, edition) if net else 0)
    return total


def exposure(rid, edition=EDITION) -> float:
    """Average damage, as a share of the price, an unprotected resort takes over every real storm
    in the program deck (what the policy bot weighs options by)."""
    resort, deck = RESORTS[rid], DECKS[edition]
    return sum(season_damage(p, {rid: 0}, edition) for p in deck.values()) / len(deck) / resort["price"]


EXPOSURE = {rid: exposure(rid) for rid in RESORT_IDS}
#: edition 2: the unprotected damage, as a share of the price, of the average resort over the deck
DECK_LOSS = sum(EXPOSURE.values()) / len(EXPOSURE)


def _measure_share(mid) -> float:
    """Edition 2: a measure's price as a share of the resort's price (RULES.md, "Options"). The
    seawall and reinforcement cost what they avoid at the average resort over the deck of real
    storms divided by the benefit-cost ratio NIBS found for that kind of measure; the kit and the
    plan cost a fixed small share (insurance: ``_premium``)."""
    m = MEASURE[mid]
    if mid == "seawall":
        return m["avoids"] * SURGE * DECK_LOSS / m["benefit_cost"]
    if mid == "reinforce":
        return m["avoids"] * (1 - SURGE) * DECK_LOSS / m["benefit_cost"]
    return m["price_share"]


def _premium(rid) -> int:
    """Edition 2: insurance is priced by each resort's own risk, as insurers price it: the claims
    it would pay there on average over the deck (with the other four measures held), divided by
    the share of premiums an insurer pays back as claims."""
    deck = DECKS[EDITION]
    claims = sum(season_damage(p, {rid: 5}, EDITION) for p in deck.values()) / len(deck) * CLAIM
    return claims / MEASURE["insurance"]["loss_ratio"]


#: edition 2: each resort's price of each measure, rounded to 100 dollars
MEASURE_PRICE = {
    rid: [
        max(
            100,
            round((_premium(rid) if mid == "insurance" else RESORTS[rid]["price"] * _measure_share(mid)) / 100) * 100,
        )
        for mid in OPTION_IDS
    ]
    for rid in RESORT_IDS
}


def option_price(rid, held, edition=EDITION) -> int:
    """The price of the next option for a resort that holds ``held``: edition 1, the resort's one
    price per option; edition 2, the price of the next measure in the book's order."""
    return RESORTS[rid]["option"] if edition == 1 else MEASURE_PRICE[rid][held]


def options_price(rid, held, more, edition=EDITION) -> int:
    """The price of ``more`` options on top of ``held``."""
    return sum(option_price(rid, k, edition) for k in range(held, held + more))


class Resort(EngineBasics):
    key = "resort"

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
        """A seat's turn is its round's roll, buys, options and shelter: an idle player's stand-in
        plays all of it, so the student comes back to their next turn, not half of this one."""
        return [state["round"], state["turn"]]

    def setup(self, seed, seats, options=None):
        chosen = {o["name"]: o["default"] for o in OPTIONS}
        for name, value in (options or {}).items():
            spec = next((o for o in OPTIONS if o["name"] == name), None)
            if spec is None:
                continue  # an option of another version or scenario is ignored
            if name == "edition":
                bad = value not in EDITIONS or isinstance(value, bool)
            else:
                bad = (
                    "choices" in spec
                    and value not in spec["choices"]
                    or "choices" not in spec
                    and not isinstance(value, bool)
                )
            if bad:
                raise IllegalAction("bad_option", gettext_noop("That option is not offered."), name=name)
            chosen[name] = value
        if "round_cap" not in (options or {}):
            chosen["round_cap"] = ROUND_CAP[chosen["edition"]]
        if not 2 <= seats <= 4:
            raise IllegalAction("bad_seats", gettext_noop("This game needs two to four players."), seats=seats)
        storm = chosen["storm"]
        if storm not in DECKS[chosen["edition"]] and storm != "surprise":
            raise IllegalAction("bad_option", gettext_noop("That option is not offered."), name="storm")
        if storm == "surprise":
            storm = PROGRAM_IDS[draw(seed, "storm", None, 0) % len(PROGRAM_IDS)]
        deck = shuffled(sorted(BULLETINS), seed, "bulletins", None, 0)
        return {
            "seed": seed,
            "options": chosen,
            "program": storm,
            "line": 0,
            "round": 1,
            "turn": 0,
            # the same number of turns at any table size: a lesson's time goes by turns
            "cap": -(-chosen["round_cap"] * 4 // seats),
            "phase": "roll",
            "ended": False,
            "over": False,
            "deck": deck,
            "rolls": 0,
            "owner": {rid: None for rid in RESORT_IDS},
            "held": {rid: 0 for rid in RESORT_IDS},
            "since": {rid: None for rid in RESORT_IDS},  # the program line a resort was bought at
            "disk": None,
            "tracks": {},
            "last": [],
            "seats": [
                {
                    "seat": n,
                    "cash": MONEY["start_cash"],
                    "pawn": 0,
                    "yacht": list(CRUISEPORT),
                    "docked": None,
                    "sail_to": None,
                    "sail_turn": 0,
                    "lost": 0,
                    "in_triangle": False,
                    "spent_options": 0,
                    "options_bought": 0,
                    "damage": 0,
                    "unprotected_damage": 0,
                    "fees_paid": 0,
                    "fees_received": 0,
                    "bonus": 0,
                    "tracked": 0,
                    "exact": 0,
                    "track_error": 0,
                    "bulletins": 0,
                    "bought": [],
                    # edition 2: what insurance paid back, and resort hits with and without a plan
                    "claims": 0,
                    "people_safe": 0,
                    "people_at_risk": 0,
                }
                for n in range(seats)
            ],
        }

    def load(self, data):
        """The state from ``dump``'s output; a schema 1 state (engine 1) plays on by edition 1."""
        state = super().load(data)
        if "edition" not in state["options"]:
            state["options"]["edition"] = 1
            for s in state["seats"]:
                s.update(claims=0, people_safe=0, people_at_risk=0)
        return state

    def edition(self, state) -> int:
        return state["options"].get("edition", 1)

    # --- whose move --------------------------------------------------------------------------

    def finished(self, state):
        return state["ended"] or state["over"]

    def to_act(self, state):
        if self.finished(state):
            return []
        if state["phase"] == "track":
            return [s["seat"] for s in state["seats"] if str(s["seat"]) not in state["tracks"]]
        return [state["turn"]]

    def actions(self, state, seat):
        if self.finished(state):
            return []
        if seat is None:
            return [{"type": "end_now"}]
        if seat not in self.to_act(state):
            return []
        me = state["seats"][seat]
        phase = state["phase"]
        if phase == "roll":
            return [{"type": "roll"}]
        if phase == "track":
            return [{"type": "track", "lat": lat, "lon": lon} for lat, lon in TRACK_POINTS]
        if phase == "buy":
            rid = OUTER[me["pawn"]]
            return [
                {"type": "buy", "options": k}
                for k in range(6)
                if RESORTS[rid]["price"] + options_price(rid, 0, k, self.edition(state)) <= me["cash"]
            ] + [{"type": "pass"}]
        if phase == "option":
            return [
                {"type": "option", "resort": rid}
                for rid in self.mine(state, seat)
                if state["held"][rid] < 5 and self.next_option_price(state, rid) <= me["cash"]
            ] + [{"type": "pass"}]
        if phase == "shelter":
            return [{"type": "return"}, {"type": "stay"}]
        if phase == "refuge":
            return [{"type": "refuge", "space": i} for i, kind in enumerate(OUTER) if kind == "shelter"]
        if phase == "sail_from":
            return [{"type": "sail_from", "dock": True}, {"type": "sail_from", "dock": False}]
        return []

    def _legal(self, state, seat, action) -> bool:
        """``action in self.actions(state, seat)``, without listing every grid point to plot."""
        if not isinstance(action, dict):
            return False
        if action.get("type") == "track" and state["phase"] == "track" and not self.finished(state):
            lat, lon = action.get("lat"), action.get("lon")
            return (
                type(seat) is int
                and 0 <= seat < len(state["seats"])
                and str(seat) not in state["tracks"]
                and len(action) == 3
                and type(lat) is int
                and type(lon) is int
                and lat in LATS
                and lon in LONS
            )
        return action in self.actions(state, seat)

    def space_resort(self, state, seat):
        """The resort under the seat's pawn, or None."""
        space = OUTER[state["seats"][seat]["pawn"]]
        return space if space in RESORTS else None

    def next_option_price(self, state, rid) -> int:
        return option_price(rid, state["held"][rid], self.edition(state))

    def mine(self, state, seat):
        return [rid for rid in RESORT_IDS if state["owner"][rid] == seat]

    # --- applying ------------------------------------------------------------------------------

    def apply(self, state, seat, action):
        if not self._legal(state, seat, action):
            raise IllegalAction("not_now", gettext_noop("That is not something you can do now."))
        kind = action["type"]
        if kind == "end_now":
            state["ended"] = True
            events = [{"type": "ended"}]
        elif kind == "track":
            events = self._track(state, seat, action)
        elif kind == "roll":
            events = self._roll(state, seat)
        elif kind == "buy":
            events = self._buy(state, seat, action["options"])
        elif kind == "option":
            events = self._option(state, seat, action["resort"])
        elif kind == "refuge":
            events = self._refuge(state, seat, action["space"])
        elif kind == "sail_from":
            events = self._sail_from(state, seat, action["dock"])
        elif kind == "return":
            me = state["seats"][seat]
            me["yacht"], me["docked"] = list(CRUISEPORT), None
            events = [{"type": "yacht_home", "seat": seat}] + self._end_turn(state)
        else:  # pass, stay
            events = [{"type": "passed", "seat": seat}] + self._end_turn(state)
        state["last"] = events
        return events

    def _roll(self, state, seat):
        me = state["seats"][seat]
        n = roll(state["seed"], "die", seat, state["rolls"], sides=DIE)
        state["rolls"] += 1
        if me["sail_to"]:
            return [{"type": "rolled", "seat": seat, "die": n}] + self._sail(state, seat, n)
        me["pawn"] = (me["pawn"] + n) % len(OUTER)
        events = [
            {"type": "rolled", "seat": seat, "die": n},
            {"type": "moved", "seat": seat, "space": me["pawn"], "kind": self.space_kind(me["pawn"])},
        ]
        return events + self._land(state, seat)

    def space_kind(self, index):
        space = OUTER[index]
        return "resort" if space in RESORTS else space

    def _land(self, state, seat):
        """What the space under the seat's pawn does; ends the turn unless a choice is waiting."""
        me = state["seats"][seat]
        space = OUTER[me["pawn"]]
        if space in RESORTS:
            owner = state["owner"][space]
            if owner is None:
                if me["cash"] >= RESORTS[space]["price"]:
                    state["phase"] = "buy"
                    return []
                return [{"type": "cannot_afford", "seat": seat, "resort": space}] + self._end_turn(state)
            if owner == seat:
                return self._end_turn(state)
            if state["seats"][owner]["in_triangle"]:
                fee = MONEY["mismanaged_fee"]
                if self.edition(state) == 1:  # edition 1 read the book backwards: the lander paid
                    self._pay(state, seat, owner, fee)
                    return [
                        {"type": "mismanaged", "seat": seat, "owner": owner, "resort": space, "fee": fee}
                    ] + self._end_turn(state)
                self._pay(state, owner, seat, fee)  # the book: the absent owner pays the lander
                return [
                    {"type": "mismanaged", "seat": seat, "owner": owner, "resort": space, "fee": fee, "paid_by": owner}
                ] + self._end_turn(state)
            if me["docked"] == space:
                return self._dock(state, seat, space, double=False) + self._end_turn(state)
            if me["docked"] is not None and self.edition(state) > 1:
                # the book: a docked yacht need not go back to START; it may sail from where it is
                me["sail_to"], me["sail_turn"] = space, 0
                state["phase"] = "sail_from"
                return [
                    {
                        "type": "may_sail",
                        "seat": seat,
                        "resort": space,
                        "owner": owner,
                        "from_dock": SAIL[space][tuple(me["yacht"])],
                        "from_port": SAIL[space][CRUISEPORT],
                    }
                ]
            if me["docked"] is None:
                me["yacht"] = list(CRUISEPORT)
            me["sail_to"], me["sail_turn"], me["docked"] = space, 0, None
            return [
                {
                    "type": "must_sail",
                    "seat": seat,
                    "resort": space,
                    "owner": owner,
                    "squares": SAIL[space][tuple(me["yacht"])],
                }
            ] + self._end_turn(state)
        if space == "p":
            if any(
                state["held"][rid] < 5 and self.next_option_price(state, rid) <= me["cash"]
                for rid in self.mine(state, seat)
            ):
                state["phase"] = "option"
                return []
            return self._end_turn(state)
        if space == "sb":
            return self._bulletin(state, seat)
        if space == "h":
            return self._advance_program(state, seat)
        if space == "bermuda":
            me["yacht"], me["docked"], me["in_triangle"], me["lost"] = list(TRIANGLE), None, True, LOST_TURNS
            return [{"type": "bermuda", "seat": seat}] + self._end_turn(state)
        if space == "shelter":
            if tuple(me["yacht"]) != CRUISEPORT:
                state["phase"] = "shelter"
                return []
            return self._end_turn(state)
        return self._end_turn(state)  # start

    def _sail_from(self, state, seat, dock):
        """Edition 2: a docked yacht sails from its resort, or goes back to the cruiseport first."""
        me = state["seats"][seat]
        space = me["sail_to"]
        if not dock:
            me["yacht"] = list(CRUISEPORT)
        me["docked"] = None
        return [
            {
                "type": "must_sail",
                "seat": seat,
                "resort": space,
                "owner": state["owner"][space],
                "squares": SAIL[space][tuple(me["yacht"])],
                "from_dock": dock,
            }
        ] + self._end_turn(state)

    def _refuge(self, state, seat, space):
        """Edition 2: out of the Bermuda Triangle, the pawn goes to the Shelter of the player's
        choice; the player then plays the turn from there."""
        me = state["seats"][seat]
        me["pawn"] = space
        state["phase"] = "roll"
        return [{"type": "left_triangle", "seat": seat, "space": space}]

    def _sail(self, state, seat, n):
        me = state["seats"][seat]
        target = me["sail_to"]
        dist = SAIL[target]
        cell = tuple(me["yacht"])
        path = []
        for _ in range(n):
            if dist[cell] == 0:
                break
            cell = next(c for c in _neighbours(cell) if dist[c] == dist[cell] - 1)
            path.append(list(cell))
        me["yacht"] = list(cell)
        me["sail_turn"] += 1
        events = [{"type": "sailed", "seat": seat, "resort": target, "path": path, "left": dist[cell]}]
        if dist[cell] == 0:
            events += self._dock(state, seat, target, double=False)
        elif me["sail_turn"] >= SAIL_TURNS:
            r = RESORTS[target]
            me["yacht"] = [r["lat"], r["lon"]]
            events += self._dock(state, seat, target, double=True)
        return events + self._end_turn(state)

    def _dock(self, state, seat, rid, double):
        me = state["seats"][seat]
        owner = state["owner"][rid]
        fee = docking_fee(RESORTS[rid], self.edition(state)) * (2 if double else 1)
        self._pay(state, seat, owner, fee)
        me["fees_paid"] += fee
        state["seats"][owner]["fees_received"] += fee
        me["docked"], me["sail_to"], me["sail_turn"] = rid, None, 0
        events = [{"type": "docked", "seat": seat, "resort": rid, "owner": owner, "fee": fee, "double": double}]
        gift = self._weakest(state, owner, prefer=rid)
        if gift:
            state["held"][gift] += 1
            events.append({"type": "free_option", "seat": owner, "resort": gift, "held": state["held"][gift]})
        events += self._lose_option(state, seat, MONEY["no_option_penalty"])
        return events

    def _weakest(self, state, seat, prefer=None):
        """The owner's resort that most needs an option (fewest held; the given one first)."""
        open_ = [rid for rid in self.mine(state, seat) if state["held"][rid] < 5]
        if not open_:
            return None
        return min(open_, key=lambda rid: (state["held"][rid], rid != prefer, RESORT_IDS.index(rid)))

    def _lose_option(self, state, seat, penalty):
        held = [rid for rid in self.mine(state, seat) if state["held"][rid] > 0]
        if not held:
            self._pay(state, seat, None, penalty)
            return [{"type": "paid_bank", "seat": seat, "amount": penalty}]
        rid = max(held, key=lambda r: (state["held"][r], -RESORT_IDS.index(r)))
        state["held"][rid] -= 1
        return [{"type": "lost_option", "seat": seat, "resort": rid, "held": state["held"][rid]}]

    def _pay(self, state, payer, payee, amount):
        state["seats"][payer]["cash"] -= amount
        if payee is not None:
            state["seats"][payee]["cash"] += amount

    def _buy(self, state, seat, options):
        me = state["seats"][seat]
        rid = OUTER[me["pawn"]]
        resort = RESORTS[rid]
        cost = options_price(rid, 0, options, self.edition(state))
        me["cash"] -= resort["price"] + cost
        me["spent_options"] += cost
        me["options_bought"] += options
        me["bought"].append(rid)
        state["owner"][rid], state["held"][rid], state["since"][rid] = seat, options, state["line"]
        events = [
            {"type": "bought", "seat": seat, "resort": rid, "price": resort["price"], "options": options, "cost": cost}
        ]
        colour = resort["colour"]
        if all(state["owner"][r] == seat for r in RESORT_IDS if RESORTS[r]["colour"] == colour):
            me["cash"] += COLOURS[colour]
            me["bonus"] += COLOURS[colour]
            events.append({"type": "bonus", "seat": seat, "colour": colour, "amount": COLOURS[colour]})
        return events + self._end_turn(state)

    def _option(self, state, seat, rid):
        me = state["seats"][seat]
        cost = option_price(rid, state["held"][rid], self.edition(state))
        me["cash"] -= cost
        me["spent_options"] += cost
        me["options_bought"] += 1
        state["held"][rid] += 1
        return [
            {"type": "option_bought", "seat": seat, "resort": rid, "held": state["held"][rid], "cost": cost}
        ] + self._end_turn(state)

    def _bulletin(self, state, seat):
        me = state["seats"][seat]
        deck = state["deck"]
        card_id = deck.pop(0)
        deck.append(card_id)  # back to the bottom of the stack
        me["bulletins"] += 1
        card = BULLETINS[card_id]
        events = [{"type": "bulletin", "seat": seat, "card": card_id}]
        effect, amount = card["effect"], card["amount"]
        if effect == "money":
            me["cash"] += amount
        elif effect == "free_option":
            gift = self._weakest(state, seat)
            if gift:
                state["held"][gift] += 1
                events.append({"type": "free_option", "seat": seat, "resort": gift, "held": state["held"][gift]})
        elif effect == "lose_option":
            events += self._lose_option(state, seat, amount)
        elif effect == "collect_each":
            for other in state["seats"]:
                if other["seat"] != seat:
                    self._pay(state, other["seat"], seat, amount)
        elif effect in ("goto_h", "goto_shelter", "goto_start"):
            want = {"goto_h": "h", "goto_shelter": "shelter", "goto_start": "start"}[effect]
            pos = me["pawn"]
            while True:
                pos = (pos + 1) % len(OUTER)
                if OUTER[pos] == want:
                    break
            me["pawn"] = pos
            events.append({"type": "moved", "seat": seat, "space": pos, "kind": want})
            return events + self._land(state, seat)
        return events + self._end_turn(state)

    # --- the hurricane program ---------------------------------------------------------------------

    def program(self, state):
        return DECKS[self.edition(state)][state["program"]]

    def _advance_program(self, state, seat):
        """The H space: the program moves up one line; everyone places the storm before it shows."""
        lines = self.program(state)["lines"]
        if state["line"] >= len(lines):
            return self._end_turn(state)
        state["phase"], state["tracks"] = "track", {}
        return [{"type": "program_moved", "seat": seat, "line": state["line"] + 1}]

    def _track(self, state, seat, action):
        state["tracks"][str(seat)] = [action["lat"], action["lon"]]
        events = [{"type": "tracked", "seat": seat}]
        if len(state["tracks"]) < len(state["seats"]):
            return events
        line = self.program(state)["lines"][state["line"]]
        for s in state["seats"]:
            lat, lon = state["tracks"][str(s["seat"])]
            error = max(abs(lat - line["lat"]), abs(lon - line["lon"])) // STEP
            s["tracked"] += 1
            s["track_error"] += error
            if error == 0:
                s["exact"] += 1
                if state["options"]["track_bonus"]:
                    s["cash"] += TRACK_BONUS[self.edition(state)]
        events.append(
            {
                "type": "placed",
                "exact": [
                    s["seat"] for s in state["seats"] if state["tracks"][str(s["seat"])] == [line["lat"], line["lon"]]
                ],
            }
        )
        events += self._reveal(state)
        state["phase"] = "roll"
        if state["over"]:
            return events
        return events + self._end_turn(state)

    def _reveal(self, state):
        """The disk moves to the line's point; resorts in reach take damage from the table."""
        lines = self.program(state)["lines"]
        line = lines[state["line"]]
        state["line"] += 1
        state["disk"] = [line["lat"], line["lon"]]
        events = [
            {
                "type": "storm",
                "line": state["line"],
                "lat": line["lat"],
                "lon": line["lon"],
                "wind": line["wind"],
                "category": line["category"],
            }
        ]
        for rid in RESORT_IDS:
            owner = state["owner"][rid]
            cat = category_hit(line, RESORTS[rid])
            if owner is None or cat == 0:
                continue
            edition, held = self.edition(state), state["held"][rid]
            cost = damage_for(RESORTS[rid], cat, held, edition)
            bare = damage_for(RESORTS[rid], cat, 0, edition)
            me = state["seats"][owner]
            me["cash"] -= cost
            me["damage"] += cost
            me["unprotected_damage"] += bare
            event = {
                "type": "damage",
                "seat": owner,
                "resort": rid,
                "category": cat,
                "options": held,
                "cost": cost,
                "saved": bare - cost,
            }
            if edition > 1:
                claim = claim_for(cost, held, edition)
                me["cash"] += claim
                me["claims"] += claim
                me["people_safe" if held >= 2 else "people_at_risk"] += 1
                event.update(claim=claim, people_safe=held >= 2)
            events.append(event)
        if tuple(state["disk"]) == TRIANGLE:
            for s in state["seats"]:
                if s["in_triangle"]:
                    s["cash"] -= MONEY["triangle_fine"]
                    events.append({"type": "triangle_fine", "seat": s["seat"], "amount": MONEY["triangle_fine"]})
        if state["line"] >= len(lines):
            state["over"] = True
            events.append({"type": "season_over"})
        return events

    def _end_turn(self, state):
        """Next seat's turn; seats in the Bermuda Triangle lose theirs (the fourth brings them out)."""
        state["phase"] = "roll"
        events = []
        n = len(state["seats"])
        while True:
            state["turn"] += 1
            if state["turn"] == n:
                state["turn"] = 0
                state["round"] += 1
                if state["round"] > state["cap"]:
                    return events + self._close_season(state)
            me = state["seats"][state["turn"]]
            if not me["in_triangle"]:
                return events
            if me["lost"] > 0:
                me["lost"] -= 1
                events.append({"type": "lost_turn", "seat": me["seat"], "left": me["lost"]})
                continue
            # the fourth turn: yacht back to the cruiseport, pawn to a Shelter; then it plays
            me["in_triangle"], me["yacht"], me["docked"] = False, list(CRUISEPORT), None
            if self.edition(state) > 1:  # the book: to any Shelter, the player's choice
                state["phase"] = "refuge"
                events.append({"type": "triangle_over", "seat": me["seat"]})
                return events
            me["pawn"] = next(
                (me["pawn"] + i) % len(OUTER)
                for i in range(1, len(OUTER) + 1)
                if OUTER[(me["pawn"] + i) % len(OUTER)] == "shelter"
            )
            events.append({"type": "left_triangle", "seat": me["seat"], "space": me["pawn"]})
            return events

    def _close_season(self, state):
        """The round cap: the rest of the program is read out at once, without tracking."""
        state["round"] = state["cap"]
        events = [{"type": "season_closing"}]
        while not state["over"]:
            events += self._reveal(state)
        return events

    # --- what the screens show ------------------------------------------------------------------

    def board(self):
        return {
            "sea": {
                "lats": LATS,
                "lons": LONS,
                "rows": SEA["rows"],
                "cruiseport": list(CRUISEPORT),
                "triangle": list(TRIANGLE),
                "bermuda_island": SEA["bermuda_island"],
            },
            "resorts": [
                dict(r, storms_hit=HIT_BY[r["id"]], fee=docking_fee(r), fee_edition_1=r["fee"])
                for r in BOARD["resorts"]
            ],
            "storms_in_deck": len(PROGRAMS),
            "outer": [
                {"index": i, "kind": self.space_kind(i), "resort": s if s in RESORTS else None}
                for i, s in enumerate(OUTER)
            ],
            "options": OPTION_IDS,
            "damage_table": {str(k): v for k, v in DAMAGE.items()},
            "value_table": VALUE,
            "measures": {
                "loss_percent": {str(k): v for k, v in LOSS.items()},
                "surge_share": SURGE,
                "seawall_avoids": MEASURE["seawall"]["avoids"],
                "reinforce_avoids": MEASURE["reinforce"]["avoids"],
                "claim_share": CLAIM,
                "prices": MEASURE_PRICE,
            },
            "money": dict(MONEY),
            "colours": dict(COLOURS),
            "sail_turns": SAIL_TURNS,
            "bulletins": [{"id": c["id"], "title": c["title"], "text": c["text"]} for c in BULLETINS.values()],
            "engine_options": self.options(),
        }

    def worth(self, state, seat):
        me = state["seats"][seat]
        return me["cash"] + sum(
            resort_value(RESORTS[rid], state["held"][rid], self.edition(state)) for rid in self.mine(state, seat)
        )

    def view(self, state, seat):
        program = self.program(state)
        lines = program["lines"]
        over = self.finished(state)
        edition = self.edition(state)
        n = len(lines)
        current = lines[state["line"]] if state["phase"] == "track" and not over else None
        out = {
            "phase": "over" if over else state["phase"],
            "turn": state["turn"],
            "round": state["round"],
            "round_cap": state["cap"],
            "over": over,
            "ended": state["ended"],
            "seat": seat,
            "program": {
                "lines_total": n,
                "read": state["line"],
                "side": "A" if state["line"] < (n + 1) // 2 else "B",
                "current": dict(current, number=state["line"] + 1) if current else None,
                "revealed": [dict(line, number=i + 1) for i, line in enumerate(lines[: state["line"]])],
                "storm": (
                    {
                        "key": program["key"],
                        "id": program["id"],
                        "name": program["name"],
                        "year": program["year"],
                        "track": program["track"],
                    }
                    if over
                    else None
                ),
            },
            "disk": state["disk"],
            "tracked": sorted(int(k) for k in state["tracks"]) if state["phase"] == "track" else [],
            "my_track": state["tracks"].get(str(seat)) if seat is not None and state["phase"] == "track" else None,
            "resorts": [
                {
                    "id": rid,
                    "owner": state["owner"][rid],
                    "held": state["held"][rid],
                    "value": resort_value(RESORTS[rid], state["held"][rid], edition),
                }
                for rid in RESORT_IDS
            ],
            "seats": [self._seat_view(state, s) for s in state["seats"]],
            "events": state["last"],
            "actions": self.actions(state, seat) if seat is not None else [],
        }
        out["edition"] = edition
        if seat is not None and state["phase"] == "buy" and state["turn"] == seat and not over:
            rid = OUTER[state["seats"][seat]["pawn"]]
            resort = RESORTS[rid]
            out["offer"] = {
                "resort": rid,
                "price": resort["price"],
                "option": resort["option"] if edition == 1 else None,
                "measures": [option_price(rid, k, edition) for k in range(5)],
                "choices": [
                    {
                        "options": k,
                        "total": resort["price"] + options_price(rid, 0, k, edition),
                        "damage": [damage_for(resort, c, k, edition) for c in range(1, 6)],
                        "net": [
                            damage_for(resort, c, k, edition) - claim_for(damage_for(resort, c, k, edition), k, edition)
                            for c in range(1, 6)
                        ],
                    }
                    for k in range(6)
                ],
            }
        if seat is not None and state["phase"] == "option" and state["turn"] == seat and not over:
            out["upgrades"] = [
                {
                    "resort": rid,
                    "cost": self.next_option_price(state, rid),
                    "held": state["held"][rid],
                    "damage_now": [damage_for(RESORTS[rid], c, state["held"][rid], edition) for c in range(1, 6)],
                    "damage_after": [damage_for(RESORTS[rid], c, state["held"][rid] + 1, edition) for c in range(1, 6)],
                }
                for rid in self.mine(state, seat)
                if state["held"][rid] < 5
            ]
        if seat is not None and state["phase"] == "sail_from" and state["turn"] == seat and not over:
            me = state["seats"][seat]
            out["sail_choice"] = {
                "resort": me["sail_to"],
                "from_dock": SAIL[me["sail_to"]][tuple(me["yacht"])],
                "from_port": SAIL[me["sail_to"]][CRUISEPORT],
            }
        if seat is None:
            out["progress"] = 100 if over else round(100 * state["line"] / max(1, n))
        return out

    def _seat_view(self, state, s):
        target = s["sail_to"]
        return {
            "seat": s["seat"],
            "cash": s["cash"],
            "worth": self.worth(state, s["seat"]),
            "pawn": s["pawn"],
            "space": self.space_kind(s["pawn"]),
            "yacht": s["yacht"],
            "docked": s["docked"],
            "sail_to": target,
            "squares_left": SAIL[target][tuple(s["yacht"])] if target else None,
            "sail_turns_left": SAIL_TURNS - s["sail_turn"] if target else None,
            "lost": s["lost"],
            "in_triangle": s["in_triangle"],
            "resorts": self.mine(state, s["seat"]),
            "damage": s["damage"],
            "exact": s["exact"],
            "tracked": s["tracked"],
        }

    def results(self, state):
        rows = []
        for s in state["seats"]:
            seat = s["seat"]
            holdings = {rid: state["held"][rid] for rid in self.mine(state, seat)}
            rows.append(
                {
                    "seat": seat,
                    "score": self.worth(state, seat),
                    "rank": None,
                    "breakdown": {
                        "cash": s["cash"],
                        "resorts": sorted(holdings),
                        "options_held": sum(holdings.values()),
                        "resort_value": self.worth(state, seat) - s["cash"],
                        "options_bought": s["options_bought"],
                        "spent_on_options": s["spent_options"],
                        "damage": s["damage"],
                        "saved_by_options": s["unprotected_damage"] - s["damage"],
                        "fees_paid": s["fees_paid"],
                        "claims": s.get("claims", 0),
                        "people_safe": s.get("people_safe", 0),
                        "people_at_risk": s.get("people_at_risk", 0),
                        "fees_received": s["fees_received"],
                        "bonus": s["bonus"],
                        "tracked": s["tracked"],
                        "exact": s["exact"],
                        "track_error": s["track_error"],
                    },
                }
            )
        for row in rows:
            row["rank"] = 1 + sum(1 for other in rows if other["score"] > row["score"])
        return rows


def _hit_by(rid):  # over the current edition's deck
    return sum(1 for p in PROGRAMS.values() if season_damage(p, {rid: 0}) > 0)


HIT_BY = {rid: _hit_by(rid) for rid in RESORT_IDS}
