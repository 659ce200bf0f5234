"""Bermuda Triangle's lesson kit (``scenarios.kit.Kit``): the guide, the printables and the
content files that feed them and the family plan's lines.

The printables are drawn from ``content/sea.json`` and ``content/cloud.json``; where a printable
shows what the rules make of them (the cone from the cloud's start), it asks ``rules`` rather
than working the rule out again, so paper and tablet never disagree."""
from math import cos, pi, sin

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from scenarios.kit import Guide, Kit, PlanLine, Printable, Step
from scenarios.words import money, number

from . import rules

DOT = 40        # printed distance between two dots of the sea grid, in SVG units
PATTERN = 22    # printed distance between two dots of a danger-map pattern
SPINNER_R = 170  # printed radius of the spinner wheel

KINDS = {"sugar": _("Sugar"), "oil": _("Oil"), "bananas": _("Bananas"), "lumber": _("Lumber")}
DIRECTIONS = {"N": _("north"), "S": _("south"), "E": _("east"), "W": _("west")}
SHORT = {"N": pgettext_lazy("compass", "N"), "S": pgettext_lazy("compass", "S"), "E": pgettext_lazy("compass", "E"),
         "W": pgettext_lazy("compass", "W")}


def _at(cell):
    return cell[0] * DOT, cell[1] * DOT


def _sector_words(sector) -> str:
    """A spinner sector in words, e.g. "3 north" or "to the west edge"."""
    direction = DIRECTIONS[sector["direction"]]
    if sector["count"] is None:
        return _("to the %(direction)s edge") % {"direction": direction}
    return _("%(count)d %(direction)s") % {"count": sector["count"], "direction": direction}


def _rim(angle):
    """The point of the spinner's rim at ``angle`` (radians, clockwise from north)."""
    return f"{SPINNER_R * sin(angle):.1f},{-SPINNER_R * cos(angle):.1f}"


def board_geometry(content: dict) -> dict:
    """The sea grid as SVG: every dot, the paths' spaces, the ports, the cloud's red circle, and
    the dots' numbers (as the tablet names them: column, row, from 1) with latitude and longitude."""
    sea = content["sea"]
    grid = sea["grid"]
    port_at = {p["id"]: _at(p["cell"]) for p in sea["ports"]}
    counts = {kind: len(values) for kind, values in sea["decks"].items()}
    paths, spaces = [], []
    for path in sea["paths"]:
        points = [port_at[path["a"]], *(_at(c) for c in path["cells"]), port_at[path["b"]]]
        paths.append(" ".join(f"{x},{y}" for x, y in points))
        spaces += [dict(zip("xy", _at(c))) for c in path["cells"]]
    ports = []
    for p in sea["ports"]:
        x, y = port_at[p["id"]]
        col, row = p["cell"]
        # Labels sit where no path runs: beside a port near the west or east edge, else below or above.
        side = ("west" if col <= 2 else "east" if col >= grid["cols"] - 2 else
                "south" if row >= grid["rows"] - 2 else "north")
        if p["home"]:
            n = len(sea["bonus"])
            deck = ngettext("Home Port: %(n)d bonus card", "Home Port: %(n)d bonus cards", n) % {"n": n}
        else:
            n = counts[p["freight"]]
            deck = ngettext("%(kind)s: %(n)d card", "%(kind)s: %(n)d cards", n) % {"kind": KINDS[p["freight"]], "n": n}
        ports.append({"id": p["id"], "name": p["name"], "x": x, "y": y, "side": side, "deck": deck, "home": p["home"]})
    cols = [{"n": c + 1, "x": c * DOT, "lon": f"{number(-(grid['west'] + c * grid['step_deg']))}°W"}
            for c in range(grid["cols"])]
    rows = [{"n": r + 1, "y": r * DOT, "lat": f"{number(grid['north'] - r * grid['step_deg'])}°N"}
            for r in range(grid["rows"])]
    centre = dict(zip("xy", _at(grid["centre"])))
    width, height = (grid["cols"] - 1) * DOT, (grid["rows"] - 1) * DOT
    return {"dots": [dict(zip("xy", _at((c, r)))) for r in range(grid["rows"]) for c in range(grid["cols"])],
            "paths": paths, "spaces": spaces, "ports": ports, "cols": cols, "rows": rows, "centre": centre,
            "centre_dot": {"col": grid["centre"][0] + 1, "row": grid["centre"][1] + 1},
            "box": f"-150 -70 {width + 300} {height + 135}", "width": width, "height": height}


