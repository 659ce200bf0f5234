"""Accessibility in real Chromium: axe-core on every page and every phase of every game screen,
where focus goes after each action, and what the live region says."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import (
    announcements,
    check_axe,
    expect_focus_in,
    focus_is_visible,
    focused,
    press_until,
    watch_announcements,
)
from tests.browser.lesson import create_session, student_page, teacher_page
from tests.conftest import in_thread

pytestmark = pytest.mark.browser
OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def test_axe_finds_nothing_serious_on_the_teacher_and_join_pages(browser, asgi_server):
    """Sign-in, the sessions list, the new-session form (with its errors), the dashboard in the
    lobby, the projector, the join form (with its errors) and the student's lobby."""
    anonymous = browser.new_context(base_url=asgi_server).new_page()
    for url in ("/accounts/login/", "/join", "/check", "/accounts/signup/", "/accounts/password_reset/"):
        anonymous.goto(url)
        check_axe(anonymous, url)
    anonymous.goto("/join")
    anonymous.get_by_role("button", name="Join").click()
    expect(anonymous.locator(".errors").first).to_be_visible()
    check_axe(anonymous, "/join with errors")
    # An error and a help text are linked to their field by ids that exist.
    described = anonymous.get_by_label("Lesson code").get_attribute("aria-describedby")
    assert described and all(anonymous.locator(f"[id='{i}']").count() == 1 for i in described.split())

    teacher = teacher_page(browser, asgi_server)
    check_axe(teacher, "the sessions list")
    teacher.get_by_role("link", name="New session").click()
    check_axe(teacher, "the new-session form")
    group = teacher.get_by_role("group", name="Nicknames")
    expect(group).to_be_visible()
    teacher.get_by_label("Seats per table").fill("9")
    teacher.get_by_role("button", name="Create session").click()
    expect(teacher.locator(".has-error")).to_have_count(1)
    check_axe(teacher, "the new-session form with an error")
    seats = teacher.get_by_label("Seats per table")
    expect(seats).to_be_focused()  # focus goes to the first field in error, which its error describes
    assert seats.get_attribute("aria-invalid") == "true"
    error_id = next(i for i in seats.get_attribute("aria-describedby").split() if i.endswith("_error"))
    expect(teacher.locator(f"[id='{error_id}']")).to_contain_text("6")

    teacher.goto("/")
    code, session_id = create_session(teacher, bots=True)
    check_axe(teacher, "the dashboard in the lobby")
    student = student_page(browser, asgi_server, code, "Ana")
    check_axe(student, "the student's lobby")
    expect(teacher.locator(".roster")).to_contain_text("Ana")
    check_axe(teacher, "the dashboard with a student")
    teacher.goto(f"/sessions/{session_id}/screen")
    check_axe(teacher, "the projector in the lobby")
    teacher.goto(f"/sessions/{session_id}/delete")
    check_axe(teacher, "the delete-session page")
    teacher.goto("/accounts/password_change/")
    check_axe(teacher, "the change-password page")


def test_the_language_picker_fits_a_320_px_screen_in_every_language(browser, asgi_server):
    """At 320 px (a phone, or a tablet at 240 % zoom) "Change language" wraps inside the screen."""
    page = browser.new_context(base_url=asgi_server, viewport={"width": 320, "height": 640}).new_page()
    for lang in ("en", "es", "nl"):
        page.goto("/join")
        page.locator("#language-picker").select_option(lang)
        page.locator(".language-picker button[type=submit]").click()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        assert page.evaluate(OVERFLOW) <= 1, f"{lang}: the page scrolls sideways"
        right = page.locator(".language-picker button[type=submit]").evaluate("(b) => b.getBoundingClientRect().right")
        assert right <= 320, f"{lang}: the button ends at {right} px"


