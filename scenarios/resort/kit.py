"""Hurricane (the resort game)'s lesson kit (``scenarios.kit.Kit``): the guide, the printables and
the content files that feed them (the sea board, the outer board, the resort deeds and special
bulletins, the storm program cards from HURDAT2, a player's tally sheet) and the family plan's lines."""

from django.utils.translation import gettext_lazy as _

from scenarios.kit import Aim, DebriefPhase, Guide, Kit, PlanLine, Printable, Step
from scenarios.words import money

from .rules import MEASURE_PRICE, damage_for, docking_fee

SQUARE = 40  # a sea-board square, in SVG units
LEFT, TOP = 64, 34  # room for the latitude labels (left) and the longitude labels (top)

#: the options in the book's order: a resort with n options holds the first n
OPTION_NAMES = {
    "kit": _("Hurricane kit"),
    "plan": _("Evacuation plan"),
    "seawall": _("Seawall"),
    "reinforce": _("Structural reinforcement"),
    "insurance": _("Insurance"),
}
COLOUR_NAMES = {"red": _("red"), "blue": _("blue"), "green": _("green"), "yellow": _("yellow")}
#: light fills for print; the colour is always named in words too, never shown by colour alone
COLOUR_FILLS = {"red": "#fca5a5", "blue": "#93c5fd", "green": "#86efac", "yellow": "#fde047"}


def _resorts(board: dict) -> list[dict]:
    """The resorts with their board number (1-16), colour words and prices written out (the
    current rules edition's option prices and docking fee)."""
    ids = [o["id"] for o in board["options"]]
    return [
        dict(
            r,
            number=i + 1,
            colour_name=COLOUR_NAMES[r["colour"]],
            fill=COLOUR_FILLS[r["colour"]],
            price_text=money(r["price"]),
            fee_text=money(docking_fee(r)),
            bonus_text=money(r["bonus"]),
            option_prices=[
                {"name": OPTION_NAMES[mid], "price": money(MEASURE_PRICE[r["id"]][k])} for k, mid in enumerate(ids)
            ],
        )
        for i, r in enumerate(board["resorts"])
    ]


def sea_geometry(content: dict) -> dict:
    """The sea board as SVG squares: land and water by the board's rows (north at the top, 98°W
    at the left), the resorts numbered on their squares, the cruiseport (START), the blue
    triangle and Bermuda, with a latitude label per row and a longitude label per column."""
    board = content["board"]
    sea = board["sea"]
    lons, lats = sea["lons"], [row["lat"] for row in sea["rows"]]

    def at(lat, lon):
        """The top-left corner of the square at (lat, lon)."""
        return LEFT + lons.index(lon) * SQUARE, TOP + lats.index(lat) * SQUARE

    squares = []
    for row in sea["rows"]:
        for lon, mark in zip(lons, row["land"]):
            x, y = at(row["lat"], lon)
            squares.append({"x": x, "y": y, "land": mark == "#"})
    resorts = []
    for r in _resorts(board):
        x, y = at(r["lat"], r["lon"])
        resorts.append(
            dict(r, cx=x + SQUARE / 2, cy=y + SQUARE / 2 - (5 if [r["lat"], r["lon"]] == sea["cruiseport"] else 0))
        )
    port_x, port_y = at(*sea["cruiseport"])
    tri_x, tri_y = at(*sea["triangle"])
    bermuda_x, bermuda_y = at(*sea["bermuda_island"])
    width, height = LEFT + len(lons) * SQUARE + 6, TOP + len(sea["rows"]) * SQUARE + 6
    return {
        "squares": squares,
        "resorts": resorts,
        "size": SQUARE,
        "lat_labels": [{"y": at(r["lat"], lons[0])[1] + SQUARE / 2 + 5, "lat": r["lat"]} for r in sea["rows"]],
        "lon_labels": [{"x": at(sea["rows"][0]["lat"], lon)[0] + SQUARE / 2, "lon": lon} for lon in lons],
        "port": {
            "x": port_x + SQUARE / 2,
            "y": port_y + SQUARE - 4,
            "name": sea["cruiseport_name"],
            "lat": sea["cruiseport"][0],
            "lon": sea["cruiseport"][1],
        },
        "triangle": {
            "points": f"{tri_x + SQUARE / 2},{tri_y + 5} {tri_x + 5},{tri_y + SQUARE - 5} "
            f"{tri_x + SQUARE - 5},{tri_y + SQUARE - 5}",
            "lat": sea["triangle"][0],
            "lon": sea["triangle"][1],
        },
        "bermuda": {"x": bermuda_x + SQUARE / 2, "y": bermuda_y + SQUARE / 2},
        "box": f"0 0 {width} {height}",
        "lon_min": sea["lon_min"],
        "lon_max": sea["lon_max"],
        "lat_min": sea["lat_min"],
        "lat_max": sea["lat_max"],
    }


