"""Bermuda Triangle's lesson kit (``scenarios.kit.Kit``): the guide, the printables and the
content files that feed them and the family plan's lines.

The printables are drawn from ``content/sea.json`` and ``content/cloud.json``; where a printable
shows what the rules make of them (the cone from the cloud's start), it asks ``rules`` rather
than working the rule out again, so paper and tablet never disagree."""

from math import cos, pi, sin

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from scenarios.kit import Aim, DebriefPhase, Guide, Kit, PlanLine, Printable, Step
from scenarios.words import money, number

from . import rules

DOT = 40  # printed distance between two dots of the sea grid, in SVG units
PATTERN = 22  # printed distance between two dots of a danger-map pattern
SPINNER_R = 170  # printed radius of the spinner wheel

KINDS = {"sugar": _("Sugar"), "oil": _("Oil"), "bananas": _("Bananas"), "lumber": _("Lumber")}
DIRECTIONS = {"N": _("north"), "S": _("south"), "E": _("east"), "W": _("west")}
SHORT = {
    "N": pgettext_lazy("compass", "N"),
    "S": pgettext_lazy("compass", "S"),
    "E": pgettext_lazy("compass", "E"),
    "W": pgettext_lazy("compass", "W"),
}


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
    sea = content.get("sea_2") or content["sea"]
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
        side = (
            "west"
            if col <= 2
            else "east"
            if col >= grid["cols"] - 2
            else "south"
            if row >= grid["rows"] - 2
            else "north"
        )
        if p["home"]:
            n = len(sea["bonus"])
            deck = ngettext("Home Port: %(n)d bonus card", "Home Port: %(n)d bonus cards", n) % {"n": n}
        else:
            n = counts[p["freight"]]
            deck = ngettext("%(kind)s: %(n)d card", "%(kind)s: %(n)d cards", n) % {"kind": KINDS[p["freight"]], "n": n}
        ports.append({"id": p["id"], "name": p["name"], "x": x, "y": y, "side": side, "deck": deck, "home": p["home"]})
    cols = [
        {"n": c + 1, "x": c * DOT, "lon": f"{number(-(grid['west'] + c * grid['step_deg']))}°W"}
        for c in range(grid["cols"])
    ]
    rows = [
        {"n": r + 1, "y": r * DOT, "lat": f"{number(grid['north'] - r * grid['step_deg'])}°N"}
        for r in range(grid["rows"])
    ]
    centre = dict(zip("xy", _at(grid["centre"])))
    width, height = (grid["cols"] - 1) * DOT, (grid["rows"] - 1) * DOT
    return {
        "dots": [dict(zip("xy", _at((c, r)))) for r in range(grid["rows"]) for c in range(grid["cols"])],
        "paths": paths,
        "spaces": spaces,
        "ports": ports,
        "cols": cols,
        "rows": rows,
        "centre": centre,
        "centre_dot": {"col": grid["centre"][0] + 1, "row": grid["centre"][1] + 1},
        "box": f"-150 -70 {width + 300} {height + 135}",
        "width": width,
        "height": height,
    }


