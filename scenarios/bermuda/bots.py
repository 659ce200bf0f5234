"""Ways to sail: at random, bold (the best freight, whatever the cloud may do), cautious (the
best freight outside the cone: the mariner's rule of keeping out of the danger area), and two
shortcuts a clever child finds: the port shuttle (two near ports, a card every turn) and the
cone-literal captain (out of the cone, into its margin). The cautious captain fills empty seats
and is the yardstick in reports."""

from __future__ import annotations

from scenarios.base import draw, seatings_of_two, tally_head_to_head

from .rules import ENGINE

#: how much a ship is worth to a cautious captain besides its cargo, in thousands, per rules
#: edition: in edition 3 a caught ship also costs its fleet salvage (50) from its freight
SHIP_WORTH = {1: 60, 2: 60, 3: 100, 4: 100, 5: 100}
#: editions 2 and 3: the chance a cautious captain reads into each zone of the drawn forecast
#: (clear, margin, cone) of losing a ship there at the next spin: what the game's own sea does
#: (measured over 60 games of two bold and two cautious fleets; edition 2: 22 % in the cone, 4 %
#: in the margin, under 1 % clear; edition 3, whose whole wind field catches: 29 %, 8 %, under
#: 1 %; RULES.md, "Bots and balance")
ZONE_RISK = {2: (0.0, 0.04, 0.22), 3: (0.006, 0.08, 0.29)}
ZONE_RISK[4] = ZONE_RISK[3]  # edition 4 moves the fleets together on edition 3's sea
#: edition 5 draws the margin from the storm's reach, so a ship clear of it is never caught at
#: the next spin: measured as above, 35 % in the cone, 13 % in the margin, none clear
ZONE_RISK[5] = (0.0, 0.13, 0.35)


def _arrival(state, ship, port):
    """What docking ``ship`` at ``port`` brings: its cargo delivered and the card it loads."""
    cargo = ENGINE.held_card(ship)
    if cargo and ship["loaded_at"] == port:
        return 0  # the hold stays full at the port it was loaded
    return ENGINE.delivery_pays(state, ship["loaded_at"], port, cargo) + ENGINE._dock_gain(state, port)


def _worth(state, move, ship):
    """What a move brings: the arrival now if it docks, else the arrival it heads for, less
    for every further turn it needs."""
    sea = ENGINE.sea(state)
    if move["to"] in sea.ports:
        return _arrival(state, ship, move["to"])
    turns = 1 + len(sea.walk(move["to"], move["route"], move["direction"])) // 7
    return 0.9 * _arrival(state, ship, move["toward"]) * 0.6**turns


def _pick(state, seat, score):
    ships = {s["id"]: s for s in state["ships"] if s["seat"] == seat}
    sea = ENGINE.sea(state)
    if sea.edition == 1:  # edition 1's tablet numbered every dot with its sweeps of 16
        capture, _ = sea.danger(tuple(state["cloud"]["at"]), state["cloud"]["letter"])
        risk = lambda space: 0 if space in sea.ports else capture.get(sea.cell[space], 0) / len(sea.spinner)  # noqa: E731
    else:  # editions 2 and 3: the tablet draws the cone and its margin: a captain reads only those
        zone_risk = ZONE_RISK[sea.edition]
        risk = lambda space: zone_risk[ENGINE.zone(state, space)]  # noqa: E731
    best = max(ENGINE.moves(state, seat), key=lambda m: (score(m, ships[m["ship"]], risk), m["ship"], m["to"]))
    return {"type": "sail", "ship": best["ship"], "to": best["to"]}


def random_bot(state, seat):
    actions = ENGINE.actions(state, seat)
    n = state["seats"][seat]["moves"]
    return actions[draw(state["seed"], "random-bot", seat, n) % len(actions)]


def bold(state, seat):
    return _pick(state, seat, lambda m, ship, risk: _worth(state, m, ship))


def cautious(state, seat):
    """The best freight less the expected loss of ship and cargo where each move ends: it sails
    into the cone only for freight worth more than that loss, and takes a ship out of the cone
    when that is worth more than the freight it forgoes."""

    def score(m, ship, risk):
        stake = SHIP_WORTH[ENGINE.sea(state).edition] + ENGINE.held_card(ship)
        safer = risk(ship["at"]) - risk(m["to"])  # taking a ship out of the cone
        return _worth(state, m, ship) + stake * safer

    return _pick(state, seat, score)


#: the two short crossings a port shuttle hops along: San Juan–Santo Domingo (2 spaces) and
#: Miami–Charleston (5)
SHUTTLE_ROUTES = ("SJU-SDQ", "MIA-CHS")


def port_shuttle(state, seat):
    """A clever child's shortcut: hop a ship between two near ports, San Juan and Santo Domingo
    or Miami and Charleston, docking (and so banking a card) almost every turn whatever the cone
    says; a ship elsewhere sails as the bold captain would until it reaches one of those ports."""

    def score(m, ship, risk):
        shuttles = m["route"] in SHUTTLE_ROUTES and m["to"] in ENGINE.sea(state).ports
        return (1000 if shuttles else 0) + _worth(state, m, ship)

    return _pick(state, seat, score)


def cone_literal(state, seat):
    """Keep out of the cone, taken literally: the best freight among the moves that end
    outside the drawn cone (the margin counts as outside); into the cone only when every move
    ends there."""
    zones = {}

    def score(m, ship, risk):
        key = (m["ship"], m["to"])
        if key not in zones:
            zones[key] = ENGINE.zone(state, m["to"])
        return -1000 * (zones[key] == 2) + _worth(state, m, ship)

    return _pick(state, seat, score)


BOTS = {
    "random": random_bot,
    "bold": bold,
    "cautious": cautious,
    "port_shuttle": port_shuttle,
    "cone_literal": cone_literal,
}
POLICY_BOT = "cautious"


def head_to_head(careful: str, reckless: str, seeds: int = 50, options: dict | None = None) -> dict:
    """The balance yardstick: 4-fleet games with two fleets of each habit in all six seatings,
    ``seeds`` seeds each. A game is decided when the richest fleets are of one habit only;
    ``first`` counts the decided games each habit won."""

    def played():
        for seed in range(seeds):
            for kinds in seatings_of_two(careful, reckless):
                state = ENGINE.setup(seed, 4, options)
                while not ENGINE.finished(state):
                    seat = ENGINE.to_act(state)[0]
                    ENGINE.apply(state, seat, BOTS[kinds[seat]](state, seat))
                yield kinds, ENGINE.results(state)

    duel = tally_head_to_head(played(), careful, reckless)
    rows = duel["rows"]

    def mean(kind, key):
        return sum(r["breakdown"][key] if key != "score" else r["score"] for r in rows[kind]) / len(rows[kind])

    return {
        **duel,
        "mean": {
            kind: {
                key: mean(kind, key)
                for key in ("score", "freight", "lost_freight", "ships_lost", "caught_outside", "salvage", "haul_cut")
            }
            for kind in rows
        },
    }
