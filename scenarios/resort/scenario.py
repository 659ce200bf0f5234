"""Hurricane (the resort game) as the classroom sees it."""
from django.utils.translation import gettext_lazy as _

from scenarios.registry import Scenario

SCENARIO = Scenario(
    key="resort",
    name=_("Hurricane — run a coastal resort through a real storm"),
    blurb=_("Buy resorts and preparedness options, sail your yacht, and plot a real hurricane's track by latitude and longitude."),
    seats=(2, 4),
    age_band="10+",
    languages=("en", "es", "nl"),
    facts=("saffir-simpson", "mitigation-pays", "charley-building-code", "fortified-roofs-sally",
           "what-kills-1963-2012", "forecast-cone", "track-errors-shrinking", "kit-three-days", "cat4-damage"),
)
