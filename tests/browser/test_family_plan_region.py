"""The family plan follows the class's region and the reader's language, in real browsers: a
teacher on the Caribbean Netherlands sets the region on the new-session form and a Dutch tablet
prints a plan with 911, litres and metres, the islands' own warning sites and A4 paper; a class
on the US Gulf coast gets a Spanish plan with 911, gallons and feet, the National Hurricane
Center and FEMA's Spanish site, on Letter paper. The plan, the kit page and the guide pass axe."""

import io
import re

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from tests import pdfs
from tests.browser.a11y import check_axe
from tests.browser.lesson import teacher_page
from tests.conftest import TABLET

pytestmark = pytest.mark.browser


def _new_session(teacher, region_name):
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Where the class lives").select_option(label=region_name)
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    return code, int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))


def _tablet(browser, base_url, locale, code, nickname):
    context = browser.new_context(viewport=TABLET, base_url=base_url, locale=locale)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto("/join")
    page.locator("input[name='code']").fill(code)
    page.locator("input[name='nickname']").fill(nickname)
    page.locator("section.join button.primary").click()
    expect(page.locator("h1")).to_contain_text(nickname)
    return page


def _printed(page):
    """The plan's PDF as the tablet's browser downloads it from the plan page's link (its own
    language and cookie): its words and its page width in points."""
    link = page.locator("a.button.primary[href$='plan.pdf']")
    body = page.evaluate(
        """async (url) => {
        const answer = await fetch(url);
        if (!answer.ok || answer.headers.get("content-type") !== "application/pdf") return null;
        return Array.from(new Uint8Array(await answer.arrayBuffer()));
    }""",
        link.get_attribute("href"),
    )
    assert body, "no PDF"
    reader = PdfReader(io.BytesIO(bytes(body)))
    text = pdfs.pdf_text(body)
    return text, round(float(reader.pages[0].mediabox.width))


def test_a_dutch_plan_for_the_islands_and_a_spanish_plan_for_the_gulf_coast(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server)

    code, session_id = _new_session(teacher, "Caribbean Netherlands / Sint Maarten")
    tablet = _tablet(browser, asgi_server, "nl-NL", code, "Femke")
    tablet.goto(f"/play/{session_id}/plan")
    expect(tablet.get_by_role("heading", name="Hoe we gewaarschuwd worden")).to_be_visible()
    shown = tablet.locator("main").inner_text()
    assert "Alarmnummer: 911" in shown and "Caribisch Nederland / Sint Maarten" in shown
    text, width = _printed(tablet)
    assert "Alarmnummer: 911" in text
    assert "Water: 3 liter per persoon per dag." in text and "6 meter" in text and "30 centimeter" in text
    assert "gallon" not in text and "voet" not in text
    assert "meteosxm.com" in text and "knmi.nl" in text and "bonairecrisis.com" in text
    assert "orkaanalarm" not in text.lower()
    check_axe(tablet, "the Dutch family plan")
    teacher.goto(f"/sessions/{session_id}/kit/")
    expect(teacher.get_by_label(re.compile("Where the class lives"))).to_have_value("caribbean_nl")
    check_axe(teacher, "the lesson kit")
    teacher.goto(f"/lessons/evacuation/guide?session={session_id}")
    expect(teacher.get_by_role("heading", name="The debrief, step by step")).to_be_visible()
    check_axe(teacher, "the guide")
    assert width == 595  # A4

    teacher.goto("/")
    code, session_id = _new_session(teacher, "US Gulf coast")
    tablet = _tablet(browser, asgi_server, "es-US", code, "Lucía")
    tablet.goto(f"/play/{session_id}/plan")
    expect(tablet.get_by_role("heading", name="Cómo nos llegan las alertas")).to_be_visible()
    text, width = _printed(tablet)
    assert "Emergencias: 911" in text and "211" in text
    assert "Agua: 1 galón por persona y por día." in text and "20 pies" in text and "6 pulgadas" in text
    assert "litros" not in text
    assert "nhc.noaa.gov" in text and "listo.gov" in text and "weather.gov" in text
    assert "refugiamos en el lugar" in text
    check_axe(tablet, "the Spanish family plan")
    assert width == 612  # Letter
