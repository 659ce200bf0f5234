"""A tablet that never taps: its seat's clock runs from its first turn, with the spoken warning,
and once the stand-in has played for it the teacher's dashboard says that seat is played by the
stand-in (the seat of the student who plays on is not)."""

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import watch_announcements
from tests.browser.lesson import student_page, teacher_page

pytestmark = pytest.mark.browser


def test_a_seat_never_tapped_is_played_by_the_stand_in_and_shown_so_to_the_teacher(browser, asgi_server):
    teacher = teacher_page(browser, asgi_server)
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Seats per table").fill("2")
    teacher.get_by_label("Fill empty seats with bots").set_checked(False)
    teacher.get_by_label("A bot plays for a student who stays idle").set_checked(True)
    teacher.get_by_label("Seconds before an idle seat is played").fill("30")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    ana, ben = (student_page(browser, asgi_server, code, name) for name in ("Ana", "Ben"))
    watch_announcements(ben)
    teacher.get_by_role("button", name="Start the game").click()
    ana.locator("""button.evac-act[data-key='{"type":"wait"}']""").click()
    # Ben never taps: his first turn's clock warns him as any turn's does ...
    ben.wait_for_function("() => (window.__announced || []).some((t) => t.includes('A bot plays for you in'))")
    expect(ben.get_by_role("button", name="More time")).to_be_visible()
    # Ana plays on (her next tap starts her next turn's clock afresh, so no stand-in plays for her).
    ana.locator("button.evac-act:not([disabled])").first.click()
    # ... and once it has run out the stand-in plays for him, which the teacher sees.
    ben_seat = teacher.locator(".table-card .seats li", has_text="Ben")
    expect(ben_seat.locator(".badge.stand-in")).to_have_text("played by the stand-in", timeout=45_000)
    expect(teacher.locator(".table-card .seats li", has_text="Ana").locator(".badge.stand-in")).to_have_count(0)
