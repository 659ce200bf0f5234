"""Every family plan, for every scenario, region and language, carries the household checklist
(alerts, leave or stay, three meeting places and school pick-up, health needs, pets, documents
and insurance, the kit with its quantities, after-storm safety, a practice date), the region's
emergency number, official sites and units, and says what a grade means. Tornado plans carry
tornado alerts and the mobile-home advice; a region with no hurricanes says so."""

import html
import io
import re

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from classroom import regions
from lessons import family_plan
from scenarios import registry
from tests.factories import PASSWORD, make_session, make_teacher

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "es", "nl")
#: words that give away US units, per language (a metric plan has none of them)
US_UNITS = {
    "en": ("gallon", "feet", "foot", "inches"),
    "es": ("galón", "pies", "pulgadas"),
    "nl": ("gallon", "voet", "inch"),
}
METRIC = {"en": "litres", "es": "litros", "nl": "liter"}


@pytest.fixture
def teacher(client):
    teacher = make_teacher()
    client.login(email=teacher.email, password=PASSWORD)
    return teacher


def _words(page: str) -> str:
    return " ".join(html.unescape(page).split())


@pytest.mark.parametrize("scenario", registry.keys())
@pytest.mark.parametrize("region_key", list(regions.REGIONS))
def test_every_plan_holds_the_checklist_in_three_languages(client, teacher, scenario, region_key):
    session = make_session(teacher=teacher, scenario=scenario, region=region_key)
    region = regions.get(region_key)
    hazard = registry.get(scenario).kit.hazard
    for language in LANGUAGES:
        page = _words(
            client.get(
                reverse("lessons:plan_sample", args=[session.pk]), HTTP_ACCEPT_LANGUAGE=language
            ).content.decode()
        )
        with translation.override(language):
            amounts = regions.quantities(region, language)
            sections = family_plan.sections(hazard, region, amounts)
            assert [s["key"] for s in sections] == list(family_plan.SECTIONS)
            for section in sections:
                assert f'id="plan-{section["key"]}"' in page, (language, section["key"])
                for line in [*section["lines"], *section["blanks"]]:
                    assert " ".join(str(line).split()) in page, (language, section["key"], str(line))
            # the region's number, its official sites, and the reader's units
            number = str(translation.gettext("Emergency: %(number)s") % {"number": region.emergency})
            assert number in page, language
            for link in (*regions.weather_for(region, hazard), *region.prepare):
                assert link.shown in page, (language, link.url)
            if hazard == "tornado":
                assert "nhc.noaa.gov" not in page  # tornado warnings come from the weather service
            assert amounts["water_per_day"] in page and amounts["generator_distance"] in page
            if regions.units_for(region, language) == "metric":
                assert METRIC[language] in page
                assert [w for w in US_UNITS[language] if f" {w}" in page] == [], language
            else:
                assert "911" in page
            if not region.hurricanes and hazard == "hurricane":
                assert " ".join(str(region.note).split()) in page
            assert 'id="plan-grades"' in page


def test_a_tornado_plan_carries_tornado_alerts_and_the_mobile_home_advice(client, teacher):
    session = make_session(
        teacher=teacher, scenario=next(k for k in registry.keys() if registry.get(k).kit.hazard == "tornado")
    )
    page = _words(client.get(reverse("lessons:plan_sample", args=[session.pk])).content.decode())
    assert "A mobile home is not safe in a tornado" in page
    assert "At a tornado warning: go at once to the lowest floor" in page
    assert "weather.gov" in page and "Tornado safety" in page
    assert "Hurricane season runs" not in page


def test_a_hurricane_plan_says_what_to_do_when_not_told_to_leave(client, teacher):
    session = make_session(teacher=teacher, scenario="evacuation")
    page = _words(client.get(reverse("lessons:plan_sample", args=[session.pk])).content.decode())
    assert "If we are not told to leave, we shelter in place" in page
    assert "Look up your evacuation zone" in page
    assert "1. Just outside our home" in page and "3. Out of town" in page and "School pick-up" in page
    assert "Run a generator only outdoors, at least 20 feet" in page
    assert "6 inches of moving water can knock an adult down" in page
    assert "fallen power lines" in page
    assert "supplies for 3 days if we leave; supplies for 2 weeks if we stay home" in page
    assert "Water: 1 gallon per person per day." in page