def test_a_whole_evacuation_turn_by_keyboard_with_axe_and_the_live_region(browser, asgi_server):
    """A student plays by keyboard alone: after each action focus is on the next sensible control
    (never on the page), axe finds nothing serious in each phase, and the live region says what
    each move did."""
    teacher = teacher_page(browser, asgi_server)
    code, session_id = create_session(teacher, bots=True)
    student = student_page(browser, asgi_server, code, "Ana")
    teacher.get_by_role("button", name="Start the game").click()
    expect(student.locator("button.evac-act:not([disabled])").first).to_be_visible()
    check_axe(student, "evacuation: the first turn")
    check_axe(teacher, "the dashboard while playing")
    watch_announcements(student)

    # Choose a destination by keyboard: focus moves on to the "why?" question's first answer.
    press_until(student, "button.evac-act[data-key*='set_destination']")
    student.keyboard.press("Enter")
    expect_focus_in(student, ".evac-prompt button.evac-act")
    expect(student.locator(".evac-prompt")).to_be_visible()
    check_axe(student, "evacuation: the why? question")
    assert any("Why?" in said for said in announcements(student)), announcements(student)
    assert focus_is_visible(student)

    # Answer it: focus goes on to the turn's choices, not to the page or the map tools.
    student.keyboard.press("Enter")
    expect(student.locator(".evac-prompt")).to_have_count(0)
    expect_focus_in(student, ".evac-actions button.evac-act")

    # Wait and watch the news: the live region says the move's event; focus stays in the choices.
    said = len(announcements(student))
    press_until(student, """button.evac-act[data-key='{"type":"wait"}']""")
    student.keyboard.press("Enter")
    expect_focus_in(student, ".evac-actions button.evac-act")
    student.wait_for_function("(n) => window.__announced.length > n", arg=said)
    feed_top = student.locator(".evac-feed li").first.inner_text().split("\n")[-1].strip()
    assert any(feed_top in text for text in announcements(student)[said:]), (feed_top, announcements(student))

    # Drive away from home (the confirm dialog is accepted): focus is never lost.
    press_until(student, "button.evac-act[data-key*='\"drive\"']")
    student.keyboard.press("Enter")
    expect_focus_in(student, "#play")
    assert focused(student) != "body"
    check_axe(student, "evacuation: on the road")

    # Paused and resumed: the pause notice is said and then cleared.
    teacher.get_by_role("button", name="Pause").click()
    expect(student.locator("#notice")).to_contain_text("paused")
    check_axe(student, "evacuation: paused")
    teacher.get_by_role("button", name="Resume").click()
    expect(student.locator("#notice")).to_be_hidden()

    teacher.get_by_role("button", name="Finish with bots").click()
    expect(student.locator(".evac-results")).to_be_visible()
    check_axe(student, "evacuation: results")
    expect(teacher.get_by_role("heading", name="Class ranking (bots not ranked)")).to_be_visible()
    check_axe(teacher, "the dashboard at the end")
    # 200 % zoom of a 1366 x 650 screen (683 x 325 CSS px): the map keeps a usable size and
    # nothing needs sideways scrolling, on the tablet and on the class debrief.
    student.set_viewport_size({"width": 683, "height": 325})
    assert student.locator(".evac-map").bounding_box()["height"] >= 250
    assert student.evaluate(OVERFLOW) <= 1
    teacher.goto(f"/sessions/{session_id}/debrief/")
    check_axe(teacher, "the evacuation class debrief")
    teacher.set_viewport_size({"width": 683, "height": 325})
    assert teacher.evaluate(OVERFLOW) <= 1
    teacher.set_viewport_size({"width": 1366, "height": 768})
    teacher.goto(f"/sessions/{session_id}/screen")
    check_axe(teacher, "the projector at the end")


def stormfury_session(teacher):
    teacher.goto("/")
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Scenario").select_option("stormfury")
    teacher.get_by_label("Seats per table").fill("2")
    teacher.get_by_label("A bot plays for a student who stays idle").set_checked(False)
    teacher.get_by_label("Game number (optional)").fill("7")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    session_id = int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))
    return code, session_id


