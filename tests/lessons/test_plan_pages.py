"""The kit page says the family plan is one page: every plan, for each region in its languages,
played or not, prints on one sheet of paper, both sides (two pages at most). With
STORMWISE_PLAN_PNG set to a folder, the PDFs are left there to be looked at (pdftoppm)."""

import os
from pathlib import Path

import pytest
from django.utils import translation

from classroom import regions
from lessons import printing, services
from scenarios import registry
from tests import pdfs
from tests.factories import make_session

pytestmark = pytest.mark.django_db

#: each region's languages: the ones its families read
LANGUAGES = {"us_gulf": ("en", "es"), "us_atlantic": ("en", "es"), "caribbean_nl": ("nl", "en"), "nl_be": ("nl",)}


@pytest.mark.parametrize("scenario", registry.keys())
def test_every_plan_fits_one_sheet_printed_on_both_sides(scenario):
    keep = os.environ.get("STORMWISE_PLAN_PNG")
    for region in regions.REGIONS:
        session = make_session(scenario=scenario, region=region)
        for language in LANGUAGES[region]:
            with translation.override(language):
                pdf = printing.plan_pdf(services.family_plan_blank(session))
            pages = int(pdfs.info(pdf)["Pages"])
            if keep:
                Path(keep, f"plan-{scenario}-{region}-{language}.pdf").write_bytes(pdf)
            assert pages <= 2, (scenario, region, language, pages)


def test_the_kit_page_says_what_the_plan_is(client):
    from django.urls import reverse

    from tests.factories import PASSWORD

    session = make_session(scenario="evacuation")
    client.login(email=session.teacher.email, password=PASSWORD)
    page = " ".join(client.get(reverse("lessons:kit", args=[session.pk])).content.decode().split())
    assert "printed on one sheet of paper, both sides" in page
    assert "one-page family emergency plan" not in page
