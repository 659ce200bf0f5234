"""The projector during play, as a class sees it at 1920 × 1080: for a game under way, each
table's progress in the game's own terms moving on, what its storm is doing, its latest moments
worth a cheer, and the join QR and code in a corner for latecomers; every one of these lines at
least 24 px tall, in the teacher's language, with only the nicknames the teacher approved."""

import re

import pytest
from playwright.sync_api import expect

from classroom import services
from tests.browser.shots import shoot
from tests.conftest import in_thread
from tests.factories import PASSWORD, make_teacher, started_session

pytestmark = pytest.mark.browser
FULL_HD = {"width": 1920, "height": 1080}
LATE = {
    "en": "1 student is waiting to be let in",
    "es": "1 estudiante espera que le dejen entrar",
    "nl": "1 leerling wacht om binnengelaten te worden",
}
LINES = (".projector-title", ".projector-join-code", ".projector-table-name", ".projector-progress", ".projector-storm")
WORDS = {
    "en": ("Class progress", "Round"),
    "es": ("Progreso de la clase", "Ronda"),
    "nl": ("Voortgang van de klas", "Ronde"),
}


def playing_session(teacher, key):
    """A session under way whose two students' seats bots play (so the game moves on by
    itself, a step a second), the first student's nickname approved, the second's not."""
    # bots hold every seat: no reaction allowance for a pile to wait out (it is for children)
    session, _devices = started_session(
        students=2, scenario=key, teacher=teacher, intensity="gentle", options={"allowance_ms": 0}
    )
    first, second = session.participants.order_by("pk")
    services.approve(participant=first)
    for seat in session.tables.get().seats.all():
        services.hand_to_bot(seat=seat, to_bot=True)
    return session, first.nickname, second.nickname


def projector(browser, base_url, teacher, session, language):
    """The session's projector page, opened by its teacher from a browser speaking ``language``."""
    context = browser.new_context(viewport=FULL_HD, base_url=base_url, locale=language)
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto(f"/accounts/login/?next=/sessions/{session.pk}/screen")
    page.locator("input[name=username]").fill(teacher.email)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/screen$"))
    return page


@pytest.mark.parametrize("language", ["en", "es", "nl"])
def test_the_projector_shows_the_class_each_tables_game_as_it_is_played(browser, asgi_server, language):
    teacher = in_thread(make_teacher)
    session, approved, waiting = in_thread(playing_session, teacher, "tornado_alert")
    page = projector(browser, asgi_server, teacher, session, language)
    title, progress_word = WORDS[language]
    expect(page.locator(".projector-title")).to_contain_text(title)
    expect(page.locator(".projector-progress")).to_contain_text(progress_word)
    expect(page.locator(".projector-join img")).to_be_visible()
    expect(page.locator(".projector-join-code")).to_have_text(services.format_code(session.join_code))
    # the late name still waiting for the teacher is counted where the class looks, never named
    expect(page.locator(".projector-late")).to_have_text(LATE[language])
    # the bar moves on as the bots play, and the moments come with it, fed by the snapshots
    page.wait_for_function(
        "() => parseFloat(document.querySelector('.projector-table .screen-bar-fill').style.width) >= 10",
        polling=200,
        timeout=60_000,
    )
    page.wait_for_function(
        "() => document.querySelectorAll('.projector-cheers li').length > 0", polling=200, timeout=60_000
    )
    shoot(page, f"projector-during-play-{language}", full_page=False)
    sizes = page.evaluate(
        """(lines) => lines.flatMap((selector) => [...document.querySelectorAll(selector)]
            .map((node) => [selector, parseFloat(getComputedStyle(node).fontSize)]))""",
        [*LINES, ".projector-cheers li", ".projector-join p", ".projector-late"],
    )
    assert {selector for selector, _size in sizes} >= set(LINES) - {".projector-storm"}
    small = [(selector, size) for selector, size in sizes if size < 24]
    assert not small, small
    text = page.locator("main").inner_text()
    assert waiting not in text  # a nickname still waiting for approval is never on the projector
    assert "Table" not in text or language == "en"  # the page speaks the teacher's language
    page.context.close()
