"""Hurricane (the resort game) as the classroom sees it."""

from django.utils.translation import gettext_lazy as _

from scenarios.registry import Scenario
from scenarios.resort.rules import PROGRAMS


def storm_label(program: dict) -> str:
    """A real storm as the teacher picks it: its name and year, "Katrina (2005)" (the same proper
    name in every language)."""
    return f"{program['name']} ({program['year']})"


#: the storm option's choices: each real storm by name and year, or a surprise
STORM_LABELS = {
    "surprise": _("Surprise me: a real storm drawn at random"),
    **{key: storm_label(program) for key, program in PROGRAMS.items()},
}


def card_subtitle(options: dict, summary: dict | None):
    """The storm on a table's dashboard card. The teacher chose it, so a real storm is named from
    the start; a surprise stays "a surprise storm" until the table has played it out (the teacher
    reads the card aloud, and the storm's name would give its track away), then is named."""
    choice = options.get("storm", "surprise")
    if choice != "surprise":
        return STORM_LABELS.get(choice)
    drawn = summary and summary.get("view") and summary["view"].get("program", {}).get("storm")
    return storm_label(drawn) if drawn else _("a surprise storm")


SCENARIO = Scenario(
    key="resort",
    name=_("Hurricane — run a coastal resort through a real storm"),
    blurb=_(
        "Buy resorts and preparedness options, sail your yacht, and plot a real hurricane's track by latitude and longitude."
    ),
    seats=(2, 4),
    age_band="10+",
    languages=("en", "es", "nl"),
    facts=(
        "saffir-simpson",
        "mitigation-pays",
        "charley-building-code",
        "fortified-roofs-sally",
        "what-kills-1963-2012",
        "forecast-cone",
        "track-errors-shrinking",
        "kit-three-days",
        "cat4-damage",
    ),
    choice_labels={"storm": STORM_LABELS},
    card_subtitle_hook=card_subtitle,
)
