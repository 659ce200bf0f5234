"""Who from the course has not joined yet (Names and Role Provisioning Services): the teacher asks
on the session page, Stormwise fetches the course's member list from the test platform with an
access token granted the membership scope, and shows the learners who have not launched the
lesson by the names the platform gives, keeping none of them."""

import pytest
from django.test import Client

from classroom.models import Session
from tests.factories import make_teacher
from tests.lti.conftest import deep_link, launch, personal_words_kept
from tests.lti.platform import INSTRUCTOR, LEARNER, NRPS_SCOPE, PEOPLE

pytestmark = pytest.mark.django_db

PANEL = "Who from the course has not joined yet?"


def _lesson_with_one_learner(client, platform):
    """A deep-linked lesson its teacher opened from the course (``client``), which learner-1 joined."""
    item = deep_link(client, platform)
    session = Session.objects.get()
    # deep linking alone carries no member list: the session page offers none
    assert PANEL not in client.get(f"/sessions/{session.pk}/").content.decode()
    launch(client, platform, platform.resource_link(item, "teacher-1", INSTRUCTOR))
    tablet = Client()
    launch(tablet, platform, platform.resource_link(item, "learner-1", LEARNER))
    assert tablet.post("/lti/nickname", {"nickname": "Osprey"}).status_code == 302
    return session


def test_the_teacher_sees_who_from_the_course_has_not_joined_and_nothing_is_kept(client, platform):
    session = _lesson_with_one_learner(client, platform)
    dashboard = client.get(f"/sessions/{session.pk}/").content.decode()
    assert PANEL in dashboard and f'href="/sessions/{session.pk}/course-roster"' in dashboard
    assert not any(scopes for scopes in platform.tokens.values() if NRPS_SCOPE in scopes)  # not before asked

    response = client.get(f"/sessions/{session.pk}/course-roster")
    page = response.content.decode()
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    assert "2 students of the course have not opened the lesson yet" in page
    shown = [sub for sub, person in PEOPLE.items() if person["name"] in page]
    # learner-1 joined, teachers are no learners, learner-4 left the course (Inactive)
    assert shown == ["learner-2", "learner-3"]
    assert not any(person["email"] in page for person in PEOPLE.values())
    assert any(NRPS_SCOPE in scopes for scopes in platform.tokens.values())
    # the list was read, shown and forgotten: no name or e-mail in any table
    assert personal_words_kept() == []


def test_a_course_that_shares_no_names_gets_a_count(client, platform):
    platform.share_names = False
    session = _lesson_with_one_learner(client, platform)
    page = client.get(f"/sessions/{session.pk}/course-roster").content.decode()
    assert "and 2 students whose names the course does not share." in page
    assert not any(person["name"] in page for person in PEOPLE.values())


def test_a_member_list_the_platform_fails_to_give_says_so(client, platform):
    session = _lesson_with_one_learner(client, platform)
    platform.membership_failures = 1
    page = client.get(f"/sessions/{session.pk}/course-roster").content.decode()
    assert "The course&#x27;s member list could not be fetched: The platform answered 500." in page
    assert not any(person["name"] in page for person in PEOPLE.values())
    # asked again once the platform answers: the list
    again = client.get(f"/sessions/{session.pk}/course-roster").content.decode()
    assert PEOPLE["learner-2"]["name"] in again


def test_only_the_lessons_teacher_may_ask(client, platform):
    session = _lesson_with_one_learner(client, platform)
    other = Client()
    other.force_login(make_teacher())
    assert other.get(f"/sessions/{session.pk}/course-roster").status_code == 404
    assert Client().get(f"/sessions/{session.pk}/course-roster").status_code == 302
