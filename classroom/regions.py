"""Where the class lives: the region a teacher sets on a session.

The games stay on the US Gulf coast; what a family takes home is their own region's: the number
they dial, how alerts reach them, the official sites they read, the units their kit is measured
in and the paper it is printed on. The family plan, the printables and the reports read a
session's region from here (``of(session)``), never from a scenario.

Every fact here is the region's own authorities' (each link is theirs): the US National Weather
Service and National Hurricane Center, FEMA's Ready.gov, the Dutch government's crisis.nl and
KNMI, Belgium's crisis centre and KMI, the governments of Bonaire, Saba, Sint Eustatius and Sint
Maarten, and the Meteorological Department of Sint Maarten. The comments beside a region name
the source of each of its facts.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scenarios import words


@dataclass(frozen=True)
class Link:
    """An official site: what it is for (a sentence a family reads) and its address."""

    label: object
    url: str
    hurricane: bool = False  #: about hurricanes only (left out of a tornado plan)
    #: O: the official site itself; S: a trustworthy report of an official's advice
    grade: str = "O"

    @property
    def shown(self) -> str:
        """The address as people type it: no scheme, no trailing slash."""
        return self.url.split("://", 1)[-1].rstrip("/")


@dataclass(frozen=True)
class Region:
    key: str
    name: object
    emergency: str  #: the number to dial when a life is in danger
    local_help: object  #: where to ask for shelters and help that is not an emergency
    alerts: tuple  #: how official warnings reach a family (sentences)
    tornado_alerts: tuple  #: how tornado warnings reach them (sentences)
    weather: tuple[Link, ...]  #: official forecasts and warnings
    prepare: tuple[Link, ...]  #: official advice on plans and kits
    zone: object  #: how to find out whether the home must be left (a sentence)
    units: str  #: "us" (gallons, feet) or "metric" (litres, metres)
    paper: str  #: "Letter" or "A4"
    hurricanes: bool  #: do hurricanes reach this region?
    season: object = ""  #: when to check the plan each year
    note: object = ""  #: what a region with no hurricanes keeps of the plan
    islands: bool = False  #: small islands: there is no "inland" to drive to
    #: drinking water per person per day in litres (for readers measuring in litres), and the
    #: region's own source for it (None: the Red Cross's gallon, about 4 litres)
    water_litres: int = 4
    water_source: Link | None = None


_US_ALERTS = (
    _("Wireless Emergency Alerts: the loud alert on every mobile phone; keep them switched on."),
    _("NOAA Weather Radio: a radio that sounds an alarm for warnings, even at night; keep batteries in it."),
    _("Local radio and television, and the county's own alerts (sign up on its website)."),
)
_US_TORNADO_ALERTS = (
    _(
        "A tornado warning reaches phones as a Wireless Emergency Alert and sounds on NOAA Weather "
        "Radio; outdoor sirens are for people outside, not a reason to wait indoors."
    ),
    _("The local National Weather Service office issues tornado watches and warnings: weather.gov."),
)
_US_WEATHER = (
    Link(
        _("Hurricane forecasts, watches and warnings (National Hurricane Center)"),
        "https://www.nhc.noaa.gov",
        hurricane=True,
    ),
    Link(_("Tornado, flood and storm warnings for your area (National Weather Service)"), "https://www.weather.gov"),
)
_US_PREPARE = (
    Link(_("Making a family plan and a kit (FEMA)"), "https://www.ready.gov/plan"),
    Link(_("The same advice in Spanish (FEMA)"), "https://www.listo.gov"),
    Link(
        _("Emergency kit list (American Red Cross)"),
        "https://www.redcross.org/get-help/how-to-prepare-for-emergencies/survival-kit-supplies.html",
    ),
)

REGIONS = {
    "us_gulf": Region(
        key="us_gulf",
        name=_("US Gulf coast"),
        emergency="911",
        local_help=_("211: shelters, transport out and other help (not for emergencies)."),
        alerts=_US_ALERTS,
        tornado_alerts=_US_TORNADO_ALERTS,
        weather=_US_WEATHER,
        prepare=_US_PREPARE,
        zone=_(
            "Look up your evacuation zone on your county's or parish's emergency-management website "
            '(search "know your zone" and your county).'
        ),
        units="us",
        paper="Letter",
        hurricanes=True,
        season=_("Hurricane season runs from June 1 to November 30: check the plan each May."),
    ),
    "us_atlantic": Region(
        key="us_atlantic",
        name=_("US Atlantic coast"),
        emergency="911",
        local_help=_("211: shelters, transport out and other help (not for emergencies)."),
        alerts=_US_ALERTS,
        tornado_alerts=_US_TORNADO_ALERTS,
        weather=_US_WEATHER,
        prepare=_US_PREPARE,
        zone=_(
            "Look up your evacuation zone on your county's emergency-management website (search "
            '"know your zone" and your county).'
        ),
        units="us",
        paper="Letter",
        hurricanes=True,
        season=_("Hurricane season runs from June 1 to November 30: check the plan each May."),
    ),
    "caribbean_nl": Region(
        key="caribbean_nl",
        name=_("Caribbean Netherlands / Sint Maarten"),
        emergency="911",
        # Sint Maarten: 911 reaches the police, 912 an ambulance, 919 the fire department (ENNIA's
        # hurricane handbook, "st. maarten" page; 919 also confirmed by the Fire Chief in The Daily
        # Herald). Bonaire, Saba and Sint Eustatius' other numbers are not listed: not verified.
        local_help=_(
            "Your island government's hurricane information line and shelters, announced on the radio and its "
            "website. On Sint Maarten 911 reaches the police: dial 912 for an ambulance and 919 for the fire "
            "department."
        ),
        # NL-Alert does not reach the islands: a BES variant was only being explored (Minister of
        # Justice and Security to parliament, reported by bonaire.nu, 15 March 2018). Bonaire's
        # government sends messages through its Disasterprep Bonaire app (bonaire.nu, 20 June
        # 2023); Sint Maarten's through SXMGOV 107.9 FM (Government of Sint Maarten, DCOMM).
        # KNMI issues the warnings for Bonaire, Saba and Sint Eustatius since 1 January 2016
        # (knmi.nl, Caribisch Nederland); the Meteorological Department of Sint Maarten (MDS)
        # issues Sint Maarten's (DCOMM, 20 October 2023), and both announce them in English.
        # Saba's island government updates the public on social media and by mass e-mail (its
        # message before Hurricane Danny, saba-news.com, 22 August 2015); Sint Eustatius' asks
        # residents to listen to the radio and follow the Statia Government Facebook page (its
        # crisis manager, statiagovernment.com, 3 June 2024).
        alerts=(
            _(
                "Bonaire: the Disasterprep Bonaire app, through which the island government sends "
                "important messages. Sint Maarten: the government radio, SXMGOV 107.9 FM. Saba: the "
                "island government's messages on social media and by e-mail. Sint Eustatius: the "
                "radio and the Statia Government Facebook page."
            ),
            _("The island government's radio, website and social media: they announce the shelters and what to do."),
            _(
                "The weather service's watches and warnings, often announced in English (\"hurricane "
                'watch", "hurricane warning"): KNMI for Bonaire, Saba and Sint Eustatius; the '
                "Meteorological Department of Sint Maarten for Sint Maarten."
            ),
        ),
        tornado_alerts=(
            _(
                "Tornadoes are rare on the islands, but waterspouts and squalls come with storms: "
                "when the weather service warns of severe weather, go inside at once."
            ),
        ),
        weather=(
            Link(
                _("Warnings for Bonaire, Saba and Sint Eustatius (KNMI)"),
                "https://www.knmi.nl/nederland-nu/weer/waarschuwingen-en-verwachtingen/caribisch-nederland",
            ),
            Link(
                _("Warnings for Sint Maarten (Meteorological Department of Sint Maarten)"), "https://www.meteosxm.com"
            ),
            Link(
                _("Hurricane forecasts for the whole Atlantic (US National Hurricane Center)"),
                "https://www.nhc.noaa.gov",
                hurricane=True,
            ),
        ),
        prepare=(
            Link(_("Bonaire's hurricane advice (Openbaar Lichaam Bonaire)"), "https://www.bonairecrisis.com"),
            Link(
                _("Sint Maarten's hurricane advice (Government of Sint Maarten)"),
                "https://www.sintmaartengov.org/hurricane",
            ),
            Link(
                _("News and help from the Dutch government on the islands (Rijksdienst Caribisch Nederland)"),
                "https://www.rijksdienstcn.com",
            ),
        ),
        zone=_(
            "Ask your island government whether your home is in a storm-surge or flood zone, and "
            "which shelter is yours: they are announced before each storm."
        ),
        units="metric",
        paper="A4",
        hurricanes=True,
        season=_("Hurricane season runs from 1 June to 30 November: check the plan each May."),
        islands=True,
        # Bonaire's island government (OLB) advises bottles of drinking water, 3 litres per person
        # per day, in its hurricane tips as the Bonaire Chamber of Commerce passes them on
        # ("Prepare your business in time for a possible storm", bonairechamber.com, 13 July),
        # pointing to bonairecrisis.com: a report of the official advice, so grade S.
        water_litres=3,
        water_source=Link(
            _("Bonaire's advice on drinking water, 3 litres per person per day (Bonaire Chamber of Commerce)"),
            "https://bonairechamber.com/en/news/prepare-your-business-in-time-for-a-possible-storm/",
            grade="S",
        ),
    ),
    "nl_be": Region(
        key="nl_be",
        name=_("Netherlands / Belgium"),
        emergency="112",
        # 0900-8844: the Dutch police for what is not urgent (politie.nl, as reported by Rijnmond,
        # 2019). 1722 (and 1722.be): switched on by Belgium's Interior Ministry when a storm or
        # flood is forecast, for fire-brigade help when no life is in danger (sos112.be, "Niet
        # dringend"). BE-Alert reaches those who sign up at be-alert.be (Belgian crisis centre).
        local_help=_(
            "When it is not an emergency: the police on 0900-8844 (Netherlands); when a "
            "storm or flood is forecast, the fire brigade on 1722 or at 1722.be (Belgium)."
        ),
        alerts=(
            _(
                "NL-Alert (Netherlands) or BE-Alert (Belgium, sign up at be-alert.be): a message on "
                "your phone when there is danger nearby."
            ),
            _("Weather warnings in code yellow, orange and red: KNMI (Netherlands), KMI (Belgium)."),
            _("Regional radio and television, which the authorities use in an emergency."),
        ),
        tornado_alerts=(
            _(
                "Tornadoes are rare here but do happen, with severe thunderstorms: at code orange or "
                "red for thunderstorms or wind, stay indoors, away from windows."
            ),
        ),
        weather=(
            Link(
                _("Weather warnings for the Netherlands (KNMI)"), "https://www.knmi.nl/nederland-nu/weer/waarschuwingen"
            ),
            Link(_("Weather warnings for Belgium (KMI)"), "https://www.meteo.be"),
        ),
        prepare=(
            Link(_("Preparing for an emergency (Dutch government)"), "https://www.crisis.nl"),
            Link(_("Is your home at risk of flooding? (Netherlands)"), "https://www.overstroomik.nl"),
            Link(_("Risks and what to do (Belgian crisis centre)"), "https://www.risico-info.be"),
        ),
        zone=_(
            "Look up whether your home could flood, and how deep (overstroomik.nl in the "
            "Netherlands, waterinfo.be in Belgium); in an emergency the authorities say whether "
            "to leave or stay in."
        ),
        units="metric",
        paper="A4",
        hurricanes=False,
        water_litres=3,
        note=_(
            "Hurricanes do not reach the Netherlands or Belgium. Heavy storms, floods and the "
            "occasional tornado do: the parts of this plan about alerts, staying in, meeting up, "
            "the kit and after a storm still apply."
        ),
    ),
}

DEFAULT = "us_gulf"


def choices() -> list[tuple[str, object]]:
    return [(key, region.name) for key, region in REGIONS.items()]


def get(key: str | None) -> Region:
    """The region of that key; the default region for a key no longer offered."""
    return REGIONS.get(key or DEFAULT, REGIONS[DEFAULT])


def weather_for(region: Region, hazard: str) -> list[Link]:
    """The region's official forecast and warning sites for a plan about ``hazard``: a tornado
    plan names where tornado warnings come from, not the hurricane center."""
    return [link for link in region.weather if hazard == "hurricane" or not link.hurricane]


def of(session) -> Region:
    return get(getattr(session, "region", None))


def units_for(region: Region, language: str) -> str:
    """Dutch readers measure in litres and metres wherever they live; others in their region's units."""
    return "metric" if language.startswith("nl") else region.units


