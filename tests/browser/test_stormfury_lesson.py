"""A Project Stormfury lesson in real browsers: roles, turns, the class storm, the result."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Game, Move
from tests.browser.lesson import POLL_MS, student_page, teacher_page
from tests.conftest import in_thread

pytestmark = pytest.mark.browser
# What a hurried but sensible team does: take a role, answer trades, discard down, end the turn.
PRIORITY = ('"type":"pick_role"', '"type":"decline_trade"', '"type":"discard"', '"type":"end_turn"', '"type":"draw"')


def tap(page) -> bool:
    """One tap; False once the team's result shows."""
    if page.locator(".sf-results").count():
        return False
    buttons = page.locator("button.sf-act:not([disabled])")
    keys = [k for k in buttons.evaluate_all("(bs) => bs.map((b) => b.dataset.key)") if k and k.startswith("{")]
    wanted = next((k for prefix in PRIORITY for k in keys if prefix in k), None)
    if wanted is None:
        page.wait_for_timeout(300)  # waiting for the team or the class storm
        return True
    page.locator(f"button.sf-act[data-key='{wanted}']").first.click()
    page.wait_for_function(
        "() => !document.querySelector('button.sf-act[disabled]') || document.querySelector('.sf-results')",
        timeout=10_000,
        polling=POLL_MS,
    )
    return True


def test_a_team_plays_stormfury_to_the_end_with_the_class_storm(browser, asgi_server):
    """Two students pick roles and play turns; the shared storm moves when both have ended their
    turn; the team's result and the class ranking beside the policy bot appear at the end."""
    teacher = teacher_page(browser, asgi_server)
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Scenario").select_option("stormfury")
    teacher.get_by_label("Seats per table").fill("2")
    teacher.get_by_label("A bot plays for a student who stays idle").set_checked(False)
    teacher.get_by_label("Game number (optional)").fill("7")
    teacher.get_by_text("Scenario options").click()
    teacher.get_by_role("combobox", name=re.compile("Most turns", re.I)).select_option("6")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    session_id = int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))
    students = [student_page(browser, asgi_server, code, name) for name in ("Maya", "Omar")]
    teacher.get_by_role("button", name="Start the game").click()
    for page in students:
        expect(page.locator("button.sf-act:not([disabled])").first).to_be_visible()

    for _ in range(600):
        if not any([tap(page) for page in students]):
            break
    for page in students:
        expect(page.locator(".sf-results")).to_be_visible()
    expect(teacher.get_by_role("heading", name="Class ranking (bots not ranked)")).to_be_visible()
    expect(teacher.locator(".standings")).to_contain_text("Maya, Omar")
    storms = in_thread(
        lambda: list(
            Move.objects.filter(game__table__session_id=session_id, action__type="storm_moves").values_list(
                "actor", flat=True
            )
        )
    )
    assert storms and set(storms) == {Move.Actor.SYSTEM}
    assert in_thread(lambda: Game.objects.get(table__session_id=session_id).status) == Game.Status.FINISHED
