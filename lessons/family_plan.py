"""What every family plan carries besides the lines drawn from the student's game: the checklist
of a household plan (Ready.gov's "Make a plan" and the American Red Cross kit list, held against
the Dutch government's "Denk vooruit" advice for the Netherlands and Belgium), in the session
region's words: its alert channels, its evacuation-zone or flood-risk advice, its units.

``SECTIONS`` names the checklist (a test holds every plan to it). Each section has a title,
sentences (amounts filled in the reader's units), lines to fill in at home, and the official
sources of its advice with their grade. A scenario's kit says which hazard its plan prepares
for (``Kit.hazard``): a tornado plan carries tornado alerts and the advice for mobile homes.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from classroom import regions
from classroom.regions import Link

#: the checklist every plan carries, in order
SECTIONS = ("alerts", "leave_or_stay", "meet", "health", "pets", "documents", "kit", "after", "practice")

READY_PLAN = Link(_("FEMA, Make a plan"), "https://www.ready.gov/plan")
RED_CROSS_KIT = Link(
    _("American Red Cross, Survival kit supplies"),
    "https://www.redcross.org/get-help/how-to-prepare-for-emergencies/survival-kit-supplies.html",
)
DENK_VOORUIT = Link(_("Dutch government, Denk vooruit: emergency kit"), "https://www.denkvooruit.nl")
NWS_FLOOD = Link(
    _("National Weather Service, Turn Around Don't Drown"),
    "https://www.weather.gov/safety/flood-turn-around-dont-drown",
)
CDC_CO = Link(_("CDC, Carbon monoxide poisoning"), "https://www.cdc.gov/carbon-monoxide/")
NWS_TORNADO = Link(_("National Weather Service, Tornado safety"), "https://www.weather.gov/safety/tornado")
READY_KIT = Link(_("FEMA, Build a kit"), "https://www.ready.gov/kit")
READY_PETS = Link(_("FEMA, Prepare your pets"), "https://www.ready.gov/pets")
READY_POWER = Link(_("FEMA, Power outages"), "https://www.ready.gov/power-outages")
FLOODSMART = Link(_("FEMA, flood insurance"), "https://www.floodsmart.gov")
READY_DISABILITY = Link(_("FEMA, People with disabilities"), "https://www.ready.gov/disability")

#: what a source's grade means, for families (the same letters as the facts')
GRADES = (
    ("O", _("checked against an official or peer-reviewed source, such as the agency's own page.")),
    ("S", _("a trustworthy report of official figures, not the original.")),
    ("U", _("not checked again: shown to teachers only, never on a student's plan.")),
)


#: the game's plan lines (by ``PlanLine.key``) that a region hurricanes do not reach says its own
#: way: no hurricane warning, no shutters, no "inland" (crisis.nl's advice for a severe storm)
_NO_HURRICANES = {
    "watch": _(
        "Follow the weather warnings (code yellow, orange and red) and NL-Alert or BE-Alert from the first "
        "warning: a storm's winds reach far."
    ),
    "when": _(
        "If the authorities tell us to leave, for example because of a flood, we leave at once. If not, we stay "
        "indoors and close windows and doors."
    ),
    "where": _(
        "If the authorities tell us to leave: to family or friends outside the danger area, on higher ground "
        "if there is a flood. Whose home, and the route there:"
    ),
    "home": _(
        "Before a severe storm: bring in or tie down garden furniture and other loose things, and close "
        "windows and doors."
    ),
}
#: on small islands (Saba, Sint Eustatius) there is no "inland" to drive to
_ISLANDS = {
    "where": _(
        "If officials tell our area to leave: to family or friends in a sturdy home on higher ground, away "
        "from the sea, or to a shelter the island government opens (when there is nowhere else). Whose home, and the "
        "road there:"
    ),
}


def regional_line(key: str, region, hazard: str):
    """What a hurricane plan's game line ``key`` says in ``region`` instead (``None``: the game's
    line as it is): where hurricanes do not come, nothing about hurricane warnings, shutters or
    shelters; on islands, no "inland"."""
    if hazard != "hurricane":
        return None
    if not region.hurricanes:
        return _NO_HURRICANES.get(key)
    if region.islands:
        return _ISLANDS.get(key)
    return None


def _kit_advice(region) -> str:
    return "denk_vooruit" if region.key == "nl_be" else "red_cross"


def sections(hazard: str, region, amounts: dict) -> list[dict]:
    """The checklist's sections for a plan about ``hazard`` in ``region``, amounts written as
    ``amounts`` (``regions.quantities``) says."""
    tornado = hazard == "tornado"

    def fill(text):
        return regions.fill(text, amounts)

    alerts = list(region.tornado_alerts) + list(region.alerts) if tornado else list(region.alerts)
    out = [
        {
            "key": "alerts",
            "title": _("How we get alerts"),
            "lines": alerts,
            "blanks": [_("Phones with emergency alerts switched on (whose):")],
            "sources": regions.weather_for(region, hazard),
        }
    ]

    if tornado:
        stay = [
            _("At a tornado watch: check where we would shelter, and keep shoes and a phone close."),
            _(
                "At a tornado warning: go at once to the lowest floor, into a small room in the middle of "
                "the building with no windows, and cover our heads. Do not wait to see the tornado."
            ),
            _(
                "A mobile home is not safe in a tornado, even tied down: at the watch, go to a sturdy "
                "building or a storm shelter nearby."
            ),
        ]
        blanks = [_("Our shelter room at home:"), _("If we live in a mobile home, the sturdy building we go to:")]
        out.append(
            {
                "key": "leave_or_stay",
                "title": _("Where we shelter"),
                "lines": stay,
                "blanks": blanks,
                "sources": [NWS_TORNADO],
            }
        )
    else:
        stay = [region.zone]
        if region.hurricanes:
            stay += [
                _(
                    "If officials tell our zone to leave, we leave at once, as early as we can, to family or "
                    "friends in a sturdy home on higher ground, away from the sea."
                )
                if region.islands
                else _(
                    "If officials tell our zone to leave, we leave at once, as early as we can, to family or "
                    "friends inland if possible."
                ),
                _(
                    "If we are not told to leave, we shelter in place: stay home, in a room away from "
                    "windows, with the kit, and follow the alerts until officials say the danger is over."
                ),
            ]
        else:
            stay = [
                region.note,
                region.zone,
                _(
                    "If we are not told to leave, we shelter in place: stay home, in a room away from "
                    "windows, with the kit, and follow the alerts until officials say the danger is over."
                ),
            ]
        out.append(
            {
                "key": "leave_or_stay",
                "title": _("Leave or stay: our zone"),
                "lines": stay,
                "blanks": [_("Our zone, or our home's flood risk:"), _("Where we would go if told to leave:")],
                "sources": [READY_PLAN] + list(region.prepare[:1]),
            }
        )

    out.append(
        {
            "key": "meet",
            "title": _("Where we meet, and who picks up"),
            "lines": [
                _("Choose three meeting places, and make sure everyone knows them."),
                _(
                    "A contact card in every bag and wallet: each of our numbers, our out-of-area contact and "
                    "the emergency number. Text, don't call: a text gets through when the lines are busy."
                ),
            ],
            "blanks": [
                _("1. Just outside our home (for a sudden danger such as a fire):"),
                _("2. In our neighborhood, if we cannot get home:"),
                _("3. Out of town, if we must leave the area:"),
                _("Our phone numbers, for the contact cards:"),
                _("Our out-of-area contact (ICE), whom everyone texts or calls, and their number:"),
                _("School pick-up: who collects the children if we cannot, and what the school's plan says:"),
            ],
            "sources": [READY_PLAN],
        }
    )
    out.append(
        {
            "key": "health",
            "title": _("Health, disability and medicines"),
            "lines": [
                _("Medicines for at least seven days, and a list of each medicine and its dose."),
                _(
                    "Glasses, hearing aids and their batteries, and a way to power medical equipment if the power is out."
                ),
                _(
                    "If someone in the family needs help to leave or to get warnings, tell the local "
                    "emergency-management office before the season."
                ),
                _(
                    "Write down special food needs, the languages each of us speaks and any service animal: "
                    "helpers and shelters can then plan for them."
                ),
            ],
            "blanks": [
                _("Our medicines, needs and who helps:"),
                _("Food needs and allergies, the languages we speak, a service animal:"),
            ],
            "sources": [RED_CROSS_KIT, READY_DISABILITY],
        }
    )
    out.append(
        {
            "key": "pets",
            "title": _("Pets"),
            "lines": [
                _(
                    "Pets come with us: a carrier or leash, food, water, medicine, vaccination papers and a recent photo."
                ),
                _("Not every shelter or hotel takes pets: find one that does before a storm."),
            ],
            "blanks": [_("Where our pets can stay:")],
            "sources": [READY_PETS],
        }
    )
    documents = [
        _(
            "Copies of ID, insurance policies, medical and bank papers in a waterproof bag, and photos "
            "of them on a phone."
        )
    ]
    doc_sources = [READY_PLAN]
    if region.units == "us":
        documents.append(
            _(
                "Ordinary home insurance does not pay for flood damage. Ask whether we need flood "
                "insurance: a new policy usually starts only 30 days after it is bought."
            )
        )
        doc_sources.append(FLOODSMART)
    else:
        documents.append(_("Check what our home insurance pays for storm and flood damage."))
    out.append(
        {
            "key": "documents",
            "title": _("Documents and insurance"),
            "lines": documents,
            "blanks": [_("Where we keep the copies:")],
            "sources": doc_sources,
        }
    )

    if _kit_advice(region) == "denk_vooruit":
        kit = [
            _("An emergency kit for at least 72 hours at home, and a smaller bag if we must leave."),
            _("Water: %(water_per_day)s per person per day."),
        ]
        kit_sources = [DENK_VOORUIT]
    else:
        kit = [
            _("A go-kit with supplies for 3 days if we leave; supplies for 2 weeks if we stay home."),
            _("Water: %(water_per_day)s per person per day."),
        ]
        kit_sources = [RED_CROSS_KIT]
    if region.water_source is not None:  # the region's own word on water (e.g. Bonaire's 3 litres)
        kit_sources.append(region.water_source)
    kit.append(
        _(
            "Food that keeps and a can opener; a flashlight; a battery or wind-up radio; spare batteries; "
            "a first-aid kit; medicines; soap, wipes and other hygiene items; phone chargers; some cash; "
            "copies of documents; what babies and pets need."
        )
    )
    kit.append(
        _(
            "Also: a whistle to call for help, dust masks, a multi-tool, an emergency blanket, a paper map "
            "of the area, spare house and car keys, and books or games for the children."
        )
    )
    kit_sources.append(READY_KIT)
    if tornado:
        kit.append(_("Sturdy shoes and something to protect our heads, such as bike helmets, in the shelter room."))
    out.append(
        {
            "key": "kit",
            "title": _("Our kit"),
            "lines": [fill(t) for t in kit],
            "blanks": [_("Who packs it, and where it is kept:")],
            "sources": kit_sources,
        }
    )

    out.append(
        {
            "key": "after",
            "title": _("After the storm"),
            "lines": [
                fill(t)
                for t in (
                    _(
                        "Run a generator only outdoors, at least %(generator_distance)s from doors and windows: its fumes "
                        "(carbon monoxide) can kill, and you cannot smell them."
                    ),
                    _(
                        "Never walk or drive into flood water: %(water_knocks_over)s of moving water can knock an adult down, "
                        "%(water_floats_car)s can float a small car, and %(water_carries_suv)s can carry off most cars."
                    ),
                    _("Stay away from fallen power lines and anything touching them, and report them."),
                    _("Go home only when officials say it is safe; wear sturdy shoes and gloves when cleaning up."),
                )
            ],
            "blanks": [],
            "sources": [CDC_CO, NWS_FLOOD, READY_POWER],
        }
    )

    practice = [_("Go through this plan together and walk to the meeting places.")]
    if region.hurricanes and not tornado:
        practice.append(region.season)
    else:
        practice.append(_("Check the plan and the kit once a year, and when the family changes."))
    out.append(
        {
            "key": "practice",
            "title": _("Practice"),
            "lines": practice,
            "blanks": [_("The date we practice this plan:")],
            "sources": [READY_PLAN],
        }
    )
    for section in out:  # one mention of each site per section
        section["sources"] = list({link.url: link for link in section["sources"]}.values())
    return out
