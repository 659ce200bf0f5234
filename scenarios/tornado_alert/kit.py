"""Tornado Alert!'s lesson kit (``scenarios.kit.Kit``): the guide for a 45-minute period, the
printables drawn from ``content/deck_2.json`` (a whole deck to cut out, and the tally sheet of rounds
and averages) and the family plan's lines.
"""

from django.utils.translation import gettext_lazy as _

from scenarios.kit import Aim, DebriefPhase, Guide, Kit, PlanLine, Printable, Step
from scenarios.tornado_alert.rules import CHEAT_BONUS, CHEAT_THRESHOLD, ROUNDS

#: rows of the tally sheet: the most players a table seats (``scenario.SCENARIO.seats``)
TALLY_ROWS = 6


def deck_cards(content: dict) -> dict:
    """Every card of one deck, in the order the engine builds it (``rules._build_cards``): each
    location's plain cards, then its tornado card, then the special cards, each as often as it
    is in the deck."""
    deck = content["deck_2"]
    cards = []
    for loc in deck["locations"]:
        card = {"name": loc["name"], "value": loc["value"], "basis": loc["basis"]}
        cards += [dict(card, tornado=False)] * loc["plain"] + [dict(card, tornado=True)] * loc["tornado"]
    for special in deck["specials"]:
        cards += [{"name": special["name"], "value": special["value"], "text": special["text"]}] * special["count"]
    return {"cards": cards, "total": len(cards)}


def tally(content: dict) -> dict:
    """The score sheet's rows and rounds, and the card table a table scores with."""
    deck = content["deck_2"]
    locations = [
        {
            "name": loc["name"],
            "value": loc["value"],
            "count": loc["plain"] + loc["tornado"],
            "tornado": loc["tornado"],
            "grade": loc["basis"].get("grade") or "—",
        }
        for loc in deck["locations"]
    ]
    return {
        "rows": range(1, TALLY_ROWS + 1),
        "rounds": range(1, ROUNDS + 1),
        "locations": locations,
        "specials": deck["specials"],
        "cheat_threshold": CHEAT_THRESHOLD,
        "cheat_bonus": CHEAT_BONUS,
        "total": sum(loc["count"] for loc in locations) + sum(s["count"] for s in deck["specials"]),
    }