def danger_geometry(content: dict) -> dict:
    """The danger map: each rotation letter's magnets and pushing dots on a 5 x 5 pattern; the
    spinner as a wheel of equal sectors; and the cone from the cloud's start (how many of the
    spinner's sectors sweep each dot), as ``rules.danger`` gives it to the tablet."""
    cloud, sea = content["cloud"], content.get("sea_2") or content["sea"]
    spinner = (content.get("cloud_2") or cloud)["spinner"]
    patterns = []
    for letter, rotation in cloud["rotations"].items():
        kinds = {tuple(c): "push" for c in rotation["push"]}
        kinds.update({tuple(c): "capture" for c in rotation["capture"]})
        kinds[(0, 0)] = "locator"
        dots = [
            {"x": (dx + 2) * PATTERN, "y": (dy + 2) * PATTERN, "kind": kinds.get((dx, dy), "none")}
            for dy in range(-2, 3)
            for dx in range(-2, 3)
        ]
        angle = rotation["bearing"] * pi / 180
        arrow = {
            "x": round(2 * PATTERN + 2.6 * PATTERN * sin(angle), 1),
            "y": round(2 * PATTERN - 2.6 * PATTERN * cos(angle), 1),
        }
        patterns.append(
            {
                "letter": letter,
                "dots": dots,
                "arrow": arrow,
                "bearing": rotation["bearing"],
                "captures": len(rotation["capture"]),
                "pushes": len(rotation["push"]),
            }
        )
    sectors = []
    n = len(spinner)
    for i, sector in enumerate(spinner):
        a0, a1, mid = 2 * pi * i / n, 2 * pi * (i + 1) / n, 2 * pi * (i + 0.5) / n
        sectors.append(
            {
                "path": f"M0,0 L{_rim(a0)} A{SPINNER_R},{SPINNER_R} 0 0 1 {_rim(a1)} Z",
                "x": round(0.74 * SPINNER_R * sin(mid), 1),
                "y": round(-0.74 * SPINNER_R * cos(mid), 1),
                "letter": sector["letter"],
                "words": _sector_words(sector),
                "edge": sector["count"] is None,
                "count": sector["count"],
                "short": SHORT[sector["direction"]],
            }
        )
    grid = sea["grid"]
    cone_cells, margin_cells, inside = rules.forecast(tuple(grid["centre"]))
    paths = {tuple(c) for path in sea["paths"] for c in path["cells"]}
    cone = [
        {"x": cell[0] * DOT, "y": cell[1] * DOT, "zone": 2 if cell in cone_cells else 1, "space": cell in paths}
        for cell in sorted(cone_cells | margin_cells)
    ]
    return {
        "patterns": patterns,
        "sectors": sectors,
        "sectors_n": n,
        "radius": SPINNER_R,
        "cone": cone,
        "cone_spaces": sum(1 for d in cone if d["space"] and d["zone"] == 2),
        "margin_spaces": sum(1 for d in cone if d["space"] and d["zone"] == 1),
        "inside": len(inside),
        "margin": sea["forecast"]["margin"],
        "board": board_geometry(content),
    }


def card_list(content: dict) -> dict:
    """One printed card per freight card (each deck at its port) and per Home Port bonus card."""
    sea = content.get("sea_2") or content["sea"]
    unit = sea["unit"]
    port_of = {p["freight"]: p["name"] for p in sea["ports"] if p["freight"]}
    home = next(p["name"] for p in sea["ports"] if p["home"])
    freight = [
        {"kind": KINDS[kind], "port": port_of[kind], "value": money(value * unit), "n": n + 1, "of": len(values)}
        for kind, values in sea["decks"].items()
        for n, value in enumerate(values)
    ]
    bonus = [
        {"port": home, "value": money(value * unit), "n": n + 1, "of": len(sea["bonus"])}
        for n, value in enumerate(sea["bonus"])
    ]
    return {"freight": freight, "bonus": bonus}


def tally_data(content: dict) -> dict:
    """A fleet's sheet: its four ships where the game starts them, one row per round of the
    default game, and the freight that wins; the sea log the teacher keeps has the same rounds."""
    sea = content.get("sea_2") or content["sea"]
    name = {p["id"]: p["name"] for p in sea["ports"]}
    ships = [{"n": n + 1, "start": name[port]} for n, port in enumerate(sea["start_ports"][: sea["ships_per_seat"]])]
    return {
        "ships": ships,
        "rounds": range(1, rules.DEFAULTS["rounds"] + 1),
        "target": money(rules.DEFAULTS["target"] * sea["unit"]),
        "rounds_n": rules.DEFAULTS["rounds"],
        "dice": sea["dice"],
    }


