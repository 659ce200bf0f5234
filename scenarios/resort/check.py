"""The resort game's knowledge check (``scenarios.kit.CheckBank``): three objectives and two
parallel forms, on the options a resort owner buys in the game (insurance, a plan and a kit,
stronger buildings) and what a storm's category means. Every item rests on a verified fact of
``scoring/outcomes``; wrong answers are common beliefs (home insurance pays for floods, most
families have a plan, strengthening pays only in a rare storm)."""

from django.utils.translation import gettext_lazy as _

from scenarios.kit import Ask, CheckBank, Objective, form

INSURE, PREPARE, PROTECT = "insure", "prepare", "protect"

CHECK = CheckBank(
    objectives=(
        Objective(
            INSURE,
            _("Explain what insurance pays for after a hurricane, and why flood insurance is a separate policy."),
        ),
        Objective(
            PREPARE, _("Make a plan and a kit before the season: where to meet, whom to call, water for every day.")
        ),
        Objective(
            PROTECT, _("Weigh protection against the damage it avoids, knowing what a storm's category measures.")
        ),
    ),
    items=form(
        "A",
        Ask(
            "flooded-owner",
            INSURE,
            "flood-insurance-take-up",
            _(
                "A resort owner's building floods in a hurricane. She has ordinary property insurance and "
                "nothing else. What happens?"
            ),
            _("She pays for the flood damage herself"),
            (_("Her insurance pays for the flood damage"), _("The government pays every owner back")),
        ),
        Ask(
            "who-has-flood",
            INSURE,
            "flood-insurance-take-up",
            _("In FEMA's 2019 survey, about how many American adults held flood insurance?"),
            _("Fewer than one in four"),
            (_("About one in two"), _("About three in four")),
            kind="recall",
        ),
        Ask(
            "who-has-plan",
            PREPARE,
            "household-emergency-plan",
            _("In FEMA's 2019 survey, about how many American adults had made an emergency plan?"),
            _("About half"),
            (_("Nearly all"), _("About one in twenty")),
            kind="recall",
        ),
        Ask(
            "water-stock",
            PREPARE,
            "water-per-day",
            _("Your resort keeps water for 20 guests for 3 days. About how much?"),
            _("About 60 gallons"),
            (_("About 6 gallons"), _("About 600 gallons")),
        ),
        Ask(
            "plan-early",
            PREPARE,
            "household-emergency-plan",
            _("Your class is writing family emergency plans. Why do it before any storm is forecast?"),
            _("About half of adults have none and are caught unready"),
            (
                _("A plan is needed once a warning is out, not before"),
                _("Emergency services already plan for every family"),
            ),
        ),
        Ask(
            "strengthen",
            PROTECT,
            "mitigation-pays",
            _("A resort can pay to strengthen its buildings before the season. What does the evidence say?"),
            _("It repays several times its cost in damage avoided"),
            (
                _("It pays back if a storm hits this year, otherwise not"),
                _("It costs more than the damage it prevents"),
            ),
        ),
        Ask(
            "category",
            PROTECT,
            "saffir-simpson",
            _("What sets a hurricane's category on the Saffir-Simpson scale?"),
            _("Its strongest sustained wind"),
            (_("How much rain it drops on land"), _("How wide the storm is")),
            kind="recall",
        ),
        Ask(
            "roof-worth-it",
            PROTECT,
            "fortified-roofs-sally",
            _(
                "A resort owner asks whether a strengthened roof is worth it. What did homes in Alabama show "
                "after Hurricane Sally?"
            ),
            _("Strengthened roofs had far fewer claims"),
            (_("Strengthened roofs made no difference"), _("Strengthened roofs came off more often")),
        ),
    )
    + form(
        "B",
        Ask(
            "flooded-owner",
            INSURE,
            "flood-insurance-take-up",
            _("Your family is buying a home near the coast. Which insurance pays for damage from flood water?"),
            _("A separate flood insurance policy"),
            (_("Ordinary home insurance"), _("Any home insurance, after a hurricane")),
        ),
        Ask(
            "who-has-flood",
            INSURE,
            "flood-insurance-take-up",
            _('A neighbor says: "I don\'t need flood insurance, my home insurance covers storms." What is true?'),
            _("Home insurance does not pay for flooding"),
            (_("He is right if the storm is a hurricane"), _("He is right if the house is near the sea")),
        ),
        Ask(
            "who-has-plan",
            PREPARE,
            "household-emergency-plan",
            _("Your friend says every family already has an emergency plan. What did FEMA's 2019 survey find?"),
            _("About half of adults had made one"),
            (_("Nearly every adult had one"), _("Hardly any adults had one")),
        ),
        Ask(
            "water-stock",
            PREPARE,
            "water-per-day",
            _("A family of three packs water for five days. About how much?"),
            _("About 15 gallons"),
            (_("About 3 gallons"), _("About 50 gallons")),
        ),
        Ask(
            "plan-early",
            PREPARE,
            "water-per-day",
            _(
                "You fill bottles for your family's kit. Why about a gallon per person each day, not just a "
                "glass or two?"
            ),
            _("The water is for drinking and for washing"),
            (_("Bottles break, so most of it is spare"), _("Bottled water goes bad after a day")),
        ),
        Ask(
            "strengthen",
            PROTECT,
            "mitigation-pays",
            _(
                "Across many disasters, each dollar spent making buildings stronger beforehand saved about "
                "how much damage?"
            ),
            _("About six dollars"),
            (_("Less than a dollar"), _("About one dollar")),
            kind="recall",
        ),
        Ask(
            "category",
            PROTECT,
            "cat4-damage",
            _("Your resort is in the path of a category 4 hurricane. What damage should you prepare for?"),
            _("Much of the roof gone, and weeks without power"),
            (_("Some wet carpets and a day without power"), _("Broken windows, unless they are taped")),
        ),
        Ask(
            "roof-worth-it",
            PROTECT,
            "saffir-simpson",
            _("A storm's strongest sustained winds reach 140 mph. What category is it?"),
            _("Category 4"),
            (_("Category 2"), _("Category 5")),
            kind="recall",
        ),
    ),
)
