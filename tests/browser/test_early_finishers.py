"""A student whose game ends early is never left with an idle screen: "Stay home" asks once, and
once the household is home for the storm while the tablemates still drive, the tablet shows, in
its own language, what leaving would have done, the family plan to start and the table's
questions, with sourced facts."""

import pytest
from playwright.sync_api import expect

from tests.browser.lesson import create_session, tablet, teacher_page
from tests.browser.shots import shoot
from tests.conftest import TABLET

pytestmark = pytest.mark.browser

STAY = """button.evac-act[data-key='{"type":"stay_home"}']"""
#: the panel's title in each tablet's language (the catalogues' words)
TITLE = {"en": "While the others finish", "es": "Mientras los demás terminan", "nl": "Terwijl de anderen afmaken"}


def _tablet_that_asks(browser, base_url, code, nickname):
    """An English tablet whose in-page questions wait for the test, as a child's would."""
    context = browser.new_context(viewport=TABLET, base_url=base_url, locale="en-US")
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto("/join")
    page.locator("input[name=code]").fill(code)
    page.locator("input[name=nickname]").fill(nickname)
    page.locator("form button[type=submit]").last.click()
    expect(page.locator("h1")).to_contain_text(nickname)
    return page


def test_a_household_home_for_the_storm_gets_its_what_if_plan_and_questions_while_others_play(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server)
    code, session_id = create_session(teacher, bots=False)
    ana = _tablet_that_asks(browser, asgi_server, code, "Ana")
    early = {
        "es": tablet(browser, asgi_server, code, "Bea", "es-ES"),
        "nl": tablet(browser, asgi_server, code, "Cas", "nl-NL"),
    }
    dev = tablet(browser, asgi_server, code, "Dev", "en-US")
    teacher.get_by_role("button", name="Start the game").click()
    for page in (ana, dev, *early.values()):
        expect(page.locator(STAY)).to_be_visible()

    # Staying home ends the household's game at once: the tablet asks first, and Cancel keeps it playing.
    ana.locator(STAY).click()
    question = ana.get_by_role("alertdialog")
    expect(question).to_contain_text("Stay home for the storm?")
    question.get_by_role("button", name="Cancel").click()
    expect(ana.locator(STAY)).to_be_enabled()
    expect(ana.locator(".meanwhile")).to_have_count(0)
    ana.locator(STAY).click()
    ana.get_by_role("alertdialog").get_by_role("button", name="Yes, go ahead").click()
    for page in early.values():
        page.locator(STAY).click()  # these tablets answer "yes" by themselves

    panel = ana.locator(".meanwhile")
    expect(panel.get_by_role("heading", name=TITLE["en"])).to_be_visible()
    expect(panel.locator(".meanwhile-whatif").first).to_contain_text("instead of staying home", timeout=60_000)
    expect(panel.get_by_role("link", name="Start my family plan")).to_have_attribute("href", f"/play/{session_id}/plan")
    expect(panel.get_by_role("heading", name="Talk it over at your table")).to_be_visible()
    assert panel.locator(".meanwhile-questions li").count() >= 2
    for fact in panel.locator(".meanwhile-facts li").all():
        expect(fact.get_by_role("link")).to_contain_text("(grade O)")
    shoot(ana, "early-finisher-en")
    for language, page in early.items():
        box = page.locator(".meanwhile")
        expect(box.get_by_role("heading", name=TITLE[language])).to_be_visible()
        expect(box.locator(".meanwhile-whatif").first).to_be_visible(timeout=60_000)
        expect(box.locator(f"a[href='/play/{session_id}/plan']")).to_be_visible()
        assert box.locator(".meanwhile-questions li").count() >= 2
        assert "staying home" not in box.inner_text()  # in the tablet's language, not English
        shoot(page, f"early-finisher-{language}")

    # Dev still drives: his screen is his game, with nothing in its way.
    expect(dev.locator(".evac-actions")).to_be_visible()
    expect(dev.locator(".meanwhile")).to_have_count(0)

    # The family plan opens from the panel.
    panel.get_by_role("link", name="Start my family plan").click()
    expect(ana).to_have_url(f"{asgi_server}/play/{session_id}/plan")
