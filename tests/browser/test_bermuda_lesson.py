"""A whole Bermuda Triangle lesson in real browsers: two students join by code, sail their
fleets by tapping a ship then a space (and by keyboard), read the cone, and finish; then the
bell (finish with bots), the class debrief with its cited facts, and the written reports."""

import json
import re

import pytest
from playwright.sync_api import expect

from games.models import Game, Move
from tests.browser.lesson import POLL_MS, policy_action, student_page, teacher_page
from tests.browser.shots import shoot
from tests.conftest import in_thread

pytestmark = pytest.mark.browser


policy_key = policy_action  # the cautious captain: Bermuda's policy bot


def wait_for_answer(page):
    page.wait_for_function(
        "() => !document.querySelector('button.bt-act[disabled]') || document.querySelector('.bt-results')",
        timeout=10_000,
        polling=POLL_MS,
    )


def tap(page, nickname, session_id, how="button") -> bool:
    """One sail, the cautious captain's; False once the game's results show."""
    if page.locator(".bt-results").count():
        return False
    buttons = page.locator("button.bt-act:not([disabled])")
    try:
        buttons.first.wait_for(timeout=3_000)
    except Exception:
        return not page.locator(".bt-results").count()
    wanted = in_thread(policy_key, nickname, session_id)
    keys = buttons.evaluate_all("(bs) => bs.map((b) => b.dataset.key)")
    if wanted not in keys:
        return True  # the view is a step behind the database: look again
    action = json.loads(wanted)
    if how == "map":
        # tap the ship on the map, then the space it marks (ships in a port sit close together,
        # so the tap goes to the ship's own shape)
        page.locator(f"g.bt-ship.can-pick[data-ship='{action['ship']}']").dispatch_event("click")
        expect(page.locator(f"button.bt-pick[data-key='pick-{action['ship']}']")).to_have_attribute(
            "aria-pressed", "true"
        )
        page.locator(f"g.bt-dest[data-to='{action['to']}']").dispatch_event("click")
    elif how == "keyboard":
        button = page.locator(f"button.bt-act[data-key='{wanted}']")
        button.focus()
        page.keyboard.press("Enter")
    else:
        page.locator(f"button.bt-act[data-key='{wanted}']").click()
    wait_for_answer(page)
    return True


def new_session(teacher, seats, bots, rounds):
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Scenario").select_option("bermuda")
    teacher.get_by_label("Seats per table").fill(str(seats))
    teacher.get_by_label("Fill empty seats with bots").set_checked(bots)
    teacher.get_by_label("A bot plays for a student who stays idle").set_checked(False)
    teacher.get_by_label("Game number (optional)").fill("2026")
    teacher.get_by_text("Scenario options").click()
    teacher.get_by_role("combobox", name=re.compile("Most rounds")).select_option(str(rounds))
    # strict turns, the book's order (the default moves every fleet in the same round)
    teacher.get_by_role("combobox", name=re.compile("Ship moves")).select_option("in_turn")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    return code, int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))


def moves(session_id):
    return in_thread(
        lambda: list(Move.objects.filter(game__table__session_id=session_id).values_list("seat", "actor", "action"))
    )


def test_two_captains_sail_a_whole_game_by_map_buttons_and_keyboard(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server)
    code, session_id = new_session(teacher, seats=2, bots=False, rounds=12)
    students = {name: student_page(browser, asgi_server, code, name) for name in ("Maya", "Omar")}
    teacher.get_by_role("button", name="Start the game").click()
    maya, omar = students["Maya"], students["Omar"]
    # Maya's turn first: her tablet says so and shows the cone and the danger map; Omar waits.
    expect(maya.locator(".bt-banner--turn")).to_contain_text("Your turn")
    expect(maya.locator(".bt-danger")).to_contain_text("The cloud leaves the cone about one spin in three")
    expect(maya.locator("g.bt-cone.is-cone").first).to_be_attached()
    expect(maya.locator("g.bt-cone.is-margin").first).to_be_attached()
    expect(omar.locator(".bt-banner")).to_contain_text("Waiting for Fleet 1")
    assert omar.locator("button.bt-act").count() == 0
    # Every move says whether it ends in the cone, in words.
    expect(maya.locator("button.bt-act").first).to_contain_text(
        re.compile("out of the cloud's reach|in the margin|in the cone")
    )

    tap(maya, "Maya", session_id, how="map")
    expect(omar.locator(".bt-banner--turn")).to_contain_text("Your turn")
    tap(omar, "Omar", session_id, how="keyboard")
    # After both moved the spinner moved the cloud: both tablets tell it in the live region.
    expect(maya.locator(".bt-root > [aria-live='polite']")).to_contain_text("The spinner landed on")

    hows = ["button", "map", "keyboard"]
    for turn in range(400):
        alive = [tap(page, name, session_id, how=hows[turn % 3]) for name, page in students.items()]
        if not any(alive):
            break
    for page in students.values():
        expect(page.locator(".bt-results")).to_be_visible()
    expect(teacher.get_by_role("heading", name="Class ranking (bots not ranked)")).to_be_visible()
    for name in students:
        expect(teacher.locator(".standings")).to_contain_text(name)
    logged = moves(session_id)
    assert {actor for _, actor, _ in logged} == {Move.Actor.STUDENT}
    assert {a["type"] for *_, a in logged} == {"sail"}
    assert in_thread(lambda: Game.objects.get(table__session_id=session_id).status) == Game.Status.FINISHED


def _build_reports(session_id):
    from classroom.models import Session
    from scoring import services
    from scoring.models import Report

    reports = services.plan_reports(Session.objects.get(pk=session_id))
    for report in reports:
        services.build_report(report.pk)
    return [(r.kind, r.status, bytes(r.pdf)[:4], r.html) for r in Report.objects.filter(session_id=session_id)]


def test_the_bell_finishes_with_bots_and_the_debrief_cites_its_sources(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server)
    code, session_id = new_session(teacher, seats=4, bots=True, rounds=16)
    student = student_page(browser, asgi_server, code, "Solo")
    teacher.get_by_role("button", name="Start the game").click()
    expect(student.locator(".bt-banner--turn")).to_be_visible()
    tap(student, "Solo", session_id)
    teacher.get_by_role("button", name="Finish with bots").click()
    expect(teacher.get_by_role("heading", name="Class ranking (bots not ranked)")).to_be_visible()
    expect(student.locator(".bt-results")).to_be_visible()
    assert Move.Actor.BOT in {actor for _, actor, _ in moves(session_id)}

    reports = in_thread(_build_reports, session_id)
    assert {kind for kind, *_ in reports} == {"class", "student"}
    for _kind, status, pdf, html in reports:
        assert status == "done" and pdf == b"%PDF"
        assert "Mariners Weather Log" in html  # the 1-2-3 rule's source, cited
    solo = next(html for kind, _, _, html in reports if kind == "student")
    assert "Solo" in solo and "moves ended where the cloud could sweep" in solo

    teacher.goto(f"/sessions/{session_id}/debrief/")
    expect(teacher.get_by_role("heading", name="Who kept out of the storm's way")).to_be_visible()
    expect(teacher.locator(".db-table")).to_contain_text("Solo")
    expect(teacher.locator(".db-sources")).to_contain_text("Mariners Weather Log")
    for width, height in ((1366, 768), (768, 1024)):
        teacher.set_viewport_size({"width": width, "height": height})
        shoot(teacher, f"bermuda_debrief_{width}x{height}")
        overflow = teacher.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, f"the debrief is {overflow}px wider than a {width}-px screen"
