"""Join-code limits slow a guesser down and never lock a class out.

A class of 35 shares one school address. A hostile page that loads ``/join/XXXXXX`` a hundred
times, and a guesser who throws away its cookie after every try, must not stop the class from
joining; the QR link's GET shows the form for any code and never fails.
"""

import random
import time

import pytest
from django.core import signing
from django.core.cache import cache
from django.test import Client

from classroom import services
from classroom.models import Session
from tests.factories import make_session

pytestmark = pytest.mark.django_db

SCHOOL = "10.1.2.3"


@pytest.fixture(autouse=True)
def _fresh_counts(settings):
    cache.clear()
    # These classes join in a moment rather than over a minute; the pace is tested apart
    # (test_join_pace), the guesses here.
    settings.JOIN_PACE = {**settings.JOIN_PACE, "address": (200, 1.0)}
    yield
    cache.clear()


def wrong_codes(session, seed=7):
    """Well-formed codes that open no lesson."""
    rng = random.Random(seed)
    while True:
        code = "".join(rng.choice(services.CODE_ALPHABET) for _ in range(services.CODE_LENGTH))
        if code != session.join_code:
            yield services.format_code(code)


def tablet():
    return Client(REMOTE_ADDR=SCHOOL)


def join(client, code, nickname):
    return client.post("/join", {"code": code, "nickname": nickname, "players": 1})


def test_the_qr_link_shows_the_form_for_any_code():
    """A mistyped code, an ended lesson's code and a device that has guessed too often all get
    the form with the code filled in (200), never an error page."""
    ended = make_session()
    services.end(session=ended)
    live = make_session()
    limited = tablet()
    misses = wrong_codes(live)
    for _ in range(12):
        join(limited, next(misses), "Guess")
    assert "Too many wrong codes from this tablet" in join(limited, next(misses), "Guess").content.decode()

    for client, code in [
        (tablet(), "ZZZ-ZZZ"),
        (tablet(), "K7"),
        (tablet(), ended.join_code),
        (limited, "ABC-DEF"),
        (limited, live.join_code),
    ]:
        response = client.get(f"/join/{code}")
        assert response.status_code == 200, code
        page = response.content.decode()
        assert f'value="{code}"' in page, code
        assert "errorlist" not in page, code


def test_a_hostile_page_does_not_lock_the_class_out():
    """Three tablets of the class open a page with a hundred ``<img src=/join/XXXXXX>`` each;
    then the whole class of 35 follows the QR link and joins, those three included."""
    session = make_session()
    code = services.format_code(session.join_code)
    class_tablets = [tablet() for _ in range(35)]
    misses = wrong_codes(session)
    for victim in class_tablets[:3]:
        for _ in range(100):
            assert victim.get(f"/join/{next(misses).replace('-', '')}").status_code == 200
    for number, device in enumerate(class_tablets):
        assert device.get(f"/join/{session.join_code}").status_code == 200
        joined = join(device, code, f"Kid{number}")
        assert joined.status_code == 302, joined.content.decode()[:300]
    assert session.participants.count() == 35


def test_a_cookie_clearing_guesser_beside_a_class_joining(settings):
    """A guesser on the school's address posts wrong codes, each from a fresh cookie, while the
    class joins. Every student gets in; once the address is past its ceiling, the guesser's codes
    are no longer looked up at all (not even a right one) until a device has waited."""
    settings.JOIN_SETTLE_SECONDS = 1
    # the class joins as fast as the test runs, not over a minute: the address's join pace and its
    # look-ups while crowded (each with tests of their own: test_join_pace.py, test_one_limiter.py)
    # let all 35 through at once here
    settings.JOIN_PACE = {**settings.JOIN_PACE, "address": (40, 1)}
    settings.JOIN_CROWDED_LOOKUPS = (40, 2.0)
    session = make_session()
    code = services.format_code(session.join_code)
    class_tablets = [tablet() for _ in range(35)]
    for device in class_tablets:  # the QR link, as the lesson begins
        device.get(f"/join/{session.join_code}")
    time.sleep(settings.JOIN_SETTLE_SECONDS)

    misses, looked_up, waited = wrong_codes(session), 0, 0
    for number, device in enumerate(class_tablets):
        for _ in range(8):
            answer = join(tablet(), next(misses), "Guess").content.decode()
            looked_up += "No lesson has that code" in answer
            waited += "Wait a few seconds" in answer
        joined = join(device, code, f"Kid{number}")
        assert joined.status_code == 302, (number, joined.content.decode()[:300])
    assert session.participants.count() == 35
    assert looked_up == settings.JOIN_GUESSES["address"]
    assert waited == 35 * 8 - looked_up

    lucky = join(tablet(), code, "Guess")  # a fresh cookie with the right code, on a crowded address
    assert "Wait a few seconds" in lucky.content.decode()
    assert not session.participants.filter(nickname="Guess").exists()


def test_a_guessing_tablet_backs_off_and_then_gets_in(settings):
    """A tablet that keeps missing waits, longer after each further miss; once it has waited, the
    right code gets it in (a back-off, not a lockout)."""
    settings.JOIN_BACKOFF_SECONDS = 1
    session = make_session()
    device = tablet()
    misses = wrong_codes(session)
    for _ in range(settings.JOIN_GUESSES["device"]):
        join(device, next(misses), "Ana")
    stopped = join(device, services.format_code(session.join_code), "Ana").content.decode()
    assert "Too many wrong codes from this tablet. Wait 1 second" in stopped
    time.sleep(1.1)
    join(device, next(misses), "Ana")  # one more miss: now two seconds
    assert "Wait 2 seconds" in join(device, session.join_code, "Ana").content.decode()
    time.sleep(2.1)
    assert join(device, session.join_code, "Ana").status_code == 302
    assert session.participants.filter(nickname="Ana").exists()


def test_the_device_id_is_signed():
    """A device cookie the server did not sign is replaced by a fresh signed one, so nobody can
    choose a device id (another tablet's, or a new one per try without asking the server)."""
    forged = tablet()
    forged.cookies["sw_device"] = "victim-tablet"
    issued = forged.get("/join").cookies["sw_device"].value
    assert issued != "victim-tablet"
    assert signing.loads(issued, salt="classroom.device")["id"]
    kept = forged.get("/join").cookies["sw_device"].value
    assert kept == issued


def test_an_ended_lessons_code_says_so_on_the_form():
    """Typed into the form, an ended lesson's code gets its clear message (and is not a miss)."""
    ended = make_session()
    services.end(session=ended)
    answer = join(tablet(), ended.join_code, "Ana").content.decode()
    assert "This lesson has ended" in answer
    assert Session.objects.get(pk=ended.pk).participants.count() == 0