def test_a_whole_stormfury_turn_by_keyboard_with_axe_and_the_live_region(browser, asgi_server):
    """Pick a role, draw, move and end the turn by keyboard alone, with focus on the next sensible
    control after each step; the live region tells the storm's move; axe is clean in each phase."""
    teacher = teacher_page(browser, asgi_server)
    code, session_id = stormfury_session(teacher)
    student = student_page(browser, asgi_server, code, "Maya")
    teacher.get_by_role("button", name="Start the game").click()
    expect(student.locator("button.sf-act:not([disabled])").first).to_be_visible()
    check_axe(student, "Stormfury: picking roles")
    watch_announcements(student)

    press_until(student, "button.sf-act[data-key*='pick_role']")
    student.keyboard.press("Enter")
    expect(student.locator(".sf-roles")).to_have_count(0)
    expect_focus_in(student, ".sf-actions button")
    check_axe(student, "Stormfury: the turn's first step")
    assert focus_is_visible(student)

    # Draw if the turn starts with a draw; focus stays in the actions.
    if student.locator("button.sf-act[data-key*='\"draw\"']:not([disabled])").count():
        press_until(student, "button.sf-act[data-key*='\"draw\"']")
        student.keyboard.press("Enter")
        expect_focus_in(student, ".sf-actions button")

    # Open "Move": focus goes into its choices; moving keeps it in the actions.
    if student.locator("button[data-key='kind-move']:not([disabled])").count():
        press_until(student, "button[data-key='kind-move']")
        student.keyboard.press("Enter")
        expect_focus_in(student, ".sf-options button.sf-act")
        check_axe(student, "Stormfury: the move choices")
        student.keyboard.press("Enter")
        expect_focus_in(student, ".sf-actions button")
        student.wait_for_function("() => (window.__announced || []).some((t) => t.includes('moved to'))")

    # End the turn (the confirm dialog is accepted): the bot's seat ends too, the class storm
    # moves, and the live region says what it did.
    for _ in range(12):
        if student.locator("button.sf-act[data-key*='end_turn']:not([disabled])").count():
            break
        if student.locator('button.sf-act[data-key*=\'"type":"discard"\']:not([disabled])').count():
            press_until(student, 'button.sf-act[data-key*=\'"type":"discard"\']:not([disabled])', limit=80)
        else:
            press_until(student, "button[data-key='kind-discard']", limit=80)
        student.keyboard.press("Enter")
        student.wait_for_timeout(400)
    press_until(student, "button.sf-act[data-key*='end_turn']", limit=80)
    student.keyboard.press("Enter")
    student.wait_for_function(
        "() => (window.__announced || []).some((t) => t.includes('The storm moved'))", timeout=20_000
    )
    assert focused(student) != "body"
    check_axe(student, "Stormfury: after the storm")

    teacher.get_by_role("button", name="Finish with bots").click()
    expect(student.locator(".sf-results")).to_be_visible()
    check_axe(student, "Stormfury: results")
    teacher.goto(f"/sessions/{session_id}/debrief/")
    check_axe(teacher, "the Stormfury class debrief")


def test_the_dashboard_keeps_focus_announces_alerts_and_moves_only_on_the_button(browser, asgi_server):
    """The teacher's focus survives students joining and moving; browsing the "Move to table"
    list with arrow keys moves nobody until Move is pressed; "asks for help" is announced."""
    from classroom.models import Seat

    teacher = teacher_page(browser, asgi_server)
    code, session_id = create_session(teacher, bots=False, seats=2)
    students = {name: student_page(browser, asgi_server, code, name) for name in ("Ana", "Ben")}
    expect(teacher.locator(".roster")).to_contain_text("Ben")

    def table_of(name):
        return in_thread(
            lambda: Seat.objects.get(table__session_id=session_id, participant__nickname=name).table.number
        )

    before = table_of("Ana")

    select = teacher.get_by_label("Move to table: Ana")
    select.focus()
    teacher.keyboard.press("ArrowDown")
    teacher.wait_for_timeout(1000)
    assert table_of("Ana") == before
    # A student joining changes the dashboard: focus is still on the same list, and what did not
    # change (the join panel, Ana's row) is the same node as before, so a screen reader keeps its place.
    teacher.evaluate(
        "() => { window.__kept = [document.querySelector('.join-panel'), document.querySelector('.roster-row')]; }"
    )
    student_page(browser, asgi_server, code, "Chloe")
    expect(teacher.locator(".roster")).to_contain_text("Chloe")
    expect_focus_in(teacher, "select[aria-label='Move to table: Ana']")
    assert teacher.evaluate("() => window.__kept[0] === document.querySelector('.join-panel')"), (
        "the join panel was redrawn"
    )
    assert teacher.evaluate("() => window.__kept[1] === document.querySelector('.roster-row')"), "Ana's row was redrawn"
    teacher.get_by_role("button", name="Move Ana").click()
    expect(teacher.get_by_label("Move to table: Ana")).not_to_have_value(str(before))

    teacher.get_by_role("button", name="Start the game").click()
    watch_announcements(teacher)
    expect(students["Ben"].locator(".evac-actions")).to_be_visible()
    students["Ben"].get_by_role("button", name="Ask the teacher").click()
    teacher.wait_for_function("() => (window.__announced || []).some((t) => t.includes('Ben asks for help'))")
    check_axe(teacher, "the dashboard with an alert")
    done = teacher.get_by_role("button", name="Done: Ben")
    done.focus()
    expect_focus_in(teacher, ".alerts")


