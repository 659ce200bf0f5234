"""Bermuda Triangle as the classroom sees it: each student runs a fleet; no class-wide step."""

from django.utils.translation import gettext_lazy as _

from scenarios.registry import Scenario

SCENARIO = Scenario(
    key="bermuda",
    name=_("Bermuda Triangle — sail freight while a storm roams the sea"),
    blurb=_(
        "Each student runs a fleet of four ships between Miami, Bermuda and the Caribbean, "
        "reading the storm's cone to keep out of its way."
    ),
    seats=(2, 4),
    age_band="10+",
    languages=("en", "es", "nl"),
    facts=("forecast-cone", "track-errors-shrinking"),
)
