"""A whole lesson of every scenario as a teacher runs it, in a real browser: a session with the
form's defaults (the shortest game the form offers, to keep the suite quick), a class approved in
one tap, the before-check answered from the lobby, tablets in three languages playing by tapping,
the lesson ending by itself, the class debrief, the after-check the tablets follow live, the
family plan and every report written. Screenshots of the projector at 1080p and of each tablet at
768 px go to ``$SHOTS``, if set (``tests/browser/shots.py``), to look at."""

import re
from html import unescape

import pytest
from playwright.sync_api import expect

from scenarios.registry import get
from tests.browser.lesson import TAPPERS, play_by_tapping, tablet, teacher_page
from tests.browser.shots import shoot
from tests.conftest import in_thread

pytestmark = pytest.mark.browser
PROJECTOR = {"width": 1920, "height": 1080}
STUDENTS = {"Ana": "en-US", "Bea": "es-US", "Cas": "nl-NL"}
# The shortest game each scenario's form offers (an empty entry: the defaults are short already).
SHORTEST = {
    "evacuation": {},
    "stormfury": {"turn_cap": "6"},
    "resort": {"round_cap": "20"},
    "bermuda": {"rounds": "12"},
    "tornado_alert": {},
}
# What a printable or report must never show a family: program keys, file paths, Python values.
PROGRAM_WORDS = re.compile(r"scenarios/|RULES\.md|\.py\b|\b[a-z_]+\.[a-z_]+ (True|False|None)\b|\{\{|\{%")


def _text(html: str) -> str:
    """What a reader sees of a page: no styles, scripts or tags."""
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _answers(session_id, nickname, phase):
    """item id -> the right answer for the student's items in this phase."""
    from classroom.models import Participant
    from lessons import knowledge

    participant = Participant.objects.get(session_id=session_id, nickname=nickname)
    return {s.item.pk: s.item.answer for s in knowledge.items_for(participant, phase)}


def answer_check(page, session_id, nickname, phase):
    """Open the check from the tablet's own link, answer every question, send, go back."""
    page.locator("#check-link").click()
    answers = in_thread(_answers, session_id, nickname, phase)
    expect(page.locator("fieldset.kit-question")).to_have_count(len(answers))
    for item_id, good in answers.items():
        page.locator(f"input[name='{item_id}'][value='{good}']").check()
    page.locator(".kit-check form button[type=submit]").click()
    expect(page.locator(".kit-check [role=status]").first).to_be_visible()  # "Thank you!", in their language
    expect(page.locator("fieldset.kit-question")).to_have_count(0)
    page.goto(f"/play/{session_id}/")
    return len(answers)


def _moves_by_seat(session_id):
    """(seat, who sat there, who acted) for every move of the session's games."""
    from classroom.models import Seat
    from games.models import Move

    humans = {
        (s.table.game_id, s.number)
        for s in Seat.objects.filter(table__session_id=session_id, participant__isnull=False).select_related("table")
    }
    return [
        ((m.game_id, m.seat) in humans, m.actor)
        for m in Move.objects.filter(game__table__session_id=session_id).exclude(seat__isnull=True)
    ]


def _wait_until_bots_are_done(session_id, seconds=60):
    """Until no bot seat of the session has a game left to play (its household has arrived)."""
    import time

    from classroom.models import Seat
    from games import services as games

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seats = list(
            Seat.objects.filter(table__session_id=session_id, participant__isnull=True).select_related("table__game")
        )
        if all(
            not games.seat_open(
                games.engine_for(s.table.game), games.engine_for(s.table.game).load(s.table.game.state), s.number
            )
            for s in seats
        ):
            return
        time.sleep(0.2)
    raise AssertionError("the bots' households are still on the road")


def _reports(session_id):
    from classroom.models import Session
    from scoring.models import Report
    from tests.scoring.test_reports import wait_for_reports

    status = wait_for_reports(Session.objects.get(pk=session_id))
    return status, list(Report.objects.filter(session_id=session_id).values_list("kind", "html"))


# How long the students may take to finish by tapping (a stuck tablet gives up sooner): each
# Tornado Alert! pile now waits out the class's reaction allowance for the children who let it go.
PLAY_SECONDS = {"tornado_alert": 300}


