"""Race to the shelter as the classroom sees it."""

from django.utils.translation import gettext_lazy as _

from scenarios.registry import Scenario

SCENARIO = Scenario(
    key="shelter_race",
    name=_("Race to the shelter (test scenario)"),
    blurb=_("Run for the shelter or pack one more supply: the storm comes after a few rounds."),
    seats=(2, 4),
    age_band="10+",
    languages=("en",),
    facts=("when-households-leave-ike", "watch-warning-lead-times", "water-per-day"),
)