def test_the_turn_timer_warns_offers_more_time_and_says_when_the_bot_moved(browser, asgi_server):
    """With a 15-second timer both students are warned at once; Ana asks for more time by
    keyboard and keeps her turn; Ben does not, and his live region says the bot moved for him."""
    from classroom.models import Seat
    from games.models import Game, Move

    teacher = teacher_page(browser, asgi_server)
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Seats per table").fill("2")
    teacher.get_by_label("Fill empty seats with bots").set_checked(False)
    teacher.get_by_label("A bot plays for a student who stays idle").set_checked(True)
    teacher.get_by_label("Seconds before an idle seat is played").fill("15")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    session_id = int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))
    ana, ben = (student_page(browser, asgi_server, code, name) for name in ("Ana", "Ben"))
    for page in (ana, ben):
        watch_announcements(page)
    teacher.get_by_role("button", name="Start the game").click()
    # Each student waits once; their clocks run from the first turn.
    for page in (ana, ben):
        page.locator("""button.evac-act[data-key='{"type":"wait"}']""").click()
        page.wait_for_function("() => !document.querySelector('button.evac-act[disabled]')")
    more = ana.get_by_role("button", name="More time")
    expect(more).to_be_visible()
    ana.wait_for_function("() => (window.__announced || []).some((t) => t.includes('A bot plays for you in'))")
    check_axe(ana, "evacuation: the timer's warning")
    press_until(ana, "button[data-key='more-time']")
    ana.keyboard.press("Enter")
    expect(more).to_be_hidden()
    assert focused(ana) != "body"
    assert any("more time" in t for t in announcements(ana))

    ben.wait_for_function(
        "() => (window.__announced || []).some((t) => t.includes('a bot moved for you'))", timeout=30_000
    )

    def seat_of(name):
        return in_thread(lambda: Seat.objects.get(table__session_id=session_id, participant__nickname=name).number)

    def actors(seat):
        return set(
            in_thread(
                lambda: list(
                    Move.objects.filter(game__table__session_id=session_id, seat=seat).values_list("actor", flat=True)
                )
            )
        )

    assert actors(seat_of("Ben")) == {Move.Actor.STUDENT, Move.Actor.TIMER}
    assert actors(seat_of("Ana")) == {Move.Actor.STUDENT}  # her fresh turn is still running
    game = in_thread(lambda: Game.objects.get(table__session_id=session_id))
    assert game.timers[str(seat_of("Ana"))]


def finished_lesson(scenario):
    """A lesson of two students and bots played to the end by bots and ended: reports queued."""
    from classroom import services as classroom
    from games import services as games
    from tests.factories import join_students, make_session

    session = make_session(scenario=scenario, seats_per_table=2, turn_timer=False)
    devices = join_students(session, 2)
    classroom.start(session=session)
    for table in session.tables.all():
        games.finish_with_bots(game_id=table.game_id)
    classroom.end(session=session)
    session.refresh_from_db()
    return session, devices


@pytest.mark.parametrize("scenario", ["evacuation", "stormfury"])
def test_axe_finds_nothing_serious_on_the_reports(browser, asgi_server, celery_worker, scenario):
    """The teacher's reports page, every report page (a student's or team's, the class packet)
    and the student's own report link, once the worker has written them."""
    from scoring import services as scoring
    from scoring.models import Report
    from tests.factories import PASSWORD
    from tests.scoring.test_reports import wait_for_reports

    session, devices = in_thread(finished_lesson, scenario)
    status = in_thread(wait_for_reports, session)
    assert status["failed"] == 0, status
    teacher = browser.new_context(base_url=asgi_server).new_page()
    teacher.goto("/accounts/login/")
    teacher.get_by_label("E-mail address").fill(in_thread(lambda: session.teacher.email))
    teacher.get_by_label("Password").fill(PASSWORD)
    teacher.get_by_role("button", name="Sign in").click()
    teacher.goto(f"/sessions/{session.pk}/debrief/reports/")
    expect(teacher.get_by_role("heading", name=re.compile("Debrief reports"))).to_be_visible()
    check_axe(teacher, f"{scenario}: the reports page")
    for report in in_thread(lambda: list(Report.objects.filter(session=session).values_list("pk", "kind"))):
        answer = teacher.goto(f"/debrief/reports/{report[0]}/")
        assert answer.ok and "/debrief/reports/" in teacher.url, teacher.url
        check_axe(teacher, f"{scenario}: the {report[1]} report")
    link = in_thread(scoring.student_report_url, devices[0][0])
    student = browser.new_context(base_url=asgi_server).new_page()
    assert student.goto(link.removeprefix(scoring.settings.PUBLIC_BASE_URL)).status == 200
    check_axe(student, f"{scenario}: a student's report link")


