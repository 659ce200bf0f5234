"""Test data built in code, not JSON fixtures."""

import contextlib
import itertools
import secrets
import threading

from classroom.models import Teacher

_counter = itertools.count(1)
# Made each run: no password written in the repository signs in (classroom.accounts).
PASSWORD = "pw-" + secrets.token_urlsafe(12)


def make_teacher(email=None, password=PASSWORD):
    return Teacher.objects.create_user(email=email or f"teacher{next(_counter)}@school.test", password=password)


def make_session(teacher=None, **options):
    from classroom import services

    options.setdefault("max_participants", services.MAX_PARTICIPANTS)  # load tests seat hundreds
    return services.create_session(
        teacher=teacher or make_teacher(),
        scenario=options.pop("scenario", "evacuation"),
        seed=options.pop("seed", 1234),
        **options,
    )


def join_students(session, count, prefix="Kid"):
    """``count`` students join; returns [(participant, device token)]."""
    from classroom import services

    return [services.join(session=session, nickname=f"{prefix}{i}") for i in range(count)]


def started_session(students=4, **options):
    from classroom import services

    session = make_session(**options)
    devices = join_students(session, students)
    services.start(session=session)
    session.refresh_from_db()
    return session, devices


def ended_session(students=2, **options):
    """A lesson whose ``students`` joined and whose tables bots played to the end; then it ended."""
    from classroom import services

    session = make_session(**options)
    join_students(session, students)
    services.start(session=session)
    services.finish_with_bots(session=session)
    services.end(session=session)
    return session


@contextlib.contextmanager
def session_locked(session):
    """The lesson's row locked from another connection for the block's length, as a seating join
    holds it while the class's other joins wait (transactional tests only)."""
    from django.db import connections, transaction

    from classroom.models import Session

    locked, release = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                Session.objects.select_for_update().get(pk=session.pk)
                locked.set()
                release.wait(timeout=120)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert locked.wait(timeout=30), "the lesson's row was not locked"
        yield
    finally:
        release.set()
        holder.join()
