"""Scores back to the course's gradebook (Assignment and Grade Services): when the lesson ends a
real Celery worker posts each learner's score to the test platform's line item, tries again
when the platform fails, and shows the teacher what it could not send."""

import time

import pytest
from django.test import Client

from classroom import services as classroom
from classroom.models import Session
from games.models import Game
from lti.models import LtiStudent, ScorePost
from tests.lti.conftest import deep_link, launch
from tests.lti.platform import INSTRUCTOR, LEARNER

pytestmark = pytest.mark.django_db(transaction=True)

LEARNERS = ("learner-1", "learner-2", "learner-3")


def _wait(condition, seconds=30):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _class_plays(client, platform, seats_per_table=2):
    """Deep-link a lesson, launch it as its teacher and three learners, start it, and finish the
    game of learner-1's table only. Returns the session and the content item."""
    item = deep_link(client, platform, seats_per_table=seats_per_table)
    launch(client, platform, platform.resource_link(item, "teacher-1", INSTRUCTOR))
    for n, sub in enumerate(LEARNERS):
        tablet = Client()
        launch(tablet, platform, platform.resource_link(item, sub, LEARNER))
        assert tablet.post("/lti/nickname", {"nickname": f"Tern {n}"}).status_code == 302
    session = Session.objects.get()
    classroom.start(session=Session.objects.get(pk=session.pk))
    first = LtiStudent.objects.get(sub="learner-1").participant
    Game.objects.filter(table__seats__participant=first).update(status=Game.Status.FINISHED)
    return Session.objects.get(pk=session.pk), item


def _expected(session):
    return {
        s.sub: 100.0
        if Game.objects.filter(table__seats__participant=s.participant, status="finished").exists()
        else 0.0
        for s in LtiStudent.objects.filter(lesson__session=session)
    }


def test_each_learners_completion_reaches_the_gradebook_when_the_lesson_ends(client, platform, celery_worker):
    session, item = _class_plays(client, platform)
    assert platform.scores == []
    classroom.end(session=session)
    _wait(lambda: len(platform.scores) == 3)
    got = {score["userId"]: score for line, score in platform.scores}
    assert {sub: s["scoreGiven"] for sub, s in got.items()} == _expected(session)
    assert sorted(got.values(), key=lambda s: s["scoreGiven"])[-1]["scoreGiven"] == 100
    assert all(line == item["lineitem_url"] for line, _score in platform.scores)
    assert all(s["scoreMaximum"] == 100 and s["gradingProgress"] == "FullyGraded" for s in got.values())
    _wait(lambda: ScorePost.objects.filter(status="sent").count() == 3)


def test_a_score_the_platform_refuses_is_sent_again(client, platform, celery_worker, settings):
    settings.LTI_SCORE_RETRY_SECONDS = 0.05
    session, _item = _class_plays(client, platform)
    platform.score_failures = 2
    classroom.end(session=session)
    _wait(lambda: ScorePost.objects.filter(status="sent").count() == 3)
    assert len(platform.scores) == 3
    assert sum(ScorePost.objects.values_list("attempts", flat=True)) == 5


def test_scores_never_taken_are_shown_to_the_teacher_who_sends_them_again(client, platform, celery_worker, settings):
    settings.LTI_SCORE_RETRY_SECONDS = 0.05
    settings.LTI_SCORE_RETRIES = 1
    session, _item = _class_plays(client, platform)
    platform.score_failures = 1000
    classroom.end(session=session)
    _wait(lambda: ScorePost.objects.filter(status="failed").count() == 3)
    assert platform.scores == []
    page = client.get(f"/sessions/{session.pk}/gradebook").content.decode()
    assert "The course did not take 3 scores." in page and "The platform answered 500." in page
    debrief = client.get(f"/sessions/{session.pk}/debrief/").content.decode()
    assert "Not taken: 3" in debrief

    platform.score_failures = 0
    assert client.post(f"/sessions/{session.pk}/gradebook").status_code == 302
    _wait(lambda: len(platform.scores) == 3)
    _wait(lambda: ScorePost.objects.filter(status="sent").count() == 3)


def test_nothing_goes_back_when_the_teacher_chose_nothing(client, platform, celery_worker):
    item = deep_link(client, platform, passback="none")
    assert "lineItem" not in item
    tablet = Client()
    launch(tablet, platform, platform.resource_link(item, "learner-1", LEARNER))
    tablet.post("/lti/nickname", {"nickname": "Heron"})
    classroom.end(session=Session.objects.get())
    assert ScorePost.objects.count() == 0


def test_the_after_check_score_follows_the_completion_it_replaces(client, platform, celery_worker):
    from lessons import knowledge

    item = deep_link(client, platform, passback="after_check")
    tablet = Client()
    launch(tablet, platform, platform.resource_link(item, "learner-1", LEARNER))
    tablet.post("/lti/nickname", {"nickname": "Pelican"})
    session = Session.objects.get()
    classroom.start(session=session)
    classroom.end(session=Session.objects.get(pk=session.pk))
    _wait(lambda: len(platform.scores) == 1)
    first = platform.scores[0][1]
    assert first["gradingProgress"] == "Pending" and first["activityProgress"] == "InProgress"

    # after the debrief the teacher opens the after-check; the student answers it all right
    knowledge.open_after(session=Session.objects.get(pk=session.pk))
    participant = LtiStudent.objects.get().participant
    rows = knowledge.items_for(participant, "after")
    knowledge.submit_answers(
        participant=participant, phase="after", answers={str(r.item.pk): r.item.answer for r in rows}
    )
    _wait(lambda: len(platform.scores) == 2)
    final = platform.scores[1][1]
    assert final["userId"] == "learner-1" and final["scoreGiven"] == 100 and final["gradingProgress"] == "FullyGraded"
