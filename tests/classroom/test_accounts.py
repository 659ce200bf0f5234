"""Teacher accounts: sign-up by e-mail link, published passwords, throttling, idle sessions,
and open dashboards closing when their teacher signs out or changes password."""

import re
import secrets
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session as StoredSession
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom import accounts
from classroom.models import Teacher
from tests.factories import PASSWORD, make_teacher

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "pw-" + secrets.token_urlsafe(12)


def outbox():
    """The e-mails sent so far, once the mail thread has sent what it was handed."""
    accounts.mail_sent()
    return mail.outbox


def link_in(message) -> str:
    return re.search(r"https?://[^/\s]+(/accounts/signup/\S+/)", message.body).group(1)


def test_signup_by_e_mail_link_creates_teacher_and_signs_in(client):
    """A new teacher gives an e-mail address, gets a link, chooses a password there and lands on
    their home page signed in; the link works once."""
    response = client.post(reverse("signup"), {"email": "New.Teacher@School.test"})
    assert response.status_code == 200
    assert "We sent a message to new.teacher@school.test" in response.content.decode()
    assert not Teacher.objects.get(email="new.teacher@school.test").is_active
    assert len(outbox()) == 1 and outbox()[0].to == ["new.teacher@school.test"]

    link = link_in(outbox()[0])
    form = client.get(link, follow=True)
    assert "Choose your password" in form.content.decode()
    answer = client.post(
        form.redirect_chain[-1][0], {"new_password1": PASSWORD, "new_password2": PASSWORD}, follow=True
    )
    assert answer.redirect_chain[-1][0] == reverse("classroom:home")
    assert answer.context["user"].is_authenticated
    assert b"No sessions yet" in answer.content
    assert Teacher.objects.get(email="new.teacher@school.test").is_active
    assert "too old" in Client().get(link, follow=True).content.decode()


def test_signup_answers_the_same_whether_or_not_the_address_has_an_account(client):
    """Nobody learns from sign-up whether a teacher's address is registered: the page is the
    same; the owner of an existing account gets a note by e-mail, and nothing changes."""
    make_teacher(email="ms.rivera@school.test")
    known = client.post(reverse("signup"), {"email": "MS.Rivera@school.test"})
    unknown = client.post(reverse("signup"), {"email": "mr.nobody@school.test"})
    assert known.status_code == unknown.status_code == 200

    def page(response, email):
        text = response.content.decode().replace(email, "EMAIL")
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)

    assert page(known, "ms.rivera@school.test") == page(unknown, "mr.nobody@school.test")
    assert Teacher.objects.get(email="ms.rivera@school.test").check_password(PASSWORD)
    assert "has one already" in outbox()[0].body


def test_signup_can_be_closed_or_limited_to_a_school_domain(client, settings):
    settings.TEACHER_SIGNUP = "closed"
    page = client.get(reverse("signup")).content.decode()
    assert "New teacher accounts cannot be created on this server" in page
    client.post(reverse("signup"), {"email": "someone@school.test"})
    assert not Teacher.objects.exists() and not outbox()

    settings.TEACHER_SIGNUP = "school.test, district.test"
    refused = client.post(reverse("signup"), {"email": "someone@gmail.example"})
    assert "only for this school&#x27;s e-mail addresses" in refused.content.decode()
    client.post(reverse("signup"), {"email": "someone@district.test"})
    assert list(Teacher.objects.values_list("email", flat=True)) == ["someone@district.test"]


def test_wrong_password_gets_clear_message(client):
    """A wrong password does not sign in and says so."""
    make_teacher(email="t@school.test")
    response = client.post(reverse("login"), {"username": "t@school.test", "password": "nope-nope-nope"})
    assert response.status_code == 200
    assert "Please enter a correct e-mail address and password" in response.content.decode()
    assert not response.wsgi_request.user.is_authenticated


def test_a_published_password_never_signs_in(client):
    """The old demo password, printed by every `make run`, does not sign in even where an old
    database still holds it."""
    teacher = make_teacher(email="demo@stormwise.test")
    teacher.set_password("hurricane-demo-2026")
    teacher.save()
    response = client.post(reverse("login"), {"username": "demo@stormwise.test", "password": "hurricane-demo-2026"})
    assert not response.wsgi_request.user.is_authenticated


def test_home_needs_sign_in(client):
    """The teacher home page sends a visitor to sign in."""
    response = client.get(reverse("classroom:home"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_password_change(client):
    """A signed-in teacher changes their password and can sign in with the new one only."""
    teacher = make_teacher()
    client.force_login(teacher)
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        follow=True,
    )
    assert b"Password changed" in response.content
    teacher.refresh_from_db()
    assert teacher.check_password(NEW_PASSWORD) and not teacher.check_password(PASSWORD)


# --- Throttling, with the in-memory cache of the embedded mode and with Redis ----------------------


@pytest.fixture(params=["redis", "memory"])
def cache_kind(request, settings):
    if request.param == "memory":
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": f"throttle-{request.node.name}",
            }
        }
        settings.RATE_LIMIT_STORAGE = "memory://"
    return request.param