KIT = Kit(
    guide=Guide(
        objectives=(
            Aim(
                _(
                    "Read a storm's forecast cone (where it goes about two times in three) and plan a route "
                    "that keeps a margin outside it."
                ),
                checks=("route",),
            ),
            Aim(
                _(
                    "Explain the mariner's 1-2-3 rule and the 34-knot wind radius, and why the danger area "
                    "around a storm grows with every day of forecast."
                ),
                checks=("route", "winds"),
            ),
            Aim(_("Read a storm's category: what it measures and what it does not."), checks=("strength",)),
            Aim(
                _(
                    "Weigh a quick profit against risk, and compare the freight their fleet lost with a "
                    "replay of the same fleet kept out of the cone."
                )
            ),
            Aim(
                _(
                    "Take home a family plan built on the same habit: act early on the whole danger area, "
                    "not on the line of the forecast track."
                )
            ),
        ),
        standards=(
            (
                _("NGSS MS-ESS3-2"),
                _(
                    "Analyze and interpret data on natural hazards to forecast future "
                    "catastrophic events and inform the development of technologies "
                    "to mitigate their effects."
                ),
                _(
                    "Every turn students read the cone worked out from every outcome of the spinner and "
                    "route their ships around it; the debrief sets their losses beside a cone-avoiding "
                    "replay and the real mariners' rule."
                ),
            ),
            (
                _("CCSS Math 7.SP.C.5 and 7.SP.C.7"),
                _(
                    "Understand probability as a number from 0 to 1; "
                    "develop a probability model and use it to find "
                    "probabilities of events."
                ),
                _(
                    "The cone is a probability model: the storm's path stays inside it in about two spins "
                    "of three, and students decide how wide a margin to keep outside it."
                ),
            ),
            (
                _("C3 Framework D2.Geo.2.6-8"),
                _(
                    "Use maps, satellite images, photographs, and other "
                    "representations to explain relationships between the "
                    "locations of places and regions and changes in their "
                    "environmental characteristics."
                ),
                _(
                    "The board is the western Atlantic on a grid of 1.25°: students find Miami, Bermuda, San "
                    "Juan and Santo Domingo and see why shipping lanes cross hurricane waters."
                ),
            ),
        ),
        steps=(
            Step(
                5,
                _("Join"),
                _(
                    '"Open the join page and type the code on the board. If the knowledge '
                    "check is on, answer the short questions first: they are not graded. "
                    'Each of you runs a fleet of four ships."'
                ),
            ),
            Step(
                25,
                _("Play"),
                _(
                    '"A storm is loose in the Bermuda Triangle. Carry freight between the '
                    "ports: a card rides in the hold until the ship docks at another port, "
                    "and a ship the storm catches loses it. Before every move, look at the "
                    "cone, the dark hatching: the storm goes there about two spins in "
                    'three, not always. Keep clear of the light margin around it too." '
                    'Walk the room and ask: "Is that ship clear of the cone and its margin?"'
                ),
            ),
            Step(
                10,
                _("Debrief"),
                _(
                    'Put the class debrief on the projector. "Here is the freight we '
                    "carried and the freight we lost. The replay kept each fleet out of "
                    "the cone: did it lose less? Real captains keep out of the danger "
                    'area with the 1-2-3 rule." Read the cited facts aloud.'
                ),
            ),
            Step(
                5,
                _("Check and plan"),
                _(
                    '"Answer the same questions again. Then open your family '
                    'plan: it starts from your game. Fill in the names at home."'
                ),
            ),
        ),
        questions=(
            _(
                "When did you sail into the cone anyway? Was the freight worth the risk, and what did the "
                "replay outside the cone lose?"
            ),
            _(
                "The mariner's 1-2-3 rule adds 100, 200 and 300 nautical miles for one, two and three days "
                "ahead. Why does the danger area grow the further ahead the forecast looks?"
            ),
            _(
                "A storm's 34-knot winds reach far from its centre. Why do mariners widen the danger area "
                "by that radius, and what is the same for a family on land?"
            ),
            _(
                "The real forecast cone holds the storm's centre only about two times in three. What "
                "should a captain, or a family, do with the other time in three?"
            ),
            _(
                "Ports order large ships out to sea before a hurricane: a harbour is no shelter for them. "
                "What is your family's safe place, and how early must you go?"
            ),
        ),
        vocabulary=("forecast_cone", "probability", "knot", "hurricane_watch", "hurricane_warning", "shelter_in_place"),
        debrief=(
            DebriefPhase(
                "reactions",
                _('"What was the most nervous moment for your fleet?" Two or three answers.'),
                _("nothing yet: keep the page closed"),
            ),
            DebriefPhase(
                "what_happened",
                _('"How much freight did we carry, and how much did the storm take?"'),
                _("“Freight collected and lost”"),
            ),
            DebriefPhase(
                "why",
                _(
                    '"Where were the ships the storm caught: inside the cone or outside '
                    'it?" Ask who sailed into the cone on purpose, and why.'
                ),
                _("“Freight collected and lost”, with the cone-avoiding replay"),
                older=_(
                    '"Where were the ships the storm caught: inside the cone or outside it?" Ask how often a '
                    "storm leaves the cone (about one time in three) and whether a margin outside it was "
                    "worth the freight it cost."
                ),
            ),
            DebriefPhase(
                "differently",
                _(
                    '"Would you trade a quick cargo for a safe route next time?" '
                    "Compare the fleets with the replay kept out of the cone."
                ),
                _("the replay kept out of the cone"),
            ),
            DebriefPhase(
                "real_world",
                _(
                    '"Real captains add 100, 200 and 300 nautical miles around a '
                    "storm's forecast. Where is your family's harbour?\" Then open "
                    "the family plan."
                ),
                _("“How real ships keep out of a hurricane's way”"),
                older=_(
                    "\"Real captains add 100, 200 and 300 nautical miles around a storm's forecast. Why do "
                    "they plan on the whole danger area rather than the forecast line, and what is your "
                    "family's margin?\" Then open the family plan."
                ),
            ),
        ),
        fallback=(
            _(
                "Print the sea board and the danger map once per table, the freight cards (each deck "
                "shuffled, money side up, at its port) and one tally sheet per player. Each player needs "
                "four counters for ships; a coin on the red circle is the storm."
            ),
            _(
                "Players take turns: roll two dice and move one ship that many spaces along a path. Entering "
                "a port ends the move and takes its top card; a port holds as many ships as there are "
                "players; landing exactly on a ship sends it back to its last port."
            ),
            _(
                "When every player has moved, spin the printed spinner (a paper clip round a pencil point "
                "at its centre). Turn the storm to the letter's pattern on the danger map and move it dot "
                "by dot: a ship under any dot of the pattern is caught and its freight is lost, and its "
                "player owes $50,000 of salvage, paid from banked freight now or as soon as they bank more."
            ),
            _(
                "Before each move, ask the table: which spins could bring the storm over this ship? The "
                "cone printed for the storm's start shows where the storm's core most likely goes, and the "
                "margin around it is where its winds reach. Ships in port can be caught too."
            ),
            _(
                "Debrief from the tally sheets: compare freight carried and lost, and how many moves ended "
                "where the storm could reach."
            ),
        ),
    ),
    printables=(
        Printable(
            "board",
            _("The sea board: ports, paths and the storm's start"),
            "kit_board.html",
            ("sea_2",),
            prepare=board_geometry,
        ),
        Printable(
            "danger",
            _("The danger map: the storm's pattern for each letter, the spinner and the cone at the start"),
            "kit_danger.html",
            ("cloud", "cloud_2", "sea_2"),
            prepare=danger_geometry,
        ),
        Printable(
            "cards",
            _("The freight cards and the Home Port bonus cards"),
            "kit_cards.html",
            ("sea_2",),
            prepare=card_list,
        ),
        Printable(
            "tally",
            _("Tally sheet: a fleet's ships and freight, round by round, and the sea log"),
            "kit_tally.html",
            ("sea_2",),
            prepare=tally_data,
        ),
    ),
    plan=(
        PlanLine(
            "watch",
            _("How we follow the storm"),
            column="ships_lost",
            values={
                "0": _(
                    "The storm caught none of your ships: you watched it and kept clear. At home, follow "
                    "the official warnings (below) from the first watch, and look at the whole danger "
                    "area, not only the line."
                ),
            },
            otherwise=_(
                "The storm caught some of your ships. At home, start watching early: follow the "
                "official warnings (below) from the first watch; a storm's winds reach far beyond "
                "its center."
            ),
            unplayed=_(
                "Follow the official warnings (below) from the first watch; a storm's winds reach far "
                "beyond its center."
            ),
        ),
        PlanLine(
            "when",
            _("When we would leave"),
            column="into_cone",
            values={
                "0": _(
                    "None of your moves ended in the cone: you kept a safety margin. Keep it at home: if "
                    "officials tell your zone to leave, leave at once, before the hurricane warning if you "
                    "can (it comes about 36 hours before the winds). If not, shelter in place."
                ),
            },
            otherwise=_(
                "Some of your moves ended in the cone, where the next spin could reach. At home, do "
                "not wait inside the danger area: if officials tell your zone to leave, leave at once, "
                "before the hurricane warning if you can. If not, shelter in place."
            ),
            unplayed=_(
                "If officials tell your zone to leave, leave at once, before the hurricane warning if "
                "you can (it comes about 36 hours before the winds). If not, shelter in place."
            ),
        ),
        PlanLine(
            "where",
            _("Where we would go"),
            column="",
            values={},
            otherwise=_(
                "Like a captain keeping the margin, go somewhere sturdy well outside the danger area: most "
                "evacuees go to family or friends inland. Whose home, and the road there:"
            ),
        ),
        PlanLine(
            "kit",
            _("Our go-kit"),
            column="",
            values={},
            otherwise=_(
                "Water (about %(water_per_day)s per person per day), food that keeps, medicines, "
                "copies of documents, phone chargers, cash, and what pets need."
            ),
        ),
    ),
    plan_facts=("mariners-1-2-3-rule", "watch-warning-lead-times", "destinations-florida-2004", "water-per-day"),
)