def danger_geometry(content: dict) -> dict:
    """The danger map: each rotation letter's magnets and pushing dots on a 5 x 5 pattern; the
    spinner as a wheel of equal sectors; and the cone from the cloud's start (how many of the
    spinner's sectors sweep each dot), as ``rules.danger`` gives it to the tablet."""
    cloud, sea = content["cloud"], content["sea"]
    patterns = []
    for letter, rotation in cloud["rotations"].items():
        kinds = {tuple(c): "push" for c in rotation["push"]}
        kinds.update({tuple(c): "capture" for c in rotation["capture"]})
        kinds[(0, 0)] = "locator"
        dots = [{"x": (dx + 2) * PATTERN, "y": (dy + 2) * PATTERN, "kind": kinds.get((dx, dy), "none")}
                for dy in range(-2, 3) for dx in range(-2, 3)]
        angle = rotation["bearing"] * pi / 180
        arrow = {"x": round(2 * PATTERN + 2.6 * PATTERN * sin(angle), 1),
                 "y": round(2 * PATTERN - 2.6 * PATTERN * cos(angle), 1)}
        patterns.append({"letter": letter, "dots": dots, "arrow": arrow, "bearing": rotation["bearing"],
                         "captures": len(rotation["capture"]), "pushes": len(rotation["push"])})
    sectors = []
    n = len(cloud["spinner"])
    for i, sector in enumerate(cloud["spinner"]):
        a0, a1, mid = 2 * pi * i / n, 2 * pi * (i + 1) / n, 2 * pi * (i + .5) / n
        sectors.append({
            "path": f"M0,0 L{_rim(a0)} A{SPINNER_R},{SPINNER_R} 0 0 1 {_rim(a1)} Z",
            "x": round(.74 * SPINNER_R * sin(mid), 1), "y": round(-.74 * SPINNER_R * cos(mid), 1),
            "letter": sector["letter"], "words": _sector_words(sector), "edge": sector["count"] is None,
            "count": sector["count"], "short": SHORT[sector["direction"]]})
    grid = sea["grid"]
    capture, _cover = rules.danger(tuple(grid["centre"]), "A")
    paths = {tuple(c) for path in sea["paths"] for c in path["cells"]}
    cone = [{"x": cell[0] * DOT, "y": cell[1] * DOT, "n": sweeps, "space": cell in paths}
            for cell, sweeps in sorted(capture.items())]
    return {"patterns": patterns, "sectors": sectors, "sectors_n": n, "radius": SPINNER_R, "cone": cone,
            "cone_spaces": sum(1 for d in cone if d["space"]), "cone_most": max(capture.values()),
            "board": board_geometry(content)}


def card_list(content: dict) -> dict:
    """One printed card per freight card (each deck at its port) and per Home Port bonus card."""
    sea = content["sea"]
    unit = sea["unit"]
    port_of = {p["freight"]: p["name"] for p in sea["ports"] if p["freight"]}
    home = next(p["name"] for p in sea["ports"] if p["home"])
    freight = [{"kind": KINDS[kind], "port": port_of[kind], "value": money(value * unit), "n": n + 1,
                "of": len(values)}
               for kind, values in sea["decks"].items() for n, value in enumerate(values)]
    bonus = [{"port": home, "value": money(value * unit), "n": n + 1, "of": len(sea["bonus"])}
             for n, value in enumerate(sea["bonus"])]
    return {"freight": freight, "bonus": bonus}