def outer_ring(content: dict) -> dict:
    """The outer board's 32 spaces as a ring of an 11-by-7 table, clockwise from START at the top
    left (the rule book's path), with the damage and value tables for its centre."""
    board = content["board"]
    outer = board["outer"]
    resorts = {r["id"]: r for r in _resorts(board)}
    width, height = 11, 7
    if len(outer) != 2 * width + 2 * (height - 2):
        raise ValueError(f"the printed ring has {2 * width + 2 * (height - 2)} spaces, the board {len(outer)}")
    cells = []
    for x in range(width):
        cells.append((x, 0))
    for y in range(1, height - 1):
        cells.append((width - 1, y))
    for x in reversed(range(width)):
        cells.append((x, height - 1))
    for y in reversed(range(1, height - 1)):
        cells.append((0, y))
    grid = {
        cell: {"index": i + 1, "kind": "resort" if kind in resorts else kind, "resort": resorts.get(kind)}
        for i, (cell, kind) in enumerate(zip(cells, outer))
    }
    rows = [[grid.get((x, y)) for x in range(width)] for y in range(height)]
    options = [{"number": o["number"], "name": OPTION_NAMES[o["id"]]} for o in board["options"]]
    return {
        "top": rows[0],
        "middle": rows[1 : height - 1],
        "bottom": rows[-1],
        "inner_cols": width - 2,
        "inner_rows": height - 2,
        "options": options,
        "damage": damage_table(),
        "counts": range(6),
    }


def damage_table() -> list[dict]:
    """Per cent of a resort's price the buildings lose, by category and options held (0-5)."""
    scale = {"price": 1000}
    return [
        {"category": cat, "percent": [_percent(damage_for(scale, cat, k) / 10) for k in range(6)]}
        for cat in range(1, 6)
    ]


def _percent(value: float) -> str:
    return f"{value:g}"


def cards_data(content: dict) -> dict:
    """The resort deeds (one per resort, with its prices) and the other payments, written out."""
    board = content["board"]
    return {"resorts": _resorts(board), "money": {key: money(value) for key, value in board["money"].items()}}


def program_cards(content: dict) -> dict:
    """One card per storm program, numbered in the deck's order, its lines split into side A (the
    first half) and side B, with the storm's name on a strip to fold under for a surprise storm."""
    cards = []
    for n, program in enumerate(content["programs_2"]["programs"], start=1):
        half = (len(program["lines"]) + 1) // 2
        lines = [dict(line, number=i + 1, side="A" if i < half else "B") for i, line in enumerate(program["lines"])]
        cards.append(
            {
                "number": n,
                "name": program["name"],
                "year": program["year"],
                "id": program["id"],
                "peak_category": program["peak_category"],
                "lines": lines,
            }
        )
    # the source alone: how the file was built is the program's business, not the reader's
    source = content["programs_2"]["provenance"].split("; built by ")[0]
    return {"cards": cards, "provenance": source}


def tally_data(content: dict) -> dict:
    """A player's sheet: a row per resort with a box per option, a row per program line to plot,
    and a cash ledger from the starting cash."""
    board = content["board"]
    lines = max(len(p["lines"]) for p in content["programs_2"]["programs"])
    return {
        "start_cash": money(board["money"]["start_cash"]),
        "money": {key: money(value) for key, value in board["money"].items()},
        "options": [{"number": o["number"], "name": OPTION_NAMES[o["id"]]} for o in board["options"]],
        "resort_rows": range(1, 7),
        "ledger_rows": range(1, 9),
        "lines": range(1, lines + 1),
    }


def _by_options(first: int, held, not_held) -> dict:
    """A plan line's texts by the most options the student held on one resort at the end (the
    decisions row's ``most_options``, 0-5): the option numbered ``first`` is held from there up."""
    return {str(n): held if n >= first else not_held for n in range(6)}


