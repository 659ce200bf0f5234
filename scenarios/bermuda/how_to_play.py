"""Bermuda Triangle's one-minute "how to play" card (see ``scenarios.kit.HowToPlay``)."""

from django.utils.translation import gettext_lazy as _

from scenarios.kit import HowToPlay

CARD = HowToPlay(
    goal=_(
        "You run a fleet of four ships. Carry freight between the ports and keep your ships out of the storm's way."
    ),
    steps=(
        _("On your turn, pick one ship and the space it sails to. Each move says if it ends in the cone."),
        _("A ship that docks in a port delivers its freight and picks up more."),
        _("After the moves, a spinner moves the storm cloud. The cone shows everywhere it could go."),
        _("A ship caught by the cloud loses the freight it carries."),
    ),
    end=_("The game ends when someone has enough freight or after the last round. The most freight wins."),
)
