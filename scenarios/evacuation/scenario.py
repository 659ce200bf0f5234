"""Hurricane Approaching! as the classroom sees it: its name, its seats and how it is played."""

from django.utils.translation import gettext_lazy as _

from scenarios.registry import Scenario

SCENARIO = Scenario(
    key="evacuation",
    name=_("Hurricane Approaching! — evacuate the peninsula"),
    blurb=_("Each household decides when to leave, where to go and what to take, on its own 48-hour clock."),
    seats=(2, 6),
    age_band="10+",
    languages=("en", "es", "nl"),
)