def quantities(region: Region, language: str) -> dict:
    """The amounts a plan names, in the reader's units and number style, for ``%(name)s``
    placeholders: water per person per day, the depth of moving water that knocks an adult over,
    floats a small car, carries off most cars; a safe distance for a generator. The figures are
    the sources' (Ready.gov and the Red Cross, or the Dutch government, for water; the National
    Weather Service's "Turn Around Don't Drown" for water depths; the CDC for the generator),
    rounded the way each unit system says them."""
    n = words.number
    if units_for(region, language) == "metric":
        # The Dutch government's kit advice is 3 litres a day, and so is Bonaire's; the Red
        # Cross's gallon is about 4.
        litres = region.water_litres
        return {
            "water_per_day": gettext("%(n)s litres") % {"n": n(litres)},
            "water_knocks_over": gettext("%(n)s centimetres") % {"n": n(15)},
            "water_floats_car": gettext("%(n)s centimetres") % {"n": n(30)},
            "water_carries_suv": gettext("%(n)s centimetres") % {"n": n(60)},
            "generator_distance": gettext("%(n)s metres") % {"n": n(6)},
        }
    return {
        "water_per_day": gettext("1 gallon"),
        "water_knocks_over": gettext("%(n)s inches") % {"n": n(6)},
        "water_floats_car": gettext("1 foot (12 inches)"),
        "water_carries_suv": gettext("%(n)s feet") % {"n": n(2)},
        "generator_distance": gettext("%(n)s feet") % {"n": n(20)},
    }


def fill(text, amounts: dict) -> str:
    """A plan sentence with its amounts filled in (a sentence with none is left as it is)."""
    text = str(text)
    return text % amounts if "%(" in text else text
