"""Tornado Alert!'s one-minute "how to play" card (see ``scenarios.kit.HowToPlay``)."""

from django.utils.translation import gettext_lazy as _

from scenarios.kit import HowToPlay

CARD = HowToPlay(
    goal=_(
        "You are storm photographers. Each card is a photo of a tornado and the place it was "
        "taken from. The higher the number, the better the photo and the more dangerous the place."
    ),
    steps=(
        _("On your turn, lay one card from your hand on the pile."),
        _("Slap the pile to take its top cards for your own stack. The number on the top card says how many."),
        _("You may not slap your own card. If slaps come close together, a fair draw picks the winner."),
        _("At the end of each round your stack's average is your score for the round."),
    ),
    end=_("There are three rounds. Your worst round counts, so do not take every risk. The best worst round wins."),
)
