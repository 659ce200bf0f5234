"""A whole Tornado Alert! lesson in real browsers: four tablets join, a card is played, everyone
slaps the pile at once (the server's fair draw gives one tablet the cards, the others are told by
nickname who won the draw, nothing is doubled), the bell rings and bots finish, and the teacher
opens the cited debrief; the reports are printed as PDFs. Tablets name tablemates only by the
nicknames the teacher approved."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Game, Move
from scenarios.tornado_alert import rules
from tests.browser.lesson import student_page, teacher_page
from tests.browser.shots import shoot
from tests.conftest import in_thread

pytestmark = pytest.mark.browser
NAMES = ["Ana", "Ben", "Chloe", "Dev"]
SLAP = "() => { const b = document.querySelector('button.ta-slap'); if (b && !b.disabled) { b.click(); return true; } return false; }"
SLAP_AT = (
    "(at) => { delete window.slapped; setTimeout(() => { window.slapped = (" + SLAP + ")(); }, at - Date.now()); }"
)


def game_of(session_id):
    return Game.objects.get(table__session_id=session_id)


def cards_in_play(state):
    """Every card is in exactly one place: draw pile, play pile, a hand, a stack, or robbed."""
    places = state["draw"] + state["pile"] + state["gone"]
    for hand in state["hands"]:
        places += hand
    for stack in state["stacks"]:
        places += [c for c, _ in stack]
    return places


def seat_numbers(session_id):
    from classroom.models import Seat

    return {
        s.participant.nickname: s.number
        for s in Seat.objects.filter(table__session_id=session_id).select_related("participant")
    }


def test_four_students_slap_at_once_then_the_bell_and_the_debrief(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server)
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Scenario").select_option(label="Tornado Alert!")
    expect(teacher.get_by_text("A real-time slap game")).to_be_visible()
    teacher.get_by_label("Seats per table").fill("4")
    teacher.get_by_label("Fill empty seats with bots").set_checked(False)
    teacher.get_by_label("A bot plays for a student who stays idle").set_checked(False)
    teacher.get_by_label("Game number (optional)").fill("2026")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    session_id = int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))
    students = {name: student_page(browser, asgi_server, code, name) for name in NAMES}
    # the teacher approves three nicknames; Dev's stays hidden from the tablemates
    for name in NAMES[:3]:
        teacher.get_by_role("button", name=f"Approve: {name}").click()
        expect(teacher.get_by_role("button", name=f"Hide name: {name}")).to_be_visible()
    seats = in_thread(seat_numbers, session_id)
    shown = {name: name for name in NAMES[:3]} | {"Dev": f"Player {seats['Dev'] + 1}"}
    # each tablet knows its own round trip, under "Details" (fairness on school Wi-Fi starts with knowing it)
    expect(students["Ana"].locator("#tech-details .rtt")).to_have_text(re.compile(r"Connection: \d+ ms there and back"))
    teacher.get_by_role("button", name="Start the game").click()
    for page in students.values():
        expect(page.locator("button.ta-slap")).to_be_visible()

    # The seat to play lays a location card (one worth at least 1, so the pile can be slapped).
    player = next(page for page in students.values() if page.get_by_text("Your turn: play a card.").count())
    playable = player.locator("button.ta-card:not([disabled])")
    values = playable.locator(".ta-val").all_inner_texts()
    player.locator("button.ta-card:not([disabled])").nth(next(i for i, v in enumerate(values) if v != "0")).click()
    others = [page for page in students.values() if page is not player]
    for page in others:
        expect(page.locator("button.ta-slap:not([disabled])")).to_be_visible()
    expect(player.locator("button.ta-slap")).to_be_disabled()  # no slapping your own card
    shoot(others[0], "tornado_before_slap", full_page=False)
    # The connection's round trip is for whoever helps with the Wi-Fi, folded under "Details",
    # never in the child's banner.
    expect(others[0].locator(".ta-banner")).not_to_contain_text(" ms")
    expect(others[0].locator("#tech-details .rtt")).to_contain_text(" ms there and back")
    expect(others[0].locator("#tech-details .rtt")).to_be_hidden()

    # Everyone at once: each tablet is set to slap at the same instant of the shared clock, so a
    # slow test thread cannot spread the slaps past the race window.
    at = others[0].evaluate("() => Date.now()") + 2_000
    for page in students.values():
        page.evaluate(SLAP_AT, at)
    for page in students.values():
        page.wait_for_function("() => window.slapped !== undefined", polling=50, timeout=15_000)
    slapped = [page for page in students.values() if page.evaluate("() => window.slapped")]
    assert len(slapped) == 3
    winners = []
    for page in slapped:
        # in the race window: the fair draw; a slap the busy server received after it: too late
        expect(page.locator(".ta-personal")).to_have_text(
            re.compile(r"You won the draw|You got it|won the draw|Too late"), timeout=10_000
        )
        if re.match(r"You won the draw|You got it", page.locator(".ta-personal").inner_text()):
            winners.append(page)
    assert len(winners) == 1
    winner = next(name for name, page in students.items() if page is winners[0])
    losers = [page for page in slapped if page is not winners[0]]
    for page in losers:  # "Ben won the draw" (or "Too late: … by Ben"), by the nickname the teacher approved
        expect(page.locator(".ta-personal")).to_have_text(
            re.compile(rf"^({shown[winner]} won the draw\.|Too late: the pile was taken by {shown[winner]}\.)$")
        )
    shoot(winners[0], "tornado_won", full_page=False)
    shoot(losers[0], "tornado_lost", full_page=False)
    # every tablet's table names its tablemates the same way, never an unapproved nickname
    for name, page in students.items():
        table = page.locator(".ta-seats").inner_text()
        assert all(shown[other] in table for other in NAMES if other != name)
        assert f"{name} (you)" in table
        assert name == "Dev" or "Dev" not in table
    game = in_thread(game_of, session_id)
    events = [e for m in in_thread(lambda: list(Move.objects.filter(game=game).order_by("seq"))) for e in m.events]
    assert sum(1 for e in events if e["type"] == "take") == 1
    assert sorted(cards_in_play(game.state)) == rules.DECK[rules.EDITION]
    # the announcement region says what happened
    said = losers[0].locator("div.visually-hidden[aria-live='polite']").inner_text()
    assert losers[0].locator(".ta-personal").inner_text() in said

    teacher.get_by_role("button", name="Finish with bots").click()
    # about 400 bot moves through the one submit path: seconds on a busy machine
    expect(teacher.get_by_role("heading", name="Class ranking (bots not ranked)")).to_be_visible(timeout=45_000)
    for page in students.values():
        expect(page.get_by_text("Final results: your worst round counts")).to_be_visible()
        # the end screen says what the winning strategy teaches (scenarios/tornado_alert/debrief.py)
        expect(page.get_by_text("a player who keeps a safe place on top scores less")).to_be_visible()
    shoot(students["Ana"], "tornado_results", full_page=False)
    game = in_thread(game_of, session_id)
    assert game.status == Game.Status.FINISHED and sorted(cards_in_play(game.state)) == rules.DECK[rules.EDITION]

    teacher.goto(f"/sessions/{session_id}/debrief/")
    expect(teacher.get_by_role("heading", name="Would you take that photo?")).to_be_visible()
    expect(teacher.get_by_role("heading", name="Where our photos were taken from")).to_be_visible()
    expect(teacher.locator(".db-sources li").first).to_be_visible()
    shoot(teacher, "tornado_debrief", full_page=False)

    def printed():
        from classroom.models import Session
        from scoring import services
        from scoring.models import Report

        session = Session.objects.get(pk=session_id)
        for report in services.plan_reports(session):
            services.build_report(report.pk)
        return [(r.status, bytes(r.pdf)[:4]) for r in Report.objects.filter(session=session)]

    reports = in_thread(printed)
    assert len(reports) == 5 and all(status == "done" and head == b"%PDF" for status, head in reports)