def test_a_region_with_no_hurricanes_says_so_and_keeps_its_own_advice(client, teacher):
    session = make_session(teacher=teacher, scenario="stormfury", region="nl_be")
    page = _words(
        client.get(reverse("lessons:plan_sample", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    )
    assert "Orkanen bereiken Nederland en België niet" in page
    assert "Alarmnummer: 112" in page and "911" not in page
    assert "NL-Alert" in page and "overstroomik.nl" in page
    assert "Water: 3 liter per persoon per dag." in page  # the Dutch government's advice, not the gallon


def test_the_plan_pdf_is_printed_on_the_regions_paper(teacher):
    from lessons import printing, services

    session = make_session(teacher=teacher)
    for region_key, width in (("us_gulf", 612), ("caribbean_nl", 595)):  # Letter 8.5 in, A4 210 mm, in points
        services.set_region(session=session, region=region_key)
        pdf = printing.plan_pdf(services.family_plan_blank(session))
        page = PdfReader(io.BytesIO(pdf)).pages[0]
        assert round(float(page.mediabox.width)) == width, region_key


def test_the_teacher_sets_the_region_on_the_new_session_form_and_can_change_it(client, teacher):
    response = client.post(
        reverse("classroom:session_new"),
        {
            "scenario": "evacuation",
            "seats_per_table": 4,
            "turn_seconds": 60,
            "names": "approve",
            "max_participants": 40,
            "region": "caribbean_nl",
            "fill_with_bots": "on",
            "intensity": "gentle",
            "age_band": "10+",
        },
    )
    assert response.status_code == 302
    session = teacher.sessions.get()
    assert session.region == "caribbean_nl"
    client.post(reverse("lessons:kit_command", args=[session.pk, "region"]), {"region": "nowhere"})
    session.refresh_from_db()
    assert session.region == "caribbean_nl"  # refused, nothing changed
    client.post(reverse("lessons:kit_command", args=[session.pk, "region"]), {"region": "nl_be"})
    session.refresh_from_db()
    assert session.region == "nl_be"


def test_a_new_session_is_on_the_us_gulf_coast_unless_the_teacher_says_otherwise(teacher):
    assert make_session(teacher=teacher).region == "us_gulf"
    with pytest.raises(ValueError):
        make_session(teacher=teacher, region="atlantis")


def test_reports_are_printed_on_the_regions_paper(finished_session):
    from lessons import services as lesson_services
    from scoring import services as scoring
    from scoring.models import Report

    session, _devices = finished_session
    for region_key, width in (("us_gulf", 612), ("nl_be", 595)):
        lesson_services.set_region(session=session, region=region_key)
        report = next(r for r in scoring.plan_reports(session) if r.kind == Report.Kind.CLASS)
        scoring.build_report(report.pk)
        report.refresh_from_db()
        assert round(float(PdfReader(io.BytesIO(bytes(report.pdf))).pages[0].mediabox.width)) == width, region_key


def test_the_islands_plan_names_the_alerts_that_reach_the_islands(client, teacher):
    """NL-Alert does not reach Bonaire, Saba or Sint Eustatius: the plan names the channels that do
    (the island governments' app and radio) and who issues the watches and warnings."""
    session = make_session(teacher=teacher, scenario="evacuation", region="caribbean_nl")
    for language in LANGUAGES:
        page = _words(
            client.get(
                reverse("lessons:plan_sample", args=[session.pk]), HTTP_ACCEPT_LANGUAGE=language
            ).content.decode()
        )
        assert "NL-Alert" not in page, language
        assert "Disasterprep Bonaire" in page and "SXMGOV 107" in page, language
        assert "KNMI" in page and "sintmaartengov.org/hurricane" in page, language
        assert '"hurricane watch"' in page or "“hurricane watch”" in page, language


@pytest.mark.parametrize("scenario", ["evacuation", "bermuda"])
def test_the_islands_plan_gives_bonaires_own_water_advice_with_its_source(client, teacher, scenario):
    """Bonaire's government advises 3 litres of water per person per day, not the Red Cross's
    gallon (about 4 litres): the islands' plan says 3, and names where that advice comes from,
    with its grade (a report of the official advice: S)."""
    session = make_session(teacher=teacher, scenario=scenario, region="caribbean_nl")
    for language, water in (
        ("en", "Water: 3 litres per person per day."),
        ("nl", "Water: 3 liter per persoon per dag."),
    ):
        page = _words(
            client.get(
                reverse("lessons:plan_sample", args=[session.pk]), HTTP_ACCEPT_LANGUAGE=language
            ).content.decode()
        )
        assert water in page, language
        assert "4 litres" not in page and "4 liter" not in page, language
        kit = page[page.index('id="plan-kit"') : page.index('id="plan-after"')]
        source = "bonairechamber.com/en/news/prepare-your-business-in-time-for-a-possible-storm"
        assert re.search(re.escape(source) + r" · \w+ S\)", kit), kit


#: the rows of Ready.gov's "Make a plan" and "Build a kit" and the Red Cross's kit list that the
#: plans lacked, each with words of the plan that carry it
READY_AND_RED_CROSS = {
    "contact card": "A contact card in every bag and wallet",
    "out-of-area (ICE) contact": "Our out-of-area contact (ICE)",
    "text, don't call": "Text, don't call",
    "dietary needs": "special food needs",
    "languages spoken": "the languages each of us speaks",
    "service animals": "any service animal",
    "whistle": "a whistle to call for help",
    "mask": "dust masks",
    "multi-tool": "a multi-tool",
    "emergency blanket": "an emergency blanket",
    "local map": "a paper map of the area",
    "spare keys": "spare house and car keys",
    "something for children to do": "books or games for the children",
}


@pytest.mark.parametrize("region_key", list(regions.REGIONS))
def test_every_region_carries_ready_govs_and_the_red_crosss_rows(client, teacher, region_key):
    for scenario in ("evacuation", "tornado_alert"):
        session = make_session(teacher=teacher, scenario=scenario, region=region_key)
        page = _words(
            client.get(reverse("lessons:plan_sample", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
        )
        missing = [row for row, words in READY_AND_RED_CROSS.items() if words not in page]
        assert not missing, (scenario, region_key, missing)
        assert "ready.gov/kit" in page