def sign_in(client, email, password):
    return client.post(reverse("login"), {"username": email, "password": password})


def test_sign_in_is_refused_for_a_while_after_too_many_wrong_passwords(cache_kind):
    """Ten wrong passwords for one account from one address stop sign-in to it from there, even
    with the right password, for the rest of the quarter hour; another teacher at the same address
    still signs in, and so does the teacher from their own laptop."""
    make_teacher(email="target@school.test")
    make_teacher(email="colleague@school.test")
    guesser = Client(REMOTE_ADDR=f"10.9.{len(cache_kind)}.1")
    for attempt in range(10):
        assert sign_in(guesser, "target@school.test", f"guess-{attempt}").status_code == 200
    refused = sign_in(guesser, "Target@school.test", PASSWORD)
    assert refused.status_code == 429
    assert "Too many attempts" in refused.content.decode()
    assert not refused.wsgi_request.user.is_authenticated
    assert sign_in(guesser, "colleague@school.test", PASSWORD).status_code == 302
    assert sign_in(Client(REMOTE_ADDR=f"10.9.{len(cache_kind)}.2"), "target@school.test", PASSWORD).status_code == 302


def test_guesses_either_side_of_the_quarter_hour_are_counted_together(cache_kind, monkeypatch):
    """The count slides with the clock: five guesses just before a quarter hour ends and five just
    after still make ten, and the wait shown is the time until the first five have aged out."""
    from classroom import accounts

    clock = [1_800_000_000 // 900 * 900 + 900 - 2.0]  # two seconds before a quarter hour ends
    monkeypatch.setattr(accounts.time, "time", lambda: clock[0])
    make_teacher(email="boundary@school.test")
    guesser = Client(REMOTE_ADDR=f"10.10.{len(cache_kind)}.1")
    for attempt in range(10):
        if attempt == 5:
            clock[0] += 4
        assert sign_in(guesser, "boundary@school.test", f"guess-{attempt}").status_code == 200
    assert sign_in(guesser, "boundary@school.test", PASSWORD).status_code == 429
    wait = accounts.seconds_to_wait("signin", address=f"10.10.{len(cache_kind)}.1", account="boundary@school.test")
    assert 14 * 60 - 5 <= wait <= 15 * 60
    clock[0] += wait
    assert sign_in(guesser, "boundary@school.test", PASSWORD).status_code == 302


def test_many_addresses_or_many_accounts_do_not_escape_the_limits(cache_kind):
    """Guesses at one account spread over many addresses stop at 50; one address guessing across
    many accounts stops at 100."""
    make_teacher(email="victim@school.test")
    for attempt in range(50):
        sign_in(Client(REMOTE_ADDR=f"10.4.{len(cache_kind)}.{attempt}"), "victim@school.test", "guess")
    assert sign_in(Client(REMOTE_ADDR="10.3.0.1"), "victim@school.test", PASSWORD).status_code == 429

    guesser = Client(REMOTE_ADDR=f"10.8.{len(cache_kind)}.1")
    make_teacher(email="other@school.test")
    for attempt in range(100):
        sign_in(guesser, f"someone{attempt}@school.test", "guess")
    assert sign_in(guesser, "other@school.test", PASSWORD).status_code == 429
    assert sign_in(Client(REMOTE_ADDR="10.7.0.1"), "other@school.test", PASSWORD).status_code == 302


def test_the_admin_sign_in_is_throttled_too(cache_kind):
    """The admin's own sign-in page goes through the same backend, so the same count applies."""
    Teacher.objects.create_user(email="head@school.test", password=PASSWORD, is_staff=True)
    assert Client().post("/admin/login/", {"username": "head@school.test", "password": PASSWORD}).status_code == 302
    guesser = Client(REMOTE_ADDR=f"10.5.{len(cache_kind)}.1")
    for attempt in range(10):
        guesser.post("/admin/login/", {"username": "head@school.test", "password": f"guess-{attempt}"})
    answer = guesser.post("/admin/login/", {"username": "head@school.test", "password": PASSWORD})
    assert answer.status_code == 200 and not answer.wsgi_request.user.is_authenticated


def test_password_reset_and_sign_up_e_mails_are_limited(cache_kind):
    """Three reset e-mails per account an hour, then a plain refusal; sign-up likewise."""
    make_teacher(email="busy@school.test")
    client = Client(REMOTE_ADDR=f"10.6.{len(cache_kind)}.1")
    for _ in range(3):
        assert client.post(reverse("password_reset"), {"email": "busy@school.test"}).status_code == 302
    assert client.post(reverse("password_reset"), {"email": "busy@school.test"}).status_code == 429
    assert len(outbox()) == 3
    for _ in range(3):
        assert client.post(reverse("signup"), {"email": "busy@school.test"}).status_code == 200
    assert client.post(reverse("signup"), {"email": "busy@school.test"}).status_code == 429
    assert len(outbox()) == 6


def test_nobody_else_can_use_up_a_teachers_password_resets(cache_kind):
    """A student who knows the teacher's address (the demo account's is public) asks for resets
    until refused; the teacher still gets one from the browser they signed in on, even at the
    same school address, and from home, where the student's requests did not count."""
    from classroom import accounts

    teacher = make_teacher(email="demo@school.test")
    student = Client(REMOTE_ADDR=f"10.11.{len(cache_kind)}.1")
    for _ in range(3):
        assert student.post(reverse("password_reset"), {"email": "demo@school.test"}).status_code == 302
    assert student.post(reverse("password_reset"), {"email": "demo@school.test"}).status_code == 429
    assert len(outbox()) == 3

    own_laptop = Client(REMOTE_ADDR=f"10.11.{len(cache_kind)}.1")
    own_laptop.cookies[accounts.TRUSTED_COOKIE] = accounts.trusted_device(teacher.email)
    assert own_laptop.post(reverse("password_reset"), {"email": "demo@school.test"}).status_code == 302
    home = Client(REMOTE_ADDR=f"10.12.{len(cache_kind)}.1")
    assert home.post(reverse("password_reset"), {"email": "demo@school.test"}).status_code == 302
    assert len(outbox()) == 5


# --- Idle sessions ---------------------------------------------------------------------------------


def test_a_teacher_is_signed_out_after_a_school_day_without_using_stormwise(client):
    """Signed in, the session lasts eight hours from the last request, not two weeks from sign-in."""
    make_teacher(email="t@school.test")
    response = sign_in(client, "t@school.test", PASSWORD)
    assert int(response.cookies["sessionid"]["max-age"]) == 8 * 3600
    key = client.cookies["sessionid"].value
    stored = StoredSession.objects.get(session_key=key)
    assert stored.expire_date - timezone.now() < timedelta(hours=8, minutes=1)

    # Still working an hour before it would end: it is pushed on again.
    data = stored.get_decoded()
    data["seen"] = 0
    StoredSession.objects.filter(pk=key).update(
        session_data=client.session.encode(data), expire_date=timezone.now() + timedelta(hours=1)
    )
    assert client.get(reverse("classroom:home")).status_code == 200
    assert StoredSession.objects.get(pk=key).expire_date - timezone.now() > timedelta(hours=7, minutes=55)

    StoredSession.objects.filter(pk=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    assert client.get(reverse("classroom:home")).status_code == 302


# --- Dashboards close on sign-out and password change ----------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("how", ["sign out", "password change elsewhere"])
def test_open_dashboards_close_when_their_teacher_signs_out_or_changes_password(how):
    from asgiref.sync import async_to_sync, sync_to_async

    from classroom.consumers import CLOSE_UNAUTHORISED
    from tests.factories import started_session
    from tests.test_security import closed_with, communicator

    session, _devices = started_session(students=2)
    laptop, phone = Client(), Client()
    for browser in (laptop, phone):
        assert sign_in(browser, session.teacher.email, PASSWORD).status_code == 302

    def act():
        if how == "sign out":
            assert laptop.post(reverse("logout")).status_code == 200
        else:
            answer = phone.post(
                reverse("password_change"),
                {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
            )
            assert answer.status_code == 302

    async def run():
        socket = communicator(f"/ws/sessions/{session.pk}/", f"sessionid={laptop.cookies['sessionid'].value}")
        connected, _code = await socket.connect()
        assert connected
        assert (await socket.receive_json_from(timeout=5))["type"] == "dashboard"
        await sync_to_async(act)()
        assert await closed_with(socket, timeout=5) == CLOSE_UNAUTHORISED
        again = communicator(f"/ws/sessions/{session.pk}/", f"sessionid={laptop.cookies['sessionid'].value}")
        connected, _code = await again.connect()
        assert not connected

    async_to_sync(run)()


@pytest.mark.django_db(transaction=True)
def test_the_browser_that_changed_the_password_opens_its_dashboard_again():
    """Changing the password gives the browser it was typed in a new session: its dashboard
    closes a moment later (the page reloads) and opens again with the new session."""
    from asgiref.sync import async_to_sync, sync_to_async

    from classroom.consumers import CLOSE_UNAUTHORISED
    from tests.factories import started_session
    from tests.test_security import closed_with, communicator

    session, _devices = started_session(students=2)
    laptop = Client()
    assert sign_in(laptop, session.teacher.email, PASSWORD).status_code == 302

    async def run():
        socket = communicator(f"/ws/sessions/{session.pk}/", f"sessionid={laptop.cookies['sessionid'].value}")
        connected, _code = await socket.connect()
        assert connected
        assert (await socket.receive_json_from(timeout=5))["type"] == "dashboard"
        answer = await sync_to_async(laptop.post)(
            reverse("password_change"),
            {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        )
        assert answer.status_code == 302
        assert await closed_with(socket, timeout=5) == CLOSE_UNAUTHORISED
        again = communicator(f"/ws/sessions/{session.pk}/", f"sessionid={laptop.cookies['sessionid'].value}")
        connected, _code = await again.connect()
        assert connected
        assert (await again.receive_json_from(timeout=5))["type"] == "dashboard"
        await again.disconnect()

    async_to_sync(run)()