def tally_data(content: dict) -> dict:
    """A fleet's sheet: its four ships where the game starts them, one row per round of the
    default game, and the freight that wins; the sea log the teacher keeps has the same rounds."""
    sea = content["sea"]
    name = {p["id"]: p["name"] for p in sea["ports"]}
    ships = [{"n": n + 1, "start": name[port]} for n, port in enumerate(sea["start_ports"][:sea["ships_per_seat"]])]
    return {"ships": ships, "rounds": range(1, rules.DEFAULTS["rounds"] + 1),
            "target": money(rules.DEFAULTS["target"] * sea["unit"]), "rounds_n": rules.DEFAULTS["rounds"],
            "dice": sea["dice"]}


KIT = Kit(
    guide=Guide(
        objectives=(
            _("Read a storm's cone (every place the next spin could send it) and plan a route that "
              "stays outside it."),
            _("Explain the mariner's 1-2-3 rule and the 34-knot wind radius, and why the danger area "
              "around a storm grows with every day of forecast."),
            _("Weigh a quick profit against risk, and compare the freight their fleet lost with a "
              "replay of the same fleet kept out of the cone."),
            _("Take home a family plan built on the same habit: act early on the whole danger area, "
              "not on the line of the forecast track."),
        ),
        standards=(
            (_("NGSS MS-ESS3-2"), _("Analyze and interpret data on natural hazards to forecast future "
                                    "catastrophic events and inform the development of technologies "
                                    "to mitigate their effects."),
             _("Every turn students read the cone worked out from every outcome of the spinner and "
               "route their ships around it; the debrief sets their losses beside a cone-avoiding "
               "replay and the real mariners' rule.")),
            (_("CCSS Math 7.SP.C.5 and 7.SP.C.7"), _("Understand probability as a number from 0 to 1; "
                                                    "develop a probability model and use it to find "
                                                    "probabilities of events."),
             _("The cone is a probability model: each space shows in how many of the spinner's 16 "
               "equal sectors the storm's magnets would sweep it, and students act on it.")),
            (_("State social-studies / geography style"), _("Use maps, latitude and longitude to locate "
                                                            "places, and explain how physical hazards "
                                                            "affect trade and travel."),
             _("The board is the western Atlantic on a grid of 1.25°: students find Miami, Bermuda, San "
               "Juan and Santo Domingo and see why shipping lanes cross hurricane waters.")),
        ),
        steps=(
            Step(5, _("Join"), _("\"Open the join page and type the code on the board. If the knowledge "
                                 "check is on, answer the short questions first: they are not graded. "
                                 "Each of you runs a fleet of four ships.\"")),
            Step(25, _("Play"), _("\"A storm is loose in the Bermuda Triangle. Carry freight between the "
                                  "ports: a card rides in the hold until the ship docks at another port, "
                                  "and a ship the storm catches loses it. Before every move, look at the "
                                  "cone, the hatched and numbered dots: a ship outside it cannot be "
                                  "caught at the next spin.\" "
                                  "Walk the room and ask: \"In how many of the 16 spins could the storm "
                                  "sweep that space?\"")),
            Step(10, _("Debrief"), _("Put the class debrief on the projector. \"Here is the freight we "
                                     "carried and the freight we lost. The replay kept each fleet out of "
                                     "the cone: did it lose less? Real captains keep out of the danger "
                                     "area with the 1-2-3 rule.\" Read the cited facts aloud.")),
            Step(5, _("Check and plan"), _("\"Answer the same questions again. Then open your family "
                                           "plan: it starts from your game. Fill in the names at home.\"")),
        ),
        questions=(
            _("When did you sail into the cone anyway? Was the freight worth the risk, and what did the "
              "replay outside the cone lose?"),
            _("The mariner's 1-2-3 rule adds 100, 200 and 300 nautical miles for one, two and three days "
              "ahead. Why does the danger area grow the further ahead the forecast looks?"),
            _("A storm's 34-knot winds reach far from its centre. Why do mariners widen the danger area "
              "by that radius, and what is the same for a family on land?"),
            _("The real forecast cone holds the storm's centre only about two times in three. What "
              "should a captain, or a family, do with the other time in three?"),
            _("Ships in harbour were never caught. Where is your family's harbour when a storm comes?"),
        ),
        fallback=(
            _("Print the sea board and the danger map once per table, the freight cards (each deck "
              "shuffled, money side up, at its port) and one tally sheet per player. Each player needs "
              "four counters for ships; a coin on the red circle is the storm."),
            _("Players take turns: roll two dice and move one ship that many spaces along a path. Entering "
              "a port ends the move and takes its top card; a port holds as many ships as there are "
              "players; landing exactly on a ship sends it back to its last port."),
            _("When every player has moved, spin the printed spinner (a paper clip round a pencil point "
              "at its centre). Turn the storm to the letter's pattern on the danger map and move it dot "
              "by dot: a ship at sea under a magnet is caught and its freight is lost; ships under the "
              "rest of the pattern are pushed along their path."),
            _("Before each move, ask the table: which spins could bring the magnets over this ship? The "
              "cone printed for the storm's start shows how to count. Ships in port are never caught."),
            _("Debrief from the tally sheets: compare freight carried and lost, and how many moves ended "
              "where the storm could reach."),
        ),
    ),
    printables=(
        Printable("board", _("The sea board: ports, paths and the storm's start"), "kit_board.html", ("sea",),
                  prepare=board_geometry),
        Printable("danger", _("The danger map: the storm's pattern for each letter, the spinner and the "
                              "cone at the start"), "kit_danger.html", ("cloud", "sea"), prepare=danger_geometry),
        Printable("cards", _("The freight cards and the Home Port bonus cards"), "kit_cards.html", ("sea",),
                  prepare=card_list),
        Printable("tally", _("Tally sheet: a fleet's ships and freight, round by round, and the sea log"),
                  "kit_tally.html", ("sea",), prepare=tally_data),
    ),
    plan=(
        PlanLine("watch", _("How we follow the storm"), column="ships_lost", values={
            "0": _("The storm caught none of your ships: you watched it and kept clear. At home, follow "
                   "the National Hurricane Center and local officials from the first watch, and look at "
                   "the whole danger area, not only the line. Where we get warnings:"),
        }, otherwise=_("The storm caught some of your ships. At home, start watching early: follow the "
                       "National Hurricane Center and local officials from the first watch; a storm's "
                       "winds reach far beyond its centre. Where we get warnings:"),
            unplayed=_("Follow the National Hurricane Center and local officials from the first watch; a "
                       "storm's winds reach far beyond its centre. Where we get warnings:")),
        PlanLine("when", _("When we would leave"), column="into_cone", values={
            "0": _("None of your moves ended in the cone: you kept a safety margin. Keep it at home: "
                   "leave as soon as officials say so, before the hurricane warning if you can (it comes "
                   "about 36 hours before the winds)."),
        }, otherwise=_("Some of your moves ended in the cone, where the next spin could reach. At home, do "
                       "not wait inside the danger area: leave as soon as officials say so, before the "
                       "hurricane warning if you can (it comes about 36 hours before the winds)."),
            unplayed=_("Leave as soon as officials say so, before the hurricane warning if you can (it "
                       "comes about 36 hours before the winds).")),
        PlanLine("where", _("Where we would go"), column="", values={},
                 otherwise=_("Like a ship in harbour, go somewhere sturdy outside the danger area: most "
                             "evacuees go to family or friends inland. Whose home, and the road there:")),
        PlanLine("kit", _("Our go-kit"), column="", values={},
                 otherwise=_("Water (about a gallon per person per day), food that keeps, medicines, "
                             "copies of documents, phone chargers, cash, and what pets need.")),
    ),
    plan_facts=("mariners-1-2-3-rule", "watch-warning-lead-times", "destinations-florida-2004", "water-per-day"),
)
