"""Hurricane Approaching!'s lesson kit (``scenarios.kit.Kit``): the guide, the printables and the
content files that feed them and the family plan's lines."""

from django.utils.translation import gettext_lazy as _

from scenarios.kit import Aim, DebriefPhase, Guide, Kit, PlanLine, Printable, Step


def board_geometry(content: dict) -> dict:
    """The network as SVG shapes: links (with their die numbers at the middle) and places."""
    network = content["network"]
    at = {node["id"]: node for node in network["nodes"]}
    links = []
    for link in network["links"]:
        a, b = at[link["a"]], at[link["b"]]
        links.append(
            {
                "x1": a["x"],
                "y1": a["y"],
                "x2": b["x"],
                "y2": b["y"],
                "mx": (a["x"] + b["x"]) / 2,
                "my": (a["y"] + b["y"]) / 2,
                "black": link.get("black"),
                "red": link.get("red"),
                "bridge": link.get("name") if link.get("bridge") else "",
                "contraflow": link.get("contraflow", False),
            }
        )
    water = [" ".join(f"{x},{y}" for x, y in shape) for shape in network["water"]]
    places = [node for node in network["nodes"] if node["kind"] != "free"]
    return {
        "links": links,
        "water": water,
        "places": places,
        "crossings": [node for node in network["nodes"] if node["kind"] == "free"],
    }


#: the tally sheet's words for the state of the system and the activities (the rules file's keys)
SETTINGS = {
    "numbers": _("Road numbers in use"),
    "fuel_price": _("Fuel price ($ a gallon)"),
    "fuel_limit": _("Most fuel per purchase (gallons)"),
    "supply_price": _("Supply price ($ a unit)"),
    "bridge.west": _("West causeway"),
    "bridge.bay": _("Bay bridge"),
    "bridge.east": _("East bridge"),
    "contraflow": _("Contraflow (one-way roads out)"),
    "destination.relative": _("Relative's home takes guests"),
    "destination.hotel": _("Hotel has rooms"),
    "destination.shelter": _("Shelter is open"),
}
VALUES = {"black": _("black"), "red": _("red")}
ACTIVITIES = {
    "bank": _("Bank"),
    "home_supplies": _("Home supplies"),
    "secure_home": _("Securing the home"),
    "friends": _("Picking up friends"),
    "buy_fuel": _("Buying fuel"),
    "buy_supplies": _("Buying supplies"),
    "lost_turn": _("A lost turn"),
    "tow": _("A tow"),
    "wait": _("Waiting"),
    "skip": _("Skipping a turn"),
}


def tally_rows(content: dict) -> dict:
    """The tally sheet's settings and activity times in words, never the rules file's keys."""

    def shown(name, value):
        if isinstance(value, bool):
            if name.startswith("bridge."):
                return _("open") if value else _("closed")
            return _("yes") if value else _("no")
        return VALUES.get(value, value)

    rules = content["rules"]
    return {
        "settings": [
            {"label": SETTINGS.get(name, name), "value": shown(name, value)} for name, value in rules["system"].items()
        ],
        "activities": [
            {"label": ACTIVITIES.get(name, name), "minutes": minutes} for name, minutes in rules["minutes"].items()
        ],
    }