KIT = Kit(
    guide=Guide(
        objectives=(
            Aim(
                _(
                    "Read a hurricane's position from latitude and longitude (north first, then west) and plot it on a map."
                )
            ),
            Aim(
                _(
                    "Explain what a storm's Saffir-Simpson category measures, and why a stronger storm does more damage."
                ),
                checks=("protect",),
            ),
            Aim(
                _(
                    "Weigh what preparedness costs (a kit, a plan, a seawall, reinforcement, insurance) "
                    "against the damage it avoids, on one storm and across many real storms."
                ),
                checks=("protect", "insure"),
            ),
            Aim(
                _("Take home a family emergency plan that starts from the options they chose in the game."),
                checks=("prepare",),
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
                    "Students read a real hurricane's positions and categories (NOAA's best-track data) line "
                    "by line, plot them, and choose protection such as seawalls and stronger buildings "
                    "before the storm reaches their resorts. The debrief compares their choices across every "
                    "storm in the deck."
                ),
            ),
            (
                _("Common Core Math 5.G.A.2"),
                _(
                    "Represent real world and mathematical problems by graphing "
                    "points in the first quadrant of the coordinate plane, and "
                    "interpret coordinate values of points in the context of the "
                    "situation."
                ),
                _(
                    "Every time the storm moves, each student plots its position by latitude and longitude "
                    "(north and west, like the two axes of a grid) and reads what it means for their resorts; "
                    "the debrief counts how many plots were exact."
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
                    "The sea board is the Gulf of Mexico and the Caribbean on a grid of 2° squares, with "
                    "real resort towns on it."
                ),
            ),
            (
                _("C3 Framework D2.Eco.1.6-8"),
                _("Explain how economic decisions affect the well-being of individuals, businesses, and society."),
                _("Students pay for options out of a budget and see what each one saved or cost."),
            ),
        ),
        steps=(
            Step(
                5,
                _("Join"),
                _(
                    '"Open the join page on your tablet and type the code on the board. '
                    "If the knowledge check is on, answer the short questions first: "
                    'they are not graded."'
                ),
            ),
            Step(
                25,
                _("Play"),
                _(
                    '"Each of you runs coastal resorts through one real hurricane '
                    "season. When you buy a resort, decide how many options to protect "
                    "it with: a kit, an evacuation plan, a seawall, reinforcement, "
                    "insurance. When someone lands on H, the storm moves: read its "
                    'position, north first, then west, and plot it." Walk the room '
                    "with the dashboard; help anyone stuck on plotting. End the season "
                    "from the dashboard if time runs short."
                ),
            ),
            Step(
                10,
                _("Debrief"),
                _(
                    'Put the class debrief on the projector. "Here is the real storm '
                    "we played and its whole track. Whose resorts did it reach? What "
                    "did your options cost, and what did they save, on this storm and "
                    'on all the others in the deck?"'
                ),
            ),
            Step(
                5,
                _("Check and plan"),
                _(
                    '"Answer the same questions again. Then open your family '
                    "plan: it starts from the options you bought. Fill in the "
                    'names at home."'
                ),
            ),
        ),
        questions=(
            _("Which of your resorts did the storm reach, and which options would you buy again for them?"),
            _(
                "Was buying every option for every resort worth its price? Where is protection worth it, "
                "and where is it not?"
            ),
            _(
                "Why do forecasters give a storm's position as latitude and longitude? What goes wrong "
                "when a position is plotted on the wrong square?"
            ),
            _(
                "Why might a family near the coast go without flood insurance, and what could that cost "
                "them after a storm?"
            ),
            _("What would your family's emergency plan need, and where would you keep it?"),
        ),
        vocabulary=(
            "latitude_longitude",
            "category",
            "storm_surge",
            "mitigation",
            "insurance",
            "hurricane_watch",
            "hurricane_warning",
        ),
        debrief=(
            DebriefPhase(
                "reactions",
                _('"Thumbs up, sideways or down: how did your resorts do?" Ask two students why.'),
                _("nothing yet: keep the page closed"),
            ),
            DebriefPhase(
                "what_happened",
                _('"Which real storm did we track, and which resorts did it reach?" Trace its path together.'),
                _("“The storm we tracked” and “Plotting the storm”"),
            ),
            DebriefPhase(
                "why",
                _('"Which options paid for themselves, and which were money spent for nothing this time?"'),
                _("“What our options were worth”"),
                older=_(
                    '"Which options paid for themselves on this storm, and would they pay across many storms?'
                    ' Why is one storm a poor test of a choice?"'
                ),
            ),
            DebriefPhase(
                "differently",
                _(
                    '"Knowing only the forecast, not the storm, what would you buy '
                    'again?" Each table names one option and why.'
                ),
                _("“What our options were worth”"),
            ),
            DebriefPhase(
                "real_world",
                _(
                    '"Only about half of adults have an emergency plan, and few have '
                    'flood insurance. Why?" Then open the family plan.'
                ),
                _("“The five options in real life”"),
                older=_(
                    '"Only about half of adults have an emergency plan, and few have flood insurance. What '
                    'makes people underprepare for a risk they know about?" Then open the family plan.'
                ),
            ),
        ),
        fallback=(
            _(
                "Print the sea board and the outer board (landscape), the resort deeds and special "
                "bulletins, one storm program card per table, and a tally sheet per player. Each table "
                "of 2-4 players needs a six-sided die, a pawn and a yacht marker per player, and small "
                "markers for options and the storm."
            ),
            _(
                "Players take turns: roll, move the pawn clockwise round the outer board and do what the "
                "space says (the board's center lists each space). Keep cash on the tally sheet; the "
                "deeds give each resort's prices."
            ),
            _(
                "One player at each table keeps the program card with the storm's name folded under. "
                'On an H space they read the next line aloud ("north 26, west 84, category 3"); every '
                "player marks the square on their sheet before the storm marker goes down."
            ),
            _(
                "A resort on the storm's square takes the full category, the eight squares around it "
                "one category less: look up the per cent in the damage table and pay it."
            ),
            _("Debrief from the tally sheets: who paid most damage, what options cost, and how many plots were exact."),
        ),
    ),
    printables=(
        Printable(
            "board",
            _("The sea board: plotting the storm by latitude and longitude"),
            "kit_board.html",
            ("board",),
            prepare=sea_geometry,
        ),
        Printable(
            "outer", _("The outer board: the path of the pawns"), "kit_outer.html", ("board",), prepare=outer_ring
        ),
        Printable(
            "cards",
            _("The cards: resort deeds and special bulletins"),
            "kit_cards.html",
            ("board", "bulletins"),
            prepare=cards_data,
        ),
        Printable(
            "programs",
            _("Storm program cards: real hurricanes, line by line"),
            "kit_programs.html",
            ("programs_2",),
            prepare=program_cards,
        ),
        Printable(
            "tally",
            _("Tally sheet: a player's cash, resorts and plots"),
            "kit_tally.html",
            ("board", "programs_2"),
            prepare=tally_data,
        ),
    ),
    plan=(
        PlanLine(
            "where",
            _("Where we would go"),
            column="",
            values={},
            otherwise=_(
                "If officials tell your area to leave: to family or friends inland, if you can. "
                "Whose home, and the road there:"
            ),
        ),
        PlanLine(
            "plan",
            _("Our emergency plan"),
            column="most_options",
            values=_by_options(
                2,
                _(
                    "One of your resorts ended the game with an evacuation plan. Only about half of adults "
                    "have one: write yours, starting with how you would hear it is time to go:"
                ),
                _(
                    "None of your resorts ended the game with an evacuation plan. Only about half of adults "
                    "have one: write yours, starting with how you would hear it is time to go:"
                ),
            ),
            otherwise=_(
                "Only about half of adults have an emergency plan: write yours, starting with "
                "how you would hear it is time to go:"
            ),
        ),
        PlanLine(
            "kit",
            _("Our go-kit"),
            column="most_options",
            values=_by_options(
                1,
                _(
                    "At least one of your resorts ended the game with a hurricane kit. Yours at home: water "
                    "(%(water_per_day)s per person per day), food that keeps, medicines, documents, chargers, cash, "
                    "pet supplies."
                ),
                _(
                    "Your resorts ended the game with no kit. Yours at home: water (%(water_per_day)s per person per day), "
                    "food that keeps, medicines, documents, chargers, cash, pet supplies."
                ),
            ),
            otherwise=_(
                "Water (%(water_per_day)s per person per day), food that keeps, medicines, documents, "
                "chargers, cash, pet supplies."
            ),
        ),
        PlanLine(
            "home",
            _("Our home before the storm"),
            column="most_options",
            values=_by_options(
                4,
                _(
                    "One of your resorts ended the game reinforced. At home: ask whether your roof and windows "
                    "are ready for a storm, and who boards up."
                ),
                _(
                    "None of your resorts ended the game reinforced. At home: ask whether your roof and windows "
                    "are ready for a storm, and who boards up."
                ),
            ),
            otherwise=_("Ask whether your roof and windows are ready for a storm, and who boards up."),
        ),
        PlanLine(
            "insurance",
            _("Our insurance"),
            column="most_options",
            values=_by_options(
                5,
                _(
                    "One of your resorts ended the game insured. Home insurance does not pay for floods: ask "
                    "whether your home has flood insurance."
                ),
                _(
                    "None of your resorts ended the game insured. Home insurance does not pay for floods: ask "
                    "whether your home has flood insurance."
                ),
            ),
            otherwise=_("Home insurance does not pay for floods: ask whether your home has flood insurance."),
        ),
    ),
    plan_facts=("household-emergency-plan", "flood-insurance-take-up", "water-per-day"),
)
