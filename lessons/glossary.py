"""Key vocabulary for the guides: each term once, with a definition a 10-year-old can read.

A scenario's guide lists the keys of the terms its students meet (``Guide.vocabulary``); the
guide page and PDF print them in the reader's language. Watches and warnings are defined as the
US National Weather Service's glossary defines them (weather.gov/glossary), in plain words; each
language uses one term for a watch and one for a warning, everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Term:
    word: object
    meaning: object


TERMS = {
    "hurricane_watch": Term(
        _("Hurricane watch"), _("Hurricane winds are possible here, usually within 48 hours. Time to get ready.")
    ),
    "hurricane_warning": Term(
        _("Hurricane warning"),
        _(
            "Hurricane winds are expected here, usually "
            "within 36 hours. Finish getting ready, and "
            "leave if you are told to."
        ),
    ),
    "storm_surge": Term(
        _("Storm surge"),
        _("Sea water that a storm's winds push onto the land: the most dangerous part of a hurricane at the coast."),
    ),
    "forecast_cone": Term(
        _("Forecast cone"),
        _(
            "The area where the center of the storm will probably "
            "go: it stays inside about two times in three. Wind "
            "and rain reach far outside it."
        ),
    ),
    "evacuation_zone": Term(
        _("Evacuation zone"),
        _("An area that officials may tell to leave before a storm, mostly because of surge or flooding."),
    ),
    "shelter_in_place": Term(
        _("Shelter in place"), _("Stay where you are, in the safest room, when you are not told to leave.")
    ),
    "category": Term(
        _("Category"),
        _("A hurricane's rank from 1 to 5, by its strongest steady wind. A higher category does more damage."),
    ),
    "landfall": Term(_("Landfall"), _("The moment the center of a storm crosses the coast.")),
    "contraflow": Term(_("Contraflow"), _("Making every lane of a highway carry traffic away from the coast.")),
    "mitigation": Term(
        _("Mitigation"),
        _("Work done before a disaster to make its damage smaller, such as stronger roofs or shutters."),
    ),
    "insurance": Term(
        _("Insurance"),
        _("Paying a company a little every year so that it pays for a big loss. Flood damage needs its own policy."),
    ),
    "tornado_watch": Term(_("Tornado watch"), _("Tornadoes are possible nearby. Know where you would shelter.")),
    "tornado_warning": Term(
        _("Tornado warning"), _("A tornado has been seen or shows on radar. Go to your shelter now.")
    ),
    "flying_debris": Term(
        _("Flying debris"),
        _("Pieces of buildings, trees and cars that the wind throws. They cause most tornado injuries."),
    ),
    "latitude_longitude": Term(
        _("Latitude and longitude"),
        _("Two numbers that say how far north or south (latitude) and east or west (longitude) a place is."),
    ),
    "average": Term(_("Average (mean)"), _("Add up the values, then divide by how many there are.")),
    "probability": Term(_("Probability"), _("How likely something is, from 0 (never) to 1 (always).")),
    "knot": Term(_("Knot"), _("A speed at sea: one nautical mile an hour.")),
}


def terms(keys) -> list[Term]:
    """The terms of those keys, in that order (a key not in the glossary is an error)."""
    return [TERMS[key] for key in keys]
