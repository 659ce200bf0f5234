"""Bermuda Triangle's knowledge check (``scenarios.kit.CheckBank``): three objectives and two
parallel forms, on a captain's decisions: plan the route outside the danger area, know how far a
storm's winds reach, read its category. Every item rests on a verified fact of
``scoring/outcomes``; wrong answers are what a hurried captain believes (the forecast line is
where the danger is, only the centre is dangerous, a stronger storm has a wider cone)."""

from django.utils.translation import gettext_lazy as _

from scenarios.kit import Ask, CheckBank, Objective, form

ROUTE, WINDS, STRENGTH = "route", "winds", "strength"

CHECK = CheckBank(
    objectives=(
        Objective(
            ROUTE,
            _(
                "Plan a route outside the danger area, which grows with every day of forecast "
                "(the mariner's 1-2-3 rule)."
            ),
        ),
        Objective(
            WINDS, _("Explain that a storm's strong winds reach far beyond its centre (the 34-knot wind radius).")
        ),
        Objective(STRENGTH, _("Read a storm's category: what it measures and what it does not.")),
    ),
    items=form(
        "A",
        Ask(
            "two-days-out",
            ROUTE,
            "mariners-1-2-3-rule",
            _(
                "In two days a storm is forecast to be 300 nautical miles from your route, and its strong "
                "winds reach 150 miles out. Using the 1-2-3 rule, what do you do?"
            ),
            _("Change course: 200 miles of error plus its winds reach you"),
            (
                _("Keep going: 300 miles is more than the rule asks for"),
                _("Speed up to get past before the storm gets there"),
            ),
        ),
        Ask(
            "rule-adds",
            ROUTE,
            "mariners-1-2-3-rule",
            _("What does the mariner's 1-2-3 rule add around each forecast position of a storm?"),
            _("100, 200 and 300 nautical miles for forecast error"),
            (
                _("One, two or three extra days of waiting safely in port"),
                _("The storm's category, 1, 2 or 3, to each position"),
            ),
            kind="recall",
        ),
        Ask(
            "where-route",
            ROUTE,
            "mariners-1-2-3-rule",
            _("A captain must sail past a hurricane. Where should the planned route go?"),
            _("Outside the danger area around every forecast position"),
            (
                _("Along the forecast track, following behind the storm"),
                _("Straight across its path, as fast as the ship can go"),
            ),
        ),
        Ask(
            "three-days-out",
            ROUTE,
            "mariners-1-2-3-rule",
            _(
                "Three days ahead, the forecast says the storm will pass 350 nautical miles from your port, "
                "with winds reaching 100 miles out. What does the 1-2-3 rule say?"
            ),
            _("Too close: 300 miles of error plus its winds"),
            (_("Safe: 350 miles is well away from the port"), _("Safe, as long as it stays category 1")),
        ),
        Ask(
            "inside-radius",
            WINDS,
            "tropical-storm-force-radius",
            _(
                "Your ship is 120 nautical miles from a hurricane's centre. Its 34-knot winds reach 150 "
                "miles out. Are you in its strong winds?"
            ),
            _("Yes: you are inside the 34-knot radius"),
            (_("No: the real danger is near the centre"), _("No: 34 knots is a light breeze")),
        ),
        Ask(
            "what-34",
            WINDS,
            "tropical-storm-force-radius",
            _("What do mariners call sustained winds of 34 knots or more?"),
            _("Tropical-storm force"),
            (_("A strong fresh breeze"), _("Hurricane force")),
            kind="recall",
        ),
        Ask(
            "upgraded",
            STRENGTH,
            "saffir-simpson",
            _(
                "A storm ahead of your route is upgraded from category 2 to category 4. What does that tell "
                "the captain?"
            ),
            _("Its strongest winds are now much stronger"),
            (_("It will now move faster toward the ship's route"), _("Its cone on the map is now wider")),
        ),
        Ask(
            "category-of",
            STRENGTH,
            "saffir-simpson",
            _("What sets a hurricane's category, from 1 to 5?"),
            _("Its strongest sustained wind"),
            (_("How big the storm is"), _("How fast it moves over the sea")),
            kind="recall",
        ),
    )
    + form(
        "B",
        Ask(
            "two-days-out",
            ROUTE,
            "mariners-1-2-3-rule",
            _(
                "Tomorrow a storm is forecast to be 250 nautical miles from your route, and its strong winds "
                "reach 100 miles out. The 1-2-3 rule adds 100 miles of error a day ahead. Are you clear?"
            ),
            _("Yes, just: 100 miles of error plus 100 of wind is 200"),
            (_("No: the rule adds 300 miles of error for tomorrow"), _("No: a ship should keep 500 miles away")),
        ),
        Ask(
            "rule-adds",
            ROUTE,
            "mariners-1-2-3-rule",
            _("Why does the danger area around a storm grow for each day further ahead?"),
            _("Forecasts miss by more the further ahead they look"),
            (_("Storms grow bigger and stronger every day they last"), _("Ships sail slower as the days pass")),
            kind="recall",
        ),
        Ask(
            "where-route",
            ROUTE,
            "mariners-1-2-3-rule",
            _(
                "Your route can pass just north of the forecast track, or take a day longer around the whole "
                "danger area. Which does the 1-2-3 rule advise?"
            ),
            _("Around the whole danger area"),
            (_("Just north of the track: it saves a day"), _("Stop at sea and wait for the storm to pass")),
        ),
        Ask(
            "three-days-out",
            ROUTE,
            "mariners-1-2-3-rule",
            _(
                "The forecast for tomorrow puts a storm close to your route; the forecast for three days "
                "ahead puts it far away. Which should worry you more?"
            ),
            _("Both: three days ahead, the error allowed is 300 miles"),
            (
                _("Tomorrow's alone: the later one is too far off to matter"),
                _("Neither: the storm follows the forecast line"),
            ),
        ),
        Ask(
            "inside-radius",
            WINDS,
            "tropical-storm-force-radius",
            _(
                "A storm's centre will pass 100 miles from your route. Its tropical-storm-force winds reach "
                "180 miles out. What matters most for your route?"
            ),
            _("How far its winds reach from the centre"),
            (_("The line the storm's centre follows on the map"), _("How fast the centre is moving")),
        ),
        Ask(
            "what-34",
            WINDS,
            "tropical-storm-force-radius",
            _("What does a storm's 34-knot wind radius tell mariners?"),
            _("How far its tropical-storm-force winds reach"),
            (_("How fast the storm's centre is moving over the sea"), _("How high the waves are at the centre")),
            kind="recall",
        ),
        Ask(
            "upgraded",
            STRENGTH,
            "saffir-simpson",
            _("The forecast says a storm will strengthen from category 2 to category 4. What changes?"),
            _("Its strongest sustained winds rise"),
            (_("Its forecast cone grows wider"), _("It moves more slowly over the sea")),
        ),
        Ask(
            "category-of",
            STRENGTH,
            "saffir-simpson",
            _("A category 4 hurricane's sustained winds blow at about…"),
            _("130 to 156 mph"),
            (_("40 to 70 mph"), _("74 to 95 mph")),
            kind="recall",
        ),
    ),
)
