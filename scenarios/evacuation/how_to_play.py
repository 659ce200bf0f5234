"""Hurricane Approaching!'s one-minute "how to play" card (see ``scenarios.kit.HowToPlay``)."""

from django.utils.translation import gettext_lazy as _

from scenarios.kit import HowToPlay

CARD = HowToPlay(
    goal=_(
        "A hurricane is coming. Get your family to a safe place before your 48 hours run out, "
        "with money, fuel and supplies left."
    ),
    steps=(
        _("Choose where your family will stay: a shelter, a hotel or your relatives."),
        _("Tap where to drive. Every road takes time and fuel, and some roads need a lucky roll."),
        _("Stop at the gas station, the bank or the store when you need them. A stop ends that drive."),
        _("Read the cards you draw on the way: they can close bridges or change the roads."),
        _("When you leave, the tablet asks why. Pick your own reason."),
    ),
    end=_(
        "The game ends when everyone has arrived or 48 hours have passed. You score for the money "
        "you kept, where you stayed, arriving in time and arriving with at least half a tank."
    ),
)
