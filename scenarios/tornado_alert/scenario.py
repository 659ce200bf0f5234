"""Tornado Alert! as the classroom sees it."""

from django.utils.translation import gettext_lazy as _

from scenarios.registry import Scenario

SCENARIO = Scenario(
    key="tornado_alert",
    name=_("Tornado Alert!"),
    blurb=_(
        "A real-time slap game: the best storm photos come from the most dangerous places. Would you take that photo?"
    ),
    seats=(2, 6),
    age_band="10+",
    languages=("en", "es", "nl"),
)
