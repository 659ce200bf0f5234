"""A whole lesson of each scenario as a room lives it, on the form's defaults: children who read
each choice for 8–15 s before tapping, in three languages; one tablet whose child never taps; one
that joins two minutes after the start. Every clock of the lesson (turn timers, bots' steps,
storm timers, race windows) runs five times faster (``games.clock``), so 25 minutes of the
lesson's play take 5 of the test's (the test's own time counts at its real length:
``ChildsPace.lesson_seconds``).

What must hold, as the teacher would see it: the never-tapping seat is played by its stand-in
and the dashboard says so, the table never waits for it for good; the late child's name is
counted on the projector until the teacher lets her in, and she plays a seat of the running game
(the one a bot kept for her), not a new table; every game ends within 25 minutes of play and the
session ends by itself."""

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.lesson import ChildsPace, tablet, teacher_page
from tests.browser.shots import shoot
from tests.browser.test_late_arrival import _games
from tests.browser.test_late_arrival import _seat_of as _where
from tests.conftest import in_thread

pytestmark = [pytest.mark.browser, pytest.mark.long]

SPEED = 5
PLAY_MINUTES = 25
LATE_SECONDS = 120
PLAYING = {"Ana": "en-US", "Bea": "nl-NL"}
NEVER_TAPS = ("Nia", "es-US")
LATE = ("Dee", "es-US")
PROJECTOR = {"width": 1920, "height": 1080}


def _actors(game_id, seat):
    """Who made each of the seat's moves, in order."""
    from games.models import Move

    return list(Move.objects.filter(game_id=game_id, seat=seat).order_by("seq").values_list("actor", flat=True))


@pytest.mark.parametrize("scenario", ["evacuation", "stormfury", "resort", "bermuda", "tornado_alert"])
def test_a_lesson_at_a_childs_pace_ends_in_time_for_every_child(
    scenario, browser, asgi_server, celery_worker, settings
):
    # The served install's clocks, all run five times faster together.
    settings.LESSON_CLOCK_SPEED = SPEED
    settings.BOT_STEP_SECONDS, settings.KEEPER_STEP_SECONDS = 1.0, 12.0

    teacher = teacher_page(browser, asgi_server)
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Scenario").select_option(scenario)
    expect(teacher.get_by_label("A bot plays for a student who stays idle")).to_be_checked()
    expect(teacher.get_by_label("Fill empty seats with bots")).to_be_checked()
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    session_id = int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))
    projector = teacher.context.new_page()
    projector.set_viewport_size(PROJECTOR)
    projector.goto(f"/sessions/{session_id}/screen")

    pages = {name: tablet(browser, asgi_server, code, name, locale) for name, locale in PLAYING.items()}
    nia = tablet(browser, asgi_server, code, *NEVER_TAPS)
    teacher.get_by_role("button", name="Approve all 3 waiting names").click()
    teacher.get_by_role("button", name="Start the game").click()
    expect(teacher.locator(".status-line .badge")).to_have_text("Playing")
    pace = ChildsPace(scenario, session_id, SPEED)
    started, games_at_start = time.monotonic(), in_thread(_games, session_id)
    seen = {"late": None, "stand_in": False}

    def on_the_way():
        if seen["late"] is None and pace.lesson_seconds(started) >= LATE_SECONDS:
            dee = seen["late"] = tablet(browser, asgi_server, code, *LATE)
            # The class sees a late child is waiting (never her name before the teacher approves it) ...
            expect(projector.locator(".projector-late")).to_contain_text("1 student is waiting to be let in")
            shoot(projector, f"{scenario}-projector-childs-pace", full_page=False)
            # ... and the teacher lets her in from the top of the dashboard, into a seat a bot kept.
            teacher.get_by_role("region", name="1 waiting for you").get_by_role("button", name="Approve: Dee").click()
            expect(projector.locator(".projector-late")).to_have_count(0)
            pages[LATE[0]] = dee
        nia_seat = teacher.locator(".table-card .seats li", has_text=NEVER_TAPS[0]).locator(".badge.stand-in")
        seen["stand_in"] = seen["stand_in"] or nia_seat.count() > 0

    pace.play(pages, on_the_way=on_the_way, seconds=PLAY_MINUTES * 60 / SPEED + 60)
    minutes = pace.lesson_seconds(started) / 60
    print(f"{scenario}: every game ended after {minutes:.1f} minutes of the lesson's play")
    assert minutes <= PLAY_MINUTES, f"{scenario} took {minutes:.1f} minutes of play"
    expect(teacher.locator(".status-line .badge")).to_have_text("Ended")  # the session ended by itself
    expect(nia.locator(pace.tapper.results)).to_be_visible()  # her game ended with the table's

    # The never-tapping seat: every one of its moves the stand-in's, and the teacher was told.
    assert seen["stand_in"], "the dashboard never showed the seat played by the stand-in"
    game_id, seat = in_thread(_where, session_id, NEVER_TAPS[0])
    assert set(in_thread(_actors, game_id, seat)) == {"timer"}
    # The late child played a seat of the game running since the start: the bot's moves, then hers.
    assert seen["late"] is not None, "the late child never came"
    game_id, seat = in_thread(_where, session_id, LATE[0])
    assert in_thread(_games, session_id) == games_at_start and game_id in games_at_start
    actors = in_thread(_actors, game_id, seat)
    assert "student" in actors, actors
    first = actors.index("student")
    assert set(actors[:first]) <= {"bot"} and "bot" not in actors[first:], actors