KIT = Kit(
    guide=Guide(
        objectives=(
            Aim(
                _(
                    "Explain what a hurricane watch and a hurricane warning mean, and how many hours each "
                    "gives before the winds arrive."
                ),
                checks=("timing",),
            ),
            Aim(
                _(
                    "Weigh when to leave, where to go and what to take, and say what each choice costs in "
                    "time, money and safety."
                ),
                checks=("destination", "road"),
            ),
            Aim(_("Compare the class's choices with what real evacuees did, using sourced figures.")),
            Aim(_("Take home a family emergency plan based on their own choices in the game.")),
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
                    "Students act on a watch-and-warning timeline and a forecast, and compare their class's "
                    "data with real evacuation data."
                ),
            ),
            (
                _("C3 Framework D2.Geo.8.6-8"),
                _(
                    "Analyze how relationships between humans and environments "
                    "extend or contract spatial patterns of settlement and "
                    "movement."
                ),
                _(
                    "Students see how a storm empties a coast: who leaves, when, by which roads, and where "
                    "they go, beside real evacuation data."
                ),
            ),
            (
                _("National Health Education Standards, Standard 7"),
                _("Demonstrate the ability to practice health-enhancing behaviors and avoid or reduce health risks."),
                _("The family plan turns the game's choices into a household's real plan."),
            ),
        ),
        steps=(
            Step(
                7,
                _("Join and the before-check"),
                _(
                    '"Open the join page on your tablet and type the code on the board. When I have '
                    'approved your nickname, answer the short questions: they are not graded." Read '
                    "the questions aloud to students who want them read."
                ),
                does=("approve", "before_check"),
            ),
            Step(
                20,
                _("Play"),
                _(
                    '"A hurricane watch has just been issued: you have 48 hours before '
                    "the winds. Each of you decides for your own household when to "
                    'leave, where to go and what to take. Watch the clock." Walk the '
                    "room with the dashboard; help students who are stuck."
                ),
                does=("start", "finish"),
            ),
            Step(
                5,
                _("The after-check"),
                _(
                    '"Now answer the questions after the game: they are other questions on the same '
                    'ideas, so think about what happened in your game."'
                ),
                does=("open_after", "after_check", "close_after"),
            ),
            Step(
                10,
                _("Debrief"),
                _(
                    'Put the class debrief on the projector. "Here is where our class '
                    "went, and where real evacuees in Florida went. Why do you think "
                    'so few chose the shelter?"'
                ),
                does=("debrief",),
            ),
            Step(
                3,
                _("Family plan"),
                _('"Open your family plan: it starts from your game. Fill in the names at home."'),
                does=("plan",),
            ),
        ),
        questions=(
            _("Who left before the warning, and why? Who waited, and what did waiting cost?"),
            _("Most real evacuees go to family or friends. Why might a family choose a hotel or a shelter instead?"),
            _("Which card changed your plans the most? Does that happen in real evacuations?"),
            _("What would you pack first if you had one hour?"),
        ),
        vocabulary=(
            "hurricane_watch",
            "hurricane_warning",
            "evacuation_zone",
            "shelter_in_place",
            "storm_surge",
            "contraflow",
            "forecast_cone",
        ),
        debrief=(
            DebriefPhase(
                "reactions",
                _('"One word for how the evacuation felt." Go round the room quickly; do not judge the words.'),
                _("nothing yet: keep the page closed"),
            ),
            DebriefPhase(
                "what_happened",
                _(
                    '"Where did our households go, and when did they leave?" Let '
                    "two or three tables say it in their own words."
                ),
                _("“Where we went” and “When we left”"),
            ),
            DebriefPhase(
                "why",
                _(
                    '"Why did some of us wait?" Read out the reasons the class gave, then '
                    "ask what made leaving late costly in the game."
                ),
                _("“Why we said we left” and “How it ended”"),
                older=_(
                    '"Why did some of us wait?" Read out the reasons the class gave, then ask which were '
                    "about money, which about information and which about habit, and what each cost in the "
                    "game."
                ),
            ),
            DebriefPhase(
                "differently",
                _(
                    '"If you played again, what would you do first?" Ask each table '
                    "for one change, and whether the what-if replays agree."
                ),
                _("the what-if replays"),
            ),
            DebriefPhase(
                "real_world",
                _(
                    '"Real evacuees mostly go to family or friends, and leave about '
                    'two days before the storm. What does that mean for your family?" '
                    "Open the family plan."
                ),
                _("the real figures beside the class's, with their sources"),
                older=_(
                    '"Real evacuees mostly go to family or friends and leave about two days before the storm,'
                    ' yet many people stay. What keeps a household from leaving: money, a car, a job, a pet?"'
                    " Then open the family plan."
                ),
            ),
        ),
        differentiation=(
            _(
                "Sentence frames for the debrief, on the board: “We left at hour ___ because ___.” "
                "“Next time we would ___ first, because ___.”"
            ),
            _(
                "Extension: a student who finishes early compares one what-if replay with their own game and "
                "writes two sentences on what leaving earlier would have changed."
            ),
        ),
        fallback=(
            _(
                "Print the board, the chance cards and one tally sheet per household; seat four "
                "students at each board with a ten-sided die (or numbered slips 1-10 in a cup)."
            ),
            _(
                "Each household moves a coin along the roads; a road needs the die roll printed on "
                "it (black normally, red once heavy traffic is called). Each road takes 30 minutes."
            ),
            _(
                "The teacher calls the clock every few minutes (hour 12: warning; hour 24: heavy "
                "traffic) and reads the chance cards aloud."
            ),
            _("Debrief from the tally sheets: count where households went and when they left."),
        ),
    ),
    printables=(
        Printable(
            "board", _("The board: the peninsula's roads"), "kit_board.html", ("network",), prepare=board_geometry
        ),
        Printable("cards", _("The chance cards"), "kit_cards.html", ("cards_2",)),
        Printable(
            "tally",
            _("Tally sheet: a household's clock, fuel, cash and supplies"),
            "kit_tally.html",
            ("rules",),
            prepare=tally_rows,
        ),
    ),
    plan=(
        PlanLine(
            "where",
            _("Where we would go"),
            column="destination",
            values={
                "relative": _(
                    "To family or friends inland, as in your game: most evacuees do the same. "
                    "Whose home, and the road there:"
                ),
                "hotel": _(
                    "To a hotel or motel inland, as in your game: book early, prices rise. "
                    "Which one, and the road there:"
                ),
                "shelter": _(
                    "To a public shelter, as in your game: it is the last resort, with little "
                    "space. Which shelter is nearest:"
                ),
            },
            otherwise=_(
                "Your household did not reach safety in the game. Choose a place now, family "
                "or friends inland if you can:"
            ),
            unplayed=_(
                "Choose a place now, family or friends inland if you can, as most evacuees do. "
                "Whose home, and the road there:"
            ),
        ),
        PlanLine(
            "when",
            _("When we would leave"),
            column="outcome",
            values={
                "evacuated": _(
                    "You left in time in the game. If officials tell your zone to leave, leave at "
                    "once, before the hurricane warning if you can (it comes about 36 hours "
                    "before the winds). If you are not told to leave, shelter in place."
                ),
                "stayed home": _(
                    "You stayed home in the game. Find out now whether your home is in an "
                    "evacuation zone: if officials tell it to leave, go. If not, shelter in place."
                ),
                "caught on the road": _(
                    "You were still on the road when the winds came. If officials tell "
                    "your zone to leave, leave earlier: at the watch, or at the latest at "
                    "the warning."
                ),
            },
            otherwise=_(
                "If officials tell your zone to leave, leave at once, before the hurricane warning if "
                "you can. If you are not told to leave, shelter in place."
            ),
        ),
        PlanLine(
            "home",
            _("Our home before we go"),
            column="secured",
            values={
                "True": _(
                    "You secured your home in the game. Before leaving: shutters or boards, bring "
                    "in outdoor things, turn off what officials say to."
                ),
            },
            otherwise=_(
                "You did not secure your home in the game. Before leaving: shutters or "
                "boards, bring in outdoor things, turn off what officials say to."
            ),
            unplayed=_("Before leaving: shutters or boards, bring in outdoor things, turn off what officials say to."),
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
    plan_facts=("water-per-day", "watch-warning-lead-times", "destinations-florida-2004"),
)
