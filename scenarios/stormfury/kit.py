"""Project Stormfury's lesson kit (``scenarios.kit.Kit``): the guide, the printables and the
content files that feed them and the family plan's lines."""

from django.utils.translation import gettext_lazy as _

from scenarios.kit import Aim, DebriefPhase, Guide, Kit, PlanLine, Printable, Step

HEX = 18  # printed hex radius, in SVG units


def _centre(q, r):
    """A flat-top axial hex's centre, north up."""
    return HEX * 1.5 * q, HEX * (3**0.5) * (r + q / 2)


def board_geometry(content: dict) -> dict:
    """The Gulf-coast map of the current edition (``map_2``) as SVG hexes, roads and cities."""
    board = content["map_2"]
    corners = [
        (HEX * c, HEX * s) for c, s in ((1, 0), (0.5, 0.866), (-0.5, 0.866), (-1, 0), (-0.5, -0.866), (0.5, -0.866))
    ]
    hexes = []
    for cell in board["hexes"]:
        x, y = _centre(cell["q"], cell["r"])
        hexes.append(
            {"points": " ".join(f"{x + cx:.1f},{y + cy:.1f}" for cx, cy in corners), "land": cell["terrain"] == "land"}
        )
    xs = [_centre(c["q"], c["r"])[0] for c in board["hexes"]]
    ys = [_centre(c["q"], c["r"])[1] for c in board["hexes"]]
    city_at = {c["id"]: _centre(c["q"], c["r"]) for c in board["cities"]}
    roads = []
    for road in board["roads"]:
        points = [city_at[road["a"]], *(_centre(q, r) for q, r in road["hexes"]), city_at[road["b"]]]
        roads.append({"points": " ".join(f"{x:.1f},{y:.1f}" for x, y in points), "name": road["name"]})
    cities = [
        {
            "name": c["name"],
            "x": city_at[c["id"]][0],
            "y": city_at[c["id"]][1],
            "population": c["population"],
            "spaces": c["spaces"],
        }
        for c in board["cities"]
    ]
    starts = [dict(zip("xy", _centre(q, r))) for q, r in board["storm_starts"]]
    return {
        "hexes": hexes,
        "roads": roads,
        "cities": cities,
        "starts": starts,
        "box": f"{min(xs) - HEX:.0f} {min(ys) - HEX:.0f} {max(xs) - min(xs) + 2 * HEX:.0f} "
        f"{max(ys) - min(ys) + 2 * HEX:.0f}",
    }