@pytest.mark.long
@pytest.mark.parametrize("scenario", SHORTEST)
def test_a_whole_lesson_with_the_defaults_runs_itself(scenario, browser, asgi_server, celery_worker):
    teacher = teacher_page(browser, asgi_server, answer_questions=False)
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Scenario").select_option(scenario)
    # The form says what each scenario is: ages, seats and length, in plain words.
    facts = teacher.locator(f".scenario-blurb[data-scenario='{scenario}'] .scenario-facts")
    expect(facts).to_contain_text("seats per table")
    expect(facts).to_contain_text("minutes of play")
    expect(teacher.get_by_label("Seconds before an idle seat is played")).to_have_value("120")
    assert not PROGRAM_WORDS.search(teacher.locator(".form-card form").inner_text())
    if SHORTEST[scenario]:
        teacher.get_by_text("Scenario options").click()
        for name, value in SHORTEST[scenario].items():
            teacher.locator(f"select[name='{scenario}__{name}']").select_option(value)
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    session_id = int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))
    expect(teacher.get_by_role("link", name="Test a tablet before class")).to_be_visible()

    projector = teacher.context.new_page()
    projector.set_viewport_size(PROJECTOR)
    projector.goto(f"/sessions/{session_id}/screen")
    # The test server listens on loopback: the projector says so, with the command to serve the class.
    expect(projector.get_by_role("alert")).to_contain_text("HOST=0.0.0.0 make run")

    tablets = {name: tablet(browser, asgi_server, code, name, locale) for name, locale in STUDENTS.items()}
    teacher.get_by_role("button", name="Approve all 3 waiting names").click()
    for name in STUDENTS:
        expect(projector.locator(".screen-names")).to_contain_text(name)
    shoot(projector, f"{scenario}-projector-lobby", full_page=False)

    # The before-check is part of the lobby, on by default.
    asked = {name: answer_check(page, session_id, name, "before") for name, page in tablets.items()}
    assert min(asked.values()) >= 5

    teacher.get_by_role("button", name="Start the game").click()  # all approved: no question
    for page in tablets.values():
        expect(page.locator("#screen .lobby")).to_have_count(0)
        expect(page.locator("#check-link")).to_be_hidden()  # the before-check closed at the start
    # Tablemates are named by their approved nicknames, not "Player 2".
    for name, page in tablets.items():
        for other in STUDENTS.keys() - {name}:
            expect(page.locator("#screen")).to_contain_text(other)
    for name, page in tablets.items():
        shoot(page, f"{scenario}-tablet-{STUDENTS[name][:2]}")
    # The game's one-minute "how to play" card is one tap away, in the student's language.
    cas = tablets["Cas"]
    cas.locator(f"a[href^='/lessons/{scenario}/how-to-play']").click()
    expect(cas.locator(".kit-how-to-play h1")).to_contain_text("Zo speel je")
    shoot(cas, f"{scenario}-how-to-play-nl")
    cas.locator(".kit-how-to-play a.primary").click()
    expect(cas.locator("#screen .lobby")).to_have_count(0)

    late = None
    if scenario == "evacuation":
        # A student who joins after the start never gets a finished household: once every bot's
        # household has arrived she waits, the dashboard offers her a new table, and her tablet
        # follows into a game of her own. (A bot still on the road keeps its seat for her:
        # test_late_arrival.py.) Her name waits at the top of the dashboard, not in the folded list.
        in_thread(_wait_until_bots_are_done, session_id)
        late = tablet(browser, asgi_server, code, "Dee", "en-US")
        teacher.get_by_role("region", name="1 waiting for you").get_by_role("button", name="Approve: Dee").click()
        teacher.get_by_role("button", name="Open a new table for 1 late student").click()
        expect(late.locator(TAPPERS[scenario].buttons).first).to_be_visible()
        expect(late.locator(TAPPERS[scenario].results)).to_have_count(0)

    players = dict(tablets) | ({"Dee": late} if late else {})
    play_by_tapping(scenario, players, session_id, seconds=PLAY_SECONDS.get(scenario, 600))
    shoot(projector, f"{scenario}-projector-end-of-play", full_page=False)
    # Every table has finished: the lesson ends by itself.
    expect(teacher.locator(".status-line .badge")).to_have_text("Ended", timeout=60_000)
    # Every move is credited to who made it: students' seats by the students, the rest by bots.
    credited = in_thread(_moves_by_seat, session_id)
    assert {actor for human, actor in credited if human} <= {"student", "system"}
    assert {actor for human, actor in credited if not human} <= {"bot", "system"}

    teacher.get_by_role("link", name="Class debrief").click()
    expect(teacher.get_by_role("heading", level=1)).to_be_visible()
    assert not PROGRAM_WORDS.search(teacher.locator("main").inner_text())
    teacher.set_viewport_size(PROJECTOR)
    shoot(teacher, f"{scenario}-debrief-1080p", full_page=False)

    # The after-check: the tablets follow the phase live, with no reload.
    teacher.goto(f"/sessions/{session_id}/kit/")
    teacher.get_by_role("button", name="Open the after-check").click()
    for page in tablets.values():
        expect(page.locator("#check-link")).to_be_visible()
    answer_check(tablets["Bea"], session_id, "Bea", "after")

    # The family plan, in the student's language, with no program words.
    plan = tablets["Cas"]
    plan.goto(f"/play/{session_id}/plan")
    expect(plan.locator("h1")).to_be_visible()
    assert not PROGRAM_WORDS.search(plan.locator("main").inner_text())
    shoot(plan, f"{scenario}-plan-nl")

    status, reports = in_thread(_reports, session_id)
    # the class packet and one report per student (their team's, where a table plays as one)
    assert status["failed"] == 0 and status["done"] == 1 + len(players), status
    assert {kind for kind, _html in reports} == {"class", "team" if get(scenario).team_play else "student"}
    for kind, html in reports:
        found = PROGRAM_WORDS.search(_text(html))
        assert not found, f"{kind} report shows {found.group(0)!r}"
    assert teacher.browser_dialogs == [] and all(page.browser_dialogs == [] for page in players.values())
