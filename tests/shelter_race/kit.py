"""Race to the shelter's lesson kit: the smallest complete kit (``scenarios.kit.Kit``)."""

from django.utils.translation import gettext_lazy as _

from scenarios.kit import Aim, DebriefPhase, Guide, Kit, PlanLine, Printable, Step

KIT = Kit(
    guide=Guide(
        objectives=(Aim(_("Say when to leave for the shelter.")),),
        standards=((_("NGSS MS-ESS3-2"), _("Forecasting natural hazards."), _("Students act on a warning.")),),
        steps=(
            Step(5, _("Join"), _('"Type the code."')),
            Step(25, _("Play"), _('"Run or pack?"')),
            Step(10, _("Debrief"), _('"Who made it?"')),
            Step(5, _("Check and plan"), _('"Answer again."')),
        ),
        questions=(_("Who packed one supply too many?"),),
        fallback=(_("Play on paper with a die."),),
        vocabulary=("hurricane_warning", "shelter_in_place"),
        debrief=(
            DebriefPhase("reactions", _('"One word for the race."')),
            DebriefPhase("what_happened", _('"Who reached the shelter?"'), _("the arrivals")),
            DebriefPhase("why", _('"What slowed you down?"'), older=_('"What slowed you down, and who chose it?"')),
            DebriefPhase("differently", _('"What would you pack next time?"')),
            DebriefPhase(
                "real_world",
                _('"Where is your nearest shelter?"'),
                older=_('"Where is your nearest shelter, and how long is the walk?"'),
            ),
        ),
    ),
    printables=(Printable("track", _("The track"), "kit_track.html", ("track",)),),
    plan=(
        PlanLine(
            "where",
            _("Where we would go"),
            column="safe",
            values={"True": _("To the shelter, as in your game.")},
            otherwise=_("Choose a safe place now."),
        ),
    ),
    plan_facts=("water-per-day",),
)
