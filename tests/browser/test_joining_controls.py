"""The teacher's joining controls in a real browser: the cap on the new-session form, and the
session page's cap and "Lock joining" button, at tablet size."""

from playwright.sync_api import expect

from tests.browser.shots import shoot
from tests.conftest import in_thread
from tests.factories import PASSWORD, join_students, make_teacher


def test_a_teacher_sets_the_cap_and_locks_joining(page):
    """The new-session form takes the most students; the session page shows it, changes it and
    locks joining, and says so; a student's tablet is then told the lesson is closed."""
    teacher = in_thread(make_teacher)
    page.goto("/accounts/login/")
    page.get_by_label("E-mail address").fill(teacher.email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto("/sessions/new/")
    page.get_by_label("Most students who may join").fill("30")
    shoot(page, "session_new")
    page.get_by_role("button", name="Create session").click()
    expect(page.get_by_text("Open: up to 30 students may join.")).to_be_visible()
    session_url = page.url
    session_id = int(session_url.rstrip("/").rsplit("/", 1)[1])
    from classroom.models import Session

    session = in_thread(Session.objects.get, pk=session_id)
    in_thread(join_students, session, 3)
    page.reload()
    cap = page.get_by_role("spinbutton", name="Most students who may join")
    cap.fill("32")
    cap.press("Enter")
    expect(page.get_by_text("Open: up to 32 students may join.")).to_be_visible()
    page.get_by_role("button", name="Lock joining").click()
    expect(page.get_by_text("Joining is locked: nobody new can join.")).to_be_visible()
    expect(page.get_by_role("button", name="Open joining again")).to_be_visible()
    shoot(page, "session_locked")
    page.set_viewport_size({"width": 390, "height": 844})
    shoot(page, "session_locked_phone")
    page.set_viewport_size({"width": 768, "height": 1024})

    tablet = page.context.browser.new_context(
        viewport={"width": 768, "height": 1024}, base_url=session_url.split("/sessions")[0]
    )
    student = tablet.new_page()
    student.goto(f"/join/{session.join_code}")
    student.get_by_label("Nickname").fill("Late")
    student.get_by_role("button", name="Join").click()
    expect(student.get_by_text("Your teacher has closed this lesson to new students.")).to_be_visible()
    shoot(student, "join_locked")
    tablet.close()


def test_a_teacher_turns_a_tablet_away_knowing_it_is_the_tablets_cookie(page):
    """Where the teacher turns a student's tablet away, the page says that a tablet whose browser
    data is cleared can join again, and to lock joining; once locked, nobody new joins, whatever
    the tablet's cookies say, and the tablet turned away is not let back in either."""
    from django.test import Client

    from classroom.models import Participant, Session

    teacher = in_thread(make_teacher)
    page.goto("/accounts/login/")
    page.get_by_label("E-mail address").fill(teacher.email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto("/sessions/new/")
    page.get_by_role("button", name="Create session").click()
    session_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    session = in_thread(Session.objects.get, pk=session_id)
    rude = Client(REMOTE_ADDR="10.20.0.1")
    join = {"code": session.join_code, "nickname": "Rude", "players": 1}
    assert in_thread(rude.post, "/join", join).status_code == 302
    page.reload()

    page.get_by_role("button", name="Turn tablet away: Rude").click()
    question = page.get_by_role("alertdialog")
    expect(question).to_contain_text("whose browser data is cleared can join again")
    expect(question).to_contain_text("lock joining")
    question.get_by_role("button", name="Turn tablet away").click()
    expect(page.get_by_role("button", name="Turn tablet away: Rude")).to_have_count(0)
    assert not in_thread(Participant.objects.filter(session=session).exists)

    page.get_by_role("button", name="Lock joining").click()
    expect(page.get_by_text("Joining is locked: nobody new can join.")).to_be_visible()
    for tablet in (rude, Client(REMOTE_ADDR="10.20.0.1")):  # its own cookie, and cleared cookies
        refused = in_thread(tablet.post, "/join", {**join, "nickname": "Polite"})
        assert refused.status_code == 200 and "closed this lesson" in refused.content.decode()
    assert not in_thread(Participant.objects.filter(session=session).exists)