KIT = Kit(
    guide=Guide(
        objectives=(
            Aim(
                _(
                    "Name where to shelter when a tornado threatens: underground if you can, otherwise a "
                    "small room in the middle of the lowest floor, away from windows."
                ),
                checks=("underground", "inside"),
            ),
            Aim(
                _(
                    "Explain why the places that give the most dramatic storm photos — cars, roofs, high "
                    "ground, open water — are the ones to leave at once."
                ),
                checks=("outside",),
            ),
            Aim(
                _(
                    "Read a safety note's source and grade, and say why a note that is only reported is "
                    "weaker than one checked against its source."
                )
            ),
            Aim(
                _("Take home a family plan: where the family shelters at home, and where the class shelters at school.")
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
                    "The debrief sets the places the class took its photos from beside graded safety "
                    "advice on where people are hurt and where they are safe in tornadoes; students plan "
                    "their shelter before a warning, not during it."
                ),
            ),
            (
                _("CCSS Math 6.SP.A.3 / 6.SP.B.5"),
                _(
                    "Recognize that a measure of center summarizes a "
                    "data set with a single number; summarize "
                    "numerical data sets in relation to their context."
                ),
                _(
                    "Every round each player works out the average value of their photos, to two "
                    "decimals, and compares rounds: the worst counted round is the score."
                ),
            ),
            (
                _("National Health Education Standards, Standard 7"),
                _("Demonstrate the ability to practice health-enhancing behaviors and avoid or reduce health risks."),
                _(
                    "Students name the shelter at home and at school on their family plan and say why "
                    "no photo is worth staying outside."
                ),
            ),
        ),
        steps=(
            Step(
                7,
                _("Join and the before-check"),
                _(
                    '"Open the join page and type the code. When I have approved your nickname, '
                    'answer the short questions: they are not graded." Approving the nicknames '
                    'also lets tablemates see each other\'s nicknames ("Ben was faster") instead '
                    "of player numbers. Read the questions aloud to students who want them read."
                ),
                does=("approve", "before_check"),
            ),
            Step(
                20,
                _("Play"),
                _(
                    '"Every card is a storm photo taken from a place. The more dangerous '
                    "the place, the more points the photo is worth. Play a card on your "
                    "turn; slap the pile when you want the photos on it. When a tornado "
                    "card lands, everyone taking photos from that place loses the card. "
                    'After three rounds your worst round is your score." Walk between '
                    "the tables."
                ),
                does=("start", "end_now"),
            ),
            Step(
                5,
                _("The after-check"),
                _('"Now answer the questions after the game: they are other questions on the same ideas."'),
                does=("open_after", "after_check", "close_after"),
            ),
            Step(
                10,
                _("Debrief"),
                _(
                    'Put the class debrief on the projector. "Where did our photos come '
                    "from? Where are people actually safe when a tornado comes? Would "
                    'you take that photo?"'
                ),
                does=("debrief",),
            ),
            Step(
                3,
                _("Family plan"),
                _(
                    '"Open your family plan: where your family shelters at home, and where we '
                    'shelter here at school. Fill in the blanks at home."'
                ),
                does=("plan",),
            ),
        ),
        questions=(
            _(
                "Would you take that photo? Which of the game's places would you really stand in while "
                "a tornado was coming?"
            ),
            _(
                "The most dangerous places were worth the most points. Why do real storm videos tempt "
                "people to take the same risk?"
            ),
            _("A car has a roof and doors. Why is it still a poor place to be in a tornado?"),
            _(
                "Where do we go in our school's tornado drill, and why there and not the gym or the "
                "classroom by the windows?"
            ),
            _(
                "Your score was your worst round, not your best. Why does a plan that works every time "
                "beat one lucky round?"
            ),
        ),
        vocabulary=("tornado_watch", "tornado_warning", "flying_debris", "shelter_in_place", "average"),
        debrief=(
            DebriefPhase(
                "reactions",
                _('"Which photo are you proudest of, and would you really have stood there?" Quick answers.'),
                _("nothing yet: keep the page closed"),
            ),
            DebriefPhase(
                "what_happened",
                _(
                    '"Where did our photos come from?" Read the chart: how many '
                    "came from places the Weather Service calls dangerous?"
                ),
                _("“Where our photos were taken from”"),
            ),
            DebriefPhase(
                "why",
                _('"Why were the dangerous places worth the most points, and what did the tornado take from them?"'),
                _("“What the storm did to us”"),
                older=_(
                    '"The riskiest places paid the most points. Where in real life do people make the same '
                    'trade: a storm photo, a drive home, work outdoors?"'
                ),
            ),
            DebriefPhase(
                "differently",
                _(
                    '"If a real tornado warning sounded now, where would you go, '
                    'here and at home?" Each table agrees on one place.'
                ),
                _("the what-if replay: the same table, every player sheltering"),
            ),
            DebriefPhase(
                "real_world",
                _(
                    '"Underground if you can, otherwise a small room in the middle of '
                    'the lowest floor. No photo is worth it." Then open the family plan.'
                ),
                _("“What really happens”: the safety notes with their sources"),
                older=_(
                    '"Underground if you can, otherwise a small room in the middle of the lowest floor. Which'
                    " note on the screen is verified and which only reported, and why does that matter when "
                    'you decide?" Then open the family plan.'
                ),
            ),
        ),
        preparation=(
            _(
                "Find out where the class shelters in the school's tornado drill (ask the office), and say it in "
                "the debrief: the family plan asks for it."
            ),
        ),
        differentiation=(
            _(
                "Sentence frames for the debrief, on the board: “I would not stand in ___ because ___.” "
                "“The safest place at home is ___ because ___.”"
            ),
            _(
                "Extension: a student who finishes early finds, with a map of the school, the drill shelter and "
                "the way there from this room, and explains why it is safer than the gym."
            ),
        ),
        fallback=(
            _("Print one deck of cards per table (cut along the dashed lines) and one tally sheet per table."),
            _(
                "Take out the Game Over card and shuffle. Shuffle Game Over into the bottom 20 cards and "
                "put them under the rest. Deal 6 cards each (5 each with six players)."
            ),
            _(
                "Clockwise, each player lays one card on the play pile and draws one. Anyone except the "
                "player who laid the last card may slap the pile and take as many cards as the top "
                "card's number, onto their own photo stack. The lowest hand wins a tie; the player who "
                "laid the last card is the referee."
            ),
            _(
                "When a tornado card is laid, everyone whose top photo shows its place turns that card "
                "face down under their stack: it is worth nothing. The same place laid twice in a row "
                "is lightning: the same players turn their lowest photo face down."
            ),
            _(
                "When someone takes Game Over, each player adds up their photos and divides by the "
                "number of cards on the tally sheet. After three rounds the worst counted round is the "
                "score; the highest score wins."
            ),
            _(
                "Debrief from the tally sheets and the cards' safety notes: which places brought the "
                "points, and where would you really shelter?"
            ),
        ),
    ),
    printables=(
        Printable("cards", _("The cards: one deck per table"), "kit_cards.html", ("deck_2",), prepare=deck_cards),
        Printable("tally", _("Tally sheet: rounds and averages"), "kit_tally.html", ("deck_2",), prepare=tally),
    ),
    plan=(
        PlanLine(
            "home",
            _("Where we shelter at home"),
            column="",
            values={},
            otherwise=_(
                "The lowest floor: a basement or storm cellar if we have one; if not, a "
                "small room in the middle of the home with no windows, such as a closet, "
                "a bathroom or an inside hallway. Ours:"
            ),
        ),
        PlanLine(
            "school",
            _("Where we shelter at school"),
            column="",
            values={},
            otherwise=_("The place our school uses in its tornado drill. Ask your teacher and write it here:"),
        ),
        PlanLine(
            "photos",
            _("Photos and videos"),
            column="risky",
            values={
                "0": _(
                    "In the game you took no photos from dangerous places. Do the same for real: when a "
                    "warning sounds, go to shelter at once and leave the pictures to the weather service."
                ),
            },
            otherwise=_(
                "In the game you took photos from dangerous places for points. For real, no photo "
                "is worth it: when a warning sounds, go to shelter at once."
            ),
            unplayed=_(
                "When a warning sounds, go to shelter at once: no photo or video is worth staying "
                "outside or by a window."
            ),
        ),
        PlanLine(
            "outside",
            _("If we are outside or in a car"),
            column="",
            values={},
            otherwise=_(
                "Get into a sturdy building if one is close: a car is not a shelter. Never "
                "drive into flood water: %(water_floats_car)s of moving water can float a small car."
            ),
        ),
        PlanLine(
            "kit",
            _("Our shelter kit"),
            column="",
            values={},
            otherwise=_(
                "Water (about %(water_per_day)s per person per day), a flashlight, a battery or "
                "wind-up radio, sturdy shoes, medicines, and something to cover our heads."
            ),
        ),
    ),
    plan_facts=("turn-around-dont-drown", "water-per-day"),
    hazard="tornado",
)