@pytest.mark.parametrize("lang", ["es", "nl"])
def test_axe_finds_nothing_serious_on_every_game_screen_in_spanish_and_dutch(browser, asgi_server, lang):
    """Every scenario's start, game under way and end, with its words from the tablet's own
    catalogue (/jsi18n/ in Spanish or Dutch; the renderer contract checks them in English)."""
    import json

    from scenarios import registry
    from tests.browser.test_renderer_contract import HARNESS, screens

    harness = HARNESS.replace('<html lang="en">', f'<html lang="{lang}">').replace(
        '<script type="module">', '<script src="/jsi18n/"></script>\n<script type="module">'
    )
    context = browser.new_context(base_url=asgi_server, viewport={"width": 768, "height": 1024}, locale=lang)
    context.add_cookies([{"name": "django_language", "value": lang, "url": asgi_server}])
    page = context.new_page()
    for key in registry.keys():
        scenario = registry.get(key)
        fixtures, teacher = screens(scenario)
        for name, msg in fixtures.items():
            html = harness % {
                "css": scenario.stylesheet,
                "js": scenario.renderer,
                "fixture": json.dumps({"board": scenario.engine.board(), "message": msg, "teacher": teacher}).replace(
                    "</", "<\\/"
                ),
            }
            page.route(
                f"{asgi_server}/renderer-harness",
                (
                    lambda body: (
                        lambda route: route.fulfill(status=200, content_type="text/html; charset=utf-8", body=body)
                    )
                )(html),
            )
            page.goto("/renderer-harness")
            page.wait_for_selector("body[data-done='1']", timeout=10_000)
            where = f"{key} {name} in {lang}"
            assert page.evaluate("() => !!(window.django && window.django.catalog)"), f"{where}: no catalogue"
            check_axe(page, where)
            page.unroute(f"{asgi_server}/renderer-harness")
    context.close()


@pytest.mark.parametrize("lang", ["es", "nl"])
def test_axe_finds_nothing_serious_on_every_page_in_spanish_and_dutch(browser, asgi_server, lang):
    """The pages of the English runs above, in Spanish and in Dutch: the sign-in, join, tablet
    check, sign-up and password pages, and a teacher's sessions list, new-session form,
    dashboard, projector, lesson kit, guide, how-to-play card and delete page."""
    anonymous = browser.new_context(base_url=asgi_server, locale=lang).new_page()
    for url in ("/accounts/login/", "/join", "/check", "/accounts/signup/", "/accounts/password_reset/"):
        anonymous.goto(url)
        expect(anonymous.locator("html")).to_have_attribute("lang", lang)
        check_axe(anonymous, f"{url} ({lang})")

    teacher = teacher_page(browser, asgi_server)
    _code, session_id = create_session(teacher, bots=True)
    host = re.sub(r"^https?://|:\d+$", "", asgi_server)
    teacher.context.add_cookies([{"name": "django_language", "value": lang, "domain": host, "path": "/"}])
    for url, what in (
        ("/", "the sessions list"),
        ("/sessions/new/", "the new-session form"),
        (f"/sessions/{session_id}/", "the dashboard"),
        (f"/sessions/{session_id}/screen", "the projector"),
        (f"/sessions/{session_id}/kit/", "the lesson kit"),
        ("/lessons/evacuation/guide", "the guide"),
        ("/lessons/evacuation/how-to-play", "the how-to-play card"),
        (f"/sessions/{session_id}/delete", "the delete-session page"),
        ("/accounts/password_change/", "the change-password page"),
    ):
        teacher.goto(url)
        expect(teacher.locator("html")).to_have_attribute("lang", lang)
        check_axe(teacher, f"{what} ({lang})")