KIT = Kit(
    guide=Guide(
        objectives=(
            Aim(
                _("Read a hurricane's category and track, and explain why forecasters give a cone, not a line."),
                checks=("strength",),
            ),
            Aim(
                _(
                    "Decide as a team where to spend limited resources: evacuating people, strengthening "
                    "buildings, damming roads."
                ),
                checks=("fortify", "water"),
            ),
            Aim(
                _(
                    "Compare the team's choices with what real mitigation and evacuation achieved, using sourced figures."
                )
            ),
            Aim(_("Take home a family emergency plan drawn from what the team protected first.")),
        ),
        standards=(
            (
                _("NGSS MS-ESS3-2"),
                _(
                    "Analyze and interpret data on natural hazards to forecast future "
                    "catastrophic events and inform the development of technologies "
                    "to mitigate their effects."
                ),
                _("Teams read the storm's category and track each round and choose mitigation before it arrives."),
            ),
            (
                _("C3 Framework D2.Civ.6.6-8"),
                _("Describe the roles of political, civil, and economic organizations in shaping people's lives."),
                _("Each role stands for a real emergency-management job; the team wins or loses together."),
            ),
        ),
        steps=(
            Step(
                5,
                _("Join"),
                _(
                    '"Open the join page and type the code. If the knowledge check is '
                    'on, answer the short questions first: they are not graded."'
                ),
            ),
            Step(
                25,
                _("Play"),
                _(
                    '"A hurricane is forming in the Gulf. Your team runs the response '
                    "for the whole coast: every round, decide together where your "
                    'cards go before the storm moves." Press "storm moves" for the '
                    "class when the tables are ready."
                ),
            ),
            Step(
                10,
                _("Debrief"),
                _(
                    'Put the class debrief on the projector. "Where did your resources '
                    "go, and where did the storm go? What would you protect first "
                    'next time?"'
                ),
            ),
            Step(
                5,
                _("Check and plan"),
                _('"Answer the same questions again, then open your family plan. Fill in the names at home."'),
            ),
        ),
        questions=(
            _("Did your team protect people first or buildings first? What did that cost?"),
            _("The storm weakened over land. Why do forecasters still warn people far inland?"),
            _("Which role's power mattered most for your team, and why?"),
            _("Strong roofs paid back many times over after Hurricane Sally. Why don't all homes have them?"),
        ),
        vocabulary=(
            "hurricane_watch",
            "hurricane_warning",
            "category",
            "landfall",
            "storm_surge",
            "mitigation",
            "evacuation_zone",
            "forecast_cone",
        ),
        debrief=(
            DebriefPhase(
                "reactions",
                _('"How did it feel to be responsible for the whole coast?" One sentence from each team.'),
                _("nothing yet: keep the page closed"),
            ),
            DebriefPhase(
                "what_happened",
                _(
                    '"Where did the storm go, and where did our resources go?" '
                    "Compare two teams that faced the same storm."
                ),
                _("“The forecast and the storm” and “Damage by team”"),
            ),
            DebriefPhase(
                "why",
                _('"Why did some teams lose more?" Ask what they spent first: evacuating, fortifying or damming.'),
                _("“Evacuate, fortify, dam”"),
                older=_(
                    '"Why did some teams lose more?" Ask what they spent first, which spending was sure to '
                    "pay and which was a bet on where the storm would go."
                ),
            ),
            DebriefPhase(
                "differently",
                _('"With the same storm again, what would your team protect first?" Each team names one change.'),
                _("“Damage by team”"),
            ),
            DebriefPhase(
                "real_world",
                _(
                    '"Strong roofs paid back many times over after real storms. Why '
                    "don't all homes have them?\" Then open the family plan."
                ),
                _("“Really”: the real figures with their sources"),
                older=_(
                    "\"Strong roofs paid back many times over after real storms. If they pay, why don't all "
                    'homes have them: who pays, who gains, and when?" Then open the family plan.'
                ),
            ),
        ),
        fallback=(
            _(
                "Print the map, the cards and one state-of-the-coast sheet per table; use coins for "
                "the storm and tokens for fortifications."
            ),
            _(
                "Shuffle the hurricane cards by deck (ocean, land). Each round, players spend their "
                "resource cards, then one hurricane card moves the storm; mark damage on the sheet."
            ),
            _(
                "The teacher draws one hurricane card for the whole class, so every table faces the "
                "same storm, as in the app's shared storm."
            ),
            _("Debrief from the sheets: compare the damage and the people not yet evacuated per table."),
        ),
    ),
    printables=(
        Printable("board", _("The map: the Gulf coast"), "kit_board.html", ("map_2",), prepare=board_geometry),
        Printable(
            "cards",
            _("The cards: hurricane cards, resource cards and roles"),
            "kit_cards.html",
            ("hurricane_cards_2", "resource_cards_2", "roles"),
        ),
        Printable("tally", _("State of the coast: damage per city, round by round"), "kit_tally.html", ("map_2",)),
    ),
    plan=(
        PlanLine(
            "where",
            _("Where we would go"),
            column="",
            values={},
            otherwise=_("Most evacuees go to family or friends inland. Whose home, and the road there:"),
        ),
        PlanLine(
            "when",
            _("When we would leave"),
            column="people_not_evacuated",
            values={
                "0": _(
                    "Your team got every neighborhood out in time. Do the same at home: if officials tell "
                    "your zone to leave, leave at once, before the hurricane warning if you can. If you are "
                    "not told to leave, shelter in place."
                ),
            },
            otherwise=_(
                "Some of your coast's people were still there when the storm hit. At home, if officials "
                "tell your zone to leave, leave at once: the warning comes about 36 hours before the "
                "winds. If you are not told to leave, shelter in place."
            ),
            unplayed=_(
                "If officials tell your zone to leave, leave at once: the warning comes about 36 hours "
                "before the winds. If you are not told to leave, shelter in place."
            ),
        ),
        PlanLine(
            "home",
            _("Our home before we go"),
            column="fortify_people",
            values={
                "0": _(
                    "Your team did not fortify homes. Strong roofs and shutters cut losses a lot: ask "
                    "what your home has, and board up before leaving."
                ),
            },
            otherwise=_(
                "Your team fortified homes: strong roofs and shutters cut losses a lot. Before "
                "leaving, board up and bring in outdoor things."
            ),
            unplayed=_(
                "Strong roofs and shutters cut losses a lot: ask what your home has, and board up before leaving."
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
    plan_facts=("water-per-day", "watch-warning-lead-times", "fortified-roofs-sally"),
)
