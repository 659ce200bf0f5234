"""Hurricane Approaching!'s knowledge check (``scenarios.kit.CheckBank``): three objectives and two
parallel forms. Each item puts the student in a situation the game rehearses (the watch, the
warning, where to go, the road out) and rests on a verified fact of ``scoring/outcomes``; its
wrong answers are what people really do or believe (wait for the wind, go to the shelter first,
drive through a foot of water, leave the dog behind)."""

from django.utils.translation import gettext_lazy as _

from scenarios.kit import Ask, CheckBank, Objective, form

TIMING, DESTINATION, ROAD = "timing", "destination", "road"

CHECK = CheckBank(
    objectives=(
        Objective(
            TIMING,
            _(
                "Act on a hurricane watch and warning in time: be ready and gone before the "
                "tropical-storm winds arrive."
            ),
        ),
        Objective(
            DESTINATION,
            _(
                "Choose where to go: family or friends inland first, a hotel next, a "
                "public shelter when there is no other place."
            ),
        ),
        Objective(ROAD, _("Pack and travel safely: water for everyone, pets in the plan, and never into flood water.")),
    ),
    items=form(
        "A",
        Ask(
            "warning-means",
            TIMING,
            "watch-warning-lead-times",
            _(
                "A hurricane warning has just been issued for your coast. The storm itself is still far out "
                "at sea. What does the warning tell your family?"
            ),
            _("The winds are about a day and a half away: finish up and leave"),
            (
                _("The storm is still days away: there is plenty of time to wait and see"),
                _("The winds are almost here: it is too late to leave now"),
            ),
        ),
        Ask(
            "when-families-leave",
            TIMING,
            "when-households-leave-ike",
            _("Before Hurricane Ike, when did most of the families that left get going?"),
            _("About two days before landfall, mostly in daylight"),
            (_("The night before landfall, when the roads were empty"), _("A week ahead, before any watch was issued")),
            kind="recall",
        ),
        Ask(
            "wait-for-wind",
            TIMING,
            "watch-warning-lead-times",
            _(
                "Your town is told to leave. Your uncle wants to wait until the wind picks up, to be sure "
                "the storm is really coming. What should the family do?"
            ),
            _("Leave now: be ready before the strong winds arrive"),
            (_("Wait for the wind first: forecasts are often wrong"), _("Wait until the rain starts, then decide")),
        ),
        Ask(
            "cousins-inland",
            DESTINATION,
            "destinations-florida-2004",
            _(
                "Your family must leave the coast. Your cousins live inland, an hour's drive away. Where do "
                "most evacuating families stay?"
            ),
            _("With family or friends, like your cousins"),
            (_("In a public shelter, where help is ready"), _("In a hotel in another state, far from the storm")),
        ),
        Ask(
            "shelter-or-friends",
            DESTINATION,
            "destinations-consensus",
            _(
                "Your family can stay with friends inland or go to a crowded public shelter nearby. What do "
                "most evacuees choose when they can?"
            ),
            _("Friends, relatives or a hotel"),
            (_("The public shelter, because it is closest"), _("Staying home, because the shelter is crowded")),
        ),
        Ask(
            "water-for-four",
            ROAD,
            "water-per-day",
            _("Your family of four packs water for three days away from home. About how much should you take?"),
            _("About 12 gallons"),
            (_("About 3 gallons"), _("About 40 gallons")),
        ),
        Ask(
            "water-on-road",
            ROAD,
            "turn-around-dont-drown",
            _("On the way out, moving water covers the road ahead. It looks only about a foot deep. What do you do?"),
            _("Turn around: a foot of moving water can float a car"),
            (
                _("Drive through slowly: a foot of water is shallow"),
                _("Wait in the car on the road until it goes down"),
            ),
        ),
        Ask(
            "pets",
            ROAD,
            "pets-stay-behind",
            _("Your family has a dog. The order to leave comes. What should the plan be?"),
            _("Take the dog along: plans should include pets"),
            (_("Leave the dog at home with plenty of food and water"), _("Stay home, because the dog cannot come")),
        ),
    )
    + form(
        "B",
        Ask(
            "warning-means",
            TIMING,
            "watch-warning-lead-times",
            _(
                "A hurricane watch is issued for your town. Your family lives in the zone that will be told "
                "to leave. What is the best plan?"
            ),
            _("Get ready now: winds could come in about two days"),
            (
                _("Wait for the warning, then start packing the car"),
                _("Leave once the wind and the rain actually begin"),
            ),
        ),
        Ask(
            "when-families-leave",
            TIMING,
            "when-households-leave-ike",
            _("In Hurricane Ike, when did most of the households that evacuated leave?"),
            _("Between the watch and the warning, about two days ahead"),
            (
                _("About a week before, even before any watch was issued"),
                _("In the last few hours, once the storm was in sight"),
            ),
            kind="recall",
        ),
        Ask(
            "wait-for-wind",
            TIMING,
            "watch-warning-lead-times",
            _("The watch came yesterday and the warning this morning. Your family has not packed yet. What now?"),
            _("Pack the essentials quickly and leave today"),
            (
                _("Wait until tomorrow to see if the storm turns"),
                _("Stay home: once a warning is out, it is too late to go"),
            ),
        ),
        Ask(
            "cousins-inland",
            DESTINATION,
            "destinations-florida-2004",
            _("When Florida evacuated for its 2004 hurricanes, where did most evacuees stay?"),
            _("With family or friends"),
            (_("In a public shelter"), _("In a hotel or motel")),
            kind="recall",
        ),
        Ask(
            "shelter-or-friends",
            DESTINATION,
            "destinations-consensus",
            _(
                "Your family can go to your grandparents' house inland or to the school used as a public "
                "shelter. You have a car and a little money. Which is the better plan?"
            ),
            _("The grandparents' house, as most evacuees do"),
            (_("The school shelter: it is the safest building in town"), _("Stay home and decide in the morning")),
        ),
        Ask(
            "water-for-four",
            ROAD,
            "water-per-day",
            _("You pack water for yourself and your brother for two days. About how much?"),
            _("About 4 gallons"),
            (_("About 1 gallon"), _("About 20 gallons")),
        ),
        Ask(
            "water-on-road",
            ROAD,
            "turn-around-dont-drown",
            _("Your family drives an SUV. Water about two feet deep is flowing across the road. What is true?"),
            _("It can carry off most SUVs: turn around"),
            (_("An SUV is heavy enough to get across"), _("Small cars are in danger, but not an SUV")),
        ),
        Ask(
            "pets",
            ROAD,
            "pets-stay-behind",
            _(
                "Your neighbour says she will stay home because a shelter might not take her cat. What is "
                "the better plan?"
            ),
            _("Plan ahead for a place where the cat can come too"),
            (_("Stay home with the cat: the storm might miss the town"), _("Leave the cat inside with plenty of food")),
        ),
    ),
)
