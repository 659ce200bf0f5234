"""Hurricane (the resort game)'s one-minute "how to play" card (see ``scenarios.kit.HowToPlay``)."""

from django.utils.translation import gettext_lazy as _

from scenarios.kit import HowToPlay

CARD = HowToPlay(
    goal=_("You own resorts by the sea during one hurricane season. End the season worth the most."),
    steps=(
        _("On your turn, roll the die and sail your yacht around the board."),
        _(
            "Land on a resort to buy it. Buy options too: a seawall or insurance protects the resort, a "
            "hurricane kit and a plan keep its guests safe."
        ),
        _(
            "When it is your turn to watch the storm, plot where it is: tap its latitude, then its longitude. "
            "An exact spot pays."
        ),
        _("The storm damages resorts near its path. Resorts that were prepared lose less."),
    ),
    end=_("The season ends after the last round. The owner worth the most, in money and resorts, wins."),
)
