"""Project Stormfury's one-minute "how to play" card (see ``scenarios.kit.HowToPlay``)."""

from django.utils.translation import gettext_lazy as _

from scenarios.kit import HowToPlay

CARD = HowToPlay(
    goal=_(
        "Your table is one team of emergency managers on the Gulf coast. Work together so the "
        "hurricane does as little damage as possible."
    ),
    steps=(
        _("Pick a role. Each role has its own special power."),
        _("On your turn, use your cards to move, protect a city or a road, or move people out of the storm's way."),
        _("Trade cards with your team when it helps. If you hold too many, discard some."),
        _("Tap “End my turn”. When everyone has ended, the storm moves and hits what is in its way."),
    ),
    end=_("The game ends when the storm dies out or after the last turn. The less damage, the better your team did."),
)
