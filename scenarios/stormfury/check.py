"""Project Stormfury's knowledge check (``scenarios.kit.CheckBank``): three objectives and two
parallel forms, on the team's decisions: spend before the storm or after, read the storm's
strength and how long it stays dangerous, keep people out of flood water. Every item rests on a
verified fact of ``scoring/outcomes``; wrong answers are the team's real temptations (keep the
money for repairs, the danger is over at landfall, a truck can cross)."""

from django.utils.translation import gettext_lazy as _

from scenarios.kit import Ask, CheckBank, Objective, form

FORTIFY, STRENGTH, WATER = "fortify", "strength", "water"

CHECK = CheckBank(
    objectives=(
        Objective(FORTIFY, _("Explain why strengthening buildings before a storm pays back more than it costs.")),
        Objective(STRENGTH, _("Read a storm's category and what it does, and why it stays dangerous after landfall.")),
        Objective(WATER, _("Protect people from water: flooded roads and rain floods far from the coast.")),
    ),
    items=form(
        "A",
        Ask(
            "spend-now",
            FORTIFY,
            "mitigation-pays",
            _(
                "Your team has money left before the storm. One player wants to keep it for repairs "
                "afterwards. What do real disasters show?"
            ),
            _("Strengthening now saves several times its cost"),
            (_("Repairs afterwards cost less than preparing"), _("Money spent early is wasted if the storm turns")),
        ),
        Ask(
            "strong-roofs",
            FORTIFY,
            "fortified-roofs-sally",
            _("After Hurricane Sally in Alabama, how did homes with strengthened roofs do?"),
            _("Far fewer insurance claims than ordinary homes"),
            (_("About the same damage as ordinary homes"), _("More damage, because the stronger roofs were heavier")),
            kind="recall",
        ),
        Ask(
            "mayor",
            FORTIFY,
            "mitigation-pays",
            _("After the storm, the mayor says strengthening buildings was too expensive. What can your team answer?"),
            _("Each dollar spent beforehand saves several in damage"),
            (
                _("She is right: it costs more than the damage"),
                _("It helps against small storms, but not against big ones"),
            ),
        ),
        Ask(
            "category-4-town",
            STRENGTH,
            "cat4-damage",
            _("A category 4 hurricane is heading for a town of well-built homes. What should your team expect?"),
            _("Homes losing roofs and walls; power out for weeks"),
            (
                _("Broken windows and fallen branches, and little more"),
                _("Little damage, since the homes are well built"),
            ),
        ),
        Ask(
            "category-set-by",
            STRENGTH,
            "saffir-simpson",
            _("What sets a hurricane's category, from 1 to 5?"),
            _("Its strongest sustained wind"),
            (_("How much rain it brings to land"), _("How wide the storm is")),
            kind="recall",
        ),
        Ask(
            "after-landfall",
            STRENGTH,
            "landfall-decay",
            _("The hurricane came ashore 12 hours ago, far from the inland city your team protects. What now?"),
            _("Keep protecting the city: strong winds can reach far inland"),
            (
                _("Stand down: the danger ends once a storm is over land"),
                _("Move people to the coast, where the storm has passed"),
            ),
        ),
        Ask(
            "truck-in-water",
            WATER,
            "turn-around-dont-drown",
            _("A rescue truck reaches a road covered by moving water two feet deep. What should the driver do?"),
            _("Turn back: two feet can carry off most trucks"),
            (_("Drive on: a truck is heavy enough"), _("Drive on fast, so the water cannot push it aside")),
        ),
        Ask(
            "slow-storm",
            WATER,
            "harvey-rain",
            _(
                "A slow storm is forecast to stall over your region for days. Which danger should your team "
                "plan for most?"
            ),
            _("Rain flooding, even far from the coast"),
            (_("Wind damage along the beach"), _("Very little: a slow storm is a weak storm")),
        ),
    )
    + form(
        "B",
        Ask(
            "spend-now",
            FORTIFY,
            "mitigation-pays",
            _(
                "A town can spend $1 million now to strengthen its buildings, or keep it for after the "
                "storm. What does the evidence say?"
            ),
            _("Spend it now: it avoids several million in damage"),
            (_("Keep it: storms this strong are too rare to plan for"), _("It makes no difference when it is spent")),
        ),
        Ask(
            "strong-roofs",
            FORTIFY,
            "fortified-roofs-sally",
            _("In Alabama after Hurricane Sally, how did homes with strengthened roofs compare with ordinary homes?"),
            _("Far fewer claims and smaller losses"),
            (_("About the same losses"), _("More claims, as repairs cost more")),
            kind="recall",
        ),
        Ask(
            "mayor",
            FORTIFY,
            "mitigation-pays",
            _("Across many US disasters, a dollar spent making buildings stronger beforehand saved about how much?"),
            _("About six dollars"),
            (_("Less than a dollar"), _("About one dollar")),
            kind="recall",
        ),
        Ask(
            "category-4-town",
            STRENGTH,
            "cat4-damage",
            _("After a category 4 storm, a family asks if they can move back home the next day. What is likely?"),
            _("Much of the area may be unlivable for weeks"),
            (_("Yes: power and water come back within a day"), _("Yes, as long as their home kept its roof")),
        ),
        Ask(
            "category-set-by",
            STRENGTH,
            "saffir-simpson",
            _("Two storms are coming: one category 2, one category 4. Which statement is right?"),
            _("The category 4 storm has much stronger winds"),
            (_("The category 4 storm will bring more rain"), _("The category 4 storm is twice as wide")),
        ),
        Ask(
            "after-landfall",
            STRENGTH,
            "landfall-decay",
            _("Hurricane Laura came ashore as a category 4. Eighteen hours later, far inland, it was…"),
            _("Still blowing at tropical-storm strength"),
            (_("Gone, with only a little light rain left"), _("Stronger than at landfall")),
            kind="recall",
        ),
        Ask(
            "truck-in-water",
            WATER,
            "turn-around-dont-drown",
            _(
                "Your team can close a flooded road or leave it open as a way out. What is true of driving "
                "through moving flood water?"
            ),
            _("A foot of it can float a small car"),
            (_("It is safe if the car drives slowly"), _("It is dangerous once it is above the doors")),
        ),
        Ask(
            "slow-storm",
            WATER,
            "harvey-rain",
            _(
                "Like Hurricane Harvey, a storm is forecast to stall and drop rain for days. Your team can "
                "protect one thing first. Which matters most?"
            ),
            _("Roads and towns that flood, inland too"),
            (_("Beach houses, against the wind"), _("It can wait: a slow storm is a weak storm")),
        ),
    ),
)
