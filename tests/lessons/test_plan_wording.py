"""Every family plan reads in its region's words (docs/wording.md, locale/wording.json): for each
scenario, region, language and game outcome, no form the style list calls wrong, and the forms it
asks for. Where hurricanes do not come, no line from the game speaks of a hurricane warning,
shutters or a public shelter; on small islands, nobody drives "inland"."""

import html
import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from classroom import regions
from lessons import services
from scenarios import registry
from tests.factories import PASSWORD, make_session, make_teacher

pytestmark = pytest.mark.django_db

WORDING = json.loads((Path(settings.BASE_DIR) / "locale" / "wording.json").read_text())
LANGUAGES = ("en", "es", "nl")


def _words(text: str) -> str:
    return " ".join(html.unescape(text).split())


def _rows(kit) -> list[dict]:
    """One row per value a plan line can be filled from (and one the kit does not list), and none."""
    rows = [{}]
    for line in kit.plan:
        if line.column:
            rows += [{line.column: value} for value in line.values] + [{line.column: "something else"}]
    return rows


def _plan_text(plan: dict) -> str:
    parts = []
    for line in plan["lines"]:
        parts += [str(line["label"]), str(line["text"])]
    for section in plan["sections"]:
        parts += [str(section["title"]), *map(str, section["lines"]), *map(str, section["blanks"])]
    parts += [str(plan["region"].local_help)]
    return _words(" ".join(parts))


def _wrong(region, language: str) -> list[str]:
    lists = WORDING["wrong"]
    forms = [w["form"] for w in lists.get(language, [])]
    if language == "en" and region.units == "us":
        forms += [w["form"] for w in lists["en_us"]]
    if not region.hurricanes:
        forms += [w["form"] for w in lists["no_hurricanes"]]
    if region.islands:
        forms += [w["form"] for w in lists["islands"]]
    return forms


@pytest.fixture
def teacher(client):
    teacher = make_teacher()
    client.login(email=teacher.email, password=PASSWORD)
    return teacher


@pytest.mark.parametrize("scenario", registry.keys())
@pytest.mark.parametrize("region_key", list(regions.REGIONS))
def test_every_plan_reads_in_its_regions_words(client, teacher, scenario, region_key):
    session = make_session(teacher=teacher, scenario=scenario, region=region_key)
    region = regions.get(region_key)
    kit = registry.get(scenario).kit
    for language in LANGUAGES:
        page = _words(
            client.get(
                reverse("lessons:plan_sample", args=[session.pk]), HTTP_ACCEPT_LANGUAGE=language
            ).content.decode()
        )
        found = [form for form in _wrong(region, language) if form.lower() in page.lower()]
        assert found == [], (language, found)
        with translation.override(language):
            for row in _rows(kit):
                text = _plan_text(services._plan(session, row)).lower()
                found = [form for form in _wrong(region, language) if form.lower() in text]
                assert found == [], (language, row, found)
        if kit.hazard != "hurricane":
            continue
        wanted = list(WORDING["right"].get(region_key, []))
        if language == "en" and region.units == "us":
            wanted += WORDING["right"]["en_us"]
        if language == "nl":
            wanted += WORDING["right"]["nl"]
        if language == "es" and region.units == "us":
            wanted += WORDING["right"]["es"]
        missing = [form for form in wanted if form not in page]
        assert missing == [], (language, missing)


def test_no_catalogue_carries_a_wrong_form():
    """The catalogues themselves, so a line no plan shows today cannot bring a wrong form back."""
    import polib

    for language in ("es", "nl"):
        # "overgeslagen" stays right for a turn the teacher skipped ("Beurt overgeslagen")
        forms = [w["form"].strip() for w in WORDING["wrong"][language] if w["form"] != "overgeslagen"]
        for path in Path(settings.BASE_DIR).glob(f"**/locale/{language}/LC_MESSAGES/django.po"):
            if ".venv" in path.parts or "node_modules" in path.parts:
                continue
            for entry in polib.pofile(str(path)):
                text = " ".join([entry.msgstr, *entry.msgstr_plural.values()])
                hits = [form for form in forms if re.search(rf"\b{re.escape(form)}\b", text, re.IGNORECASE)]
                assert hits == [], (str(path), entry.msgid, hits)
