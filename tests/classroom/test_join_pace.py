"""One device cannot fill a lesson: joins go at a class's pace, the teacher can take many out at
once and turn a device away, and students the teacher has not let in stay out of the check."""

import time

import pytest
from django.core.cache import cache
from django.test import Client

from classroom import services
from classroom.models import Session
from tests.factories import make_session

pytestmark = pytest.mark.django_db

SCHOOL = "10.1.2.3"


@pytest.fixture(autouse=True)
def _fresh_counts():
    cache.clear()
    yield
    cache.clear()


def join(client, session, nickname, players=1):
    client.get(f"/join/{session.join_code}")  # the QR link: the form, and the device's cookie
    return client.post("/join", {"code": session.join_code, "nickname": nickname, "players": players})


def seated(session) -> int:
    return session.participants.count()


def test_one_client_with_fresh_cookies_cannot_seat_forty_in_a_second(settings):
    # The burst as served, refilled slowly: on a busy machine forty requests take many seconds,
    # which must not refill what a quick machine's one second would not.
    burst, _per_second = settings.JOIN_PACE["address"]
    settings.JOIN_PACE = {**settings.JOIN_PACE, "address": (burst, 0.05)}
    session = make_session(max_participants=40)
    started = time.monotonic()
    answers = [join(Client(REMOTE_ADDR=SCHOOL), session, f"Fake{n}", players=4) for n in range(40)]
    took = time.monotonic() - started
    assert seated(session) <= burst + int(took * 0.05) + 1 < 40
    refused = [a for a in answers if a.status_code == 200]
    assert refused and all("Many tablets are joining from here at once" in a.content.decode() for a in refused)
    # the real class, on another address, is not held up and the lesson is not full
    assert join(Client(REMOTE_ADDR="10.9.9.9"), session, "RealKid").status_code == 302


def test_one_device_keeping_its_cookie_seats_two_at_most():
    session = make_session()
    device = Client(REMOTE_ADDR=SCHOOL)
    for number in range(6):
        join(device, session, f"Fake{number}")
        device.cookies.pop(f"sw_{session.pk}", None)  # forget the seat, keep the device id
    assert seated(session) == 2


def test_a_class_of_35_behind_one_address_joining_over_a_minute_all_get_in(settings):
    """35 tablets join from one school address, one every 1.7 s as a class does, against the
    address's pace of one a second past its burst. Compressed here by three and a half: one every
    0.5 s against 3.5 a second."""
    burst, per_second = settings.JOIN_PACE["address"]
    settings.JOIN_PACE = {**settings.JOIN_PACE, "address": (burst, per_second * 3.5)}
    session = make_session()
    tablets = [Client(REMOTE_ADDR=SCHOOL) for _ in range(35)]
    for tablet in tablets:
        tablet.get(f"/join/{session.join_code}")
    for number, tablet in enumerate(tablets):
        answer = tablet.post("/join", {"code": session.join_code, "nickname": f"Kid{number}", "players": 1})
        assert answer.status_code == 302, answer.content.decode()[:2000]
        time.sleep(0.5)
    assert seated(session) == 35


def teacher(session):
    client = Client()
    client.force_login(session.teacher)
    return client


def test_the_teacher_removes_many_at_once_and_bans_a_device():
    session = make_session()
    fakes = [Client(REMOTE_ADDR=f"10.0.0.{n}") for n in range(5)]
    for number, fake in enumerate(fakes):
        assert join(fake, session, f"Fake{number}").status_code == 302
    ids = list(session.participants.values_list("pk", flat=True))
    answer = teacher(session).post(
        f"/sessions/{session.pk}/do/remove-many", {"participant": ids[:4]}, HTTP_ACCEPT="application/json"
    )
    assert answer.json()["ok"] and seated(session) == 1

    last = session.participants.get()
    teacher(session).post(f"/sessions/{session.pk}/do/ban", {"participant": last.pk})
    assert seated(session) == 0
    fakes[4].cookies.pop(f"sw_{session.pk}", None)
    again = join(fakes[4], session, "NewName")
    assert again.status_code == 200 and "taken this tablet out of the lesson" in again.content.decode()
    assert seated(session) == 0
    assert join(fakes[0], session, "Fake0").status_code == 302  # removed, not banned: may come back


def test_students_not_yet_let_in_stay_out_of_the_check_and_its_figures():
    from lessons import knowledge
    from lessons.models import CheckAnswer

    session = make_session(names=Session.Names.APPROVE)
    knowledge.set_check(session=session, enabled=True)
    kid, _token = services.join(session=session, nickname="Kid")
    fake, _token = services.join(session=session, nickname="Fake")
    services.approve(participant=kid)
    kid.refresh_from_db()
    fake.refresh_from_db()
    phase = knowledge.phase_open(session)
    assert phase == CheckAnswer.Phase.BEFORE
    right = {str(shown.item.pk): shown.item.answer for shown in knowledge.items_for(kid, phase)}
    knowledge.submit_answers(participant=kid, phase=phase, answers=right)
    fakes = {str(shown.item.pk): shown.item.answer for shown in knowledge.items_for(fake, phase)}
    with pytest.raises(knowledge.CheckError):
        knowledge.submit_answers(participant=fake, phase=phase, answers=fakes)
    assert not CheckAnswer.objects.filter(participant=fake).exists()
    assert knowledge.class_results(session)["before_n"] == 1
    services.approve(participant=kid, approved=False)  # let in by mistake, then taken back
    assert knowledge.class_results(session)["before_n"] == 0


@pytest.mark.django_db(transaction=True)
def test_joins_the_pace_refuses_wait_for_no_other_join(settings):
    """Six joins racing from an address with two joins of its pace left: the four the pace
    refuses are answered while a seating join still holds the session's lock, so a script's crowd
    of refused joins does not queue in front of the class's own; the two it admits are seated once
    the lock is free. Before, all six passed the pace's check at once and queued for the lock."""
    import threading

    from django.db import connections

    from classroom import ratelimit
    from tests.factories import session_locked

    session = make_session(max_participants=40)
    burst, _per_second = settings.JOIN_PACE["address"]
    for number in range(burst - 2):
        ratelimit.take_join_pace(device_hash=f"script-{number}", address=SCHOOL)
    answers, answered = [], threading.Condition()

    def a_racing_join(number):
        try:
            answer = join(Client(REMOTE_ADDR=SCHOOL), session, f"Racer{number}")
        finally:
            connections.close_all()
        with answered:
            answers.append(answer)
            answered.notify_all()

    racers = [threading.Thread(target=a_racing_join, args=(n,)) for n in range(6)]
    with session_locked(session):
        for racer in racers:
            racer.start()
        with answered:
            refused_while_locked = answered.wait_for(lambda: len(answers) >= 4, timeout=30)
            early = list(answers)
    for racer in racers:
        racer.join()
    assert refused_while_locked, "the refused joins waited for the lock"
    assert all("Many tablets are joining from here at once" in a.content.decode() for a in early)
    assert sorted(a.status_code for a in answers) == [200, 200, 200, 200, 302, 302]
    assert seated(session) == 2
