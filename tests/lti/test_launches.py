"""Stormwise as an LTI 1.3 tool, driven through the real protocol by a test platform: OIDC login,
launch, deep linking, and what a launch opens for a teacher and for a student."""

import pytest
from django.core.management import call_command
from lti_tool.models import Key

from classroom.models import Participant, Session
from lti.models import LtiLesson, LtiStudent, LtiTeacher
from tests.lti.conftest import deep_link, launch, personal_words_kept
from tests.lti.platform import INSTRUCTOR, LEARNER

pytestmark = pytest.mark.django_db


def test_the_tool_makes_its_key_on_first_need_publishes_it_and_rotates_it(client):
    assert not Key.objects.exists()
    first = client.get("/lti/jwks.json").json()["keys"]
    assert len(first) == 1 and first[0]["alg"] == "RS256" and "d" not in first[0]
    call_command("rotate_keys", "--deactivate-after", "0")
    second = client.get("/lti/jwks.json").json()["keys"]
    assert len(second) == 1 and second[0]["kid"] != first[0]["kid"]


def test_the_configuration_page_lists_what_an_lms_asks_for(client):
    page = client.get("/lti/").content.decode()
    for url in ("http://testserver/lti/login", "http://testserver/lti/launch", "http://testserver/lti/jwks.json"):
        assert url in page


def test_deep_linking_makes_a_lesson_the_teacher_and_students_launch_into(client, platform):
    item = deep_link(client, platform)
    lesson = LtiLesson.objects.get()
    session = lesson.session
    assert session.scenario == "bermuda" and session.seats_per_table == 3
    assert item["custom"] == {"stormwise_session": str(session.pk)}
    assert item["url"] == "http://testserver/lti/launch" and item["lineItem"]["scoreMaximum"] == 100

    # the instructor's launch of the link: their own dashboard, as the same account
    client.logout()
    opened = launch(client, platform, platform.resource_link(item, "teacher-1", INSTRUCTOR))
    assert opened.status_code == 302 and opened["Location"] == f"/sessions/{session.pk}/"
    assert client.get(opened["Location"]).status_code == 200
    assert LtiTeacher.objects.get().teacher == session.teacher
    assert LtiLesson.objects.get().lineitem_url == item["lineitem_url"]

    # a learner: a nickname of their choosing, then their seat
    from django.test import Client

    tablet = Client()
    arrived = launch(tablet, platform, platform.resource_link(item, "learner-1", LEARNER))
    assert arrived["Location"] == "/lti/nickname"
    assert "Choose your nickname" in tablet.get("/lti/nickname").content.decode()
    seated = tablet.post("/lti/nickname", {"nickname": "Storm Owl"})
    assert seated.status_code == 302 and seated["Location"] == f"/play/{session.pk}/"
    assert tablet.get(seated["Location"]).status_code == 200
    student = LtiStudent.objects.get()
    assert student.sub == "learner-1" and student.participant.nickname == "Storm Owl"

    # launching again from another browser: the same seat, no second nickname asked
    other = Client()
    again = launch(other, platform, platform.resource_link(item, "learner-1", LEARNER))
    assert again["Location"] == f"/play/{session.pk}/"
    assert Participant.objects.count() == 1

    # after the lesson, the learner's launch opens their own report
    Session.objects.filter(pk=session.pk).update(status=Session.Status.ENDED)
    later = launch(Client(), platform, platform.resource_link(item, "learner-1", LEARNER))
    assert "/report/" in later["Location"]
    assert Client().get(later["Location"]).status_code == 200


def test_no_name_or_email_from_the_platform_is_kept_anywhere(client, platform):
    from django.test import Client

    item = deep_link(client, platform)
    launch(Client(), platform, platform.resource_link(item, "teacher-1", INSTRUCTOR))
    for n, sub in enumerate(("learner-1", "learner-2", "learner-3")):
        tablet = Client()
        launch(tablet, platform, platform.resource_link(item, sub, LEARNER))
        tablet.post("/lti/nickname", {"nickname": f"Gull {n}"})
    assert LtiStudent.objects.count() == 3
    assert personal_words_kept() == []


def test_an_admin_registers_a_platform_and_its_deployments(admin_client):
    from lti_tool.models import LtiRegistration

    form = admin_client.get("/admin/lti_tool/ltiregistration/add/").content.decode()
    for field in ("issuer", "client_id", "auth_url", "token_url", "keyset_url", "deployments-0-deployment_id"):
        assert f'name="{field}"' in form
    answer = admin_client.post(
        "/admin/lti_tool/ltiregistration/add/",
        {
            "name": "District Canvas",
            "uuid": "6f1b3a52-8f0e-4c8a-9d2b-0a4c2f3b9e11",
            "issuer": "https://canvas.instructure.com",
            "client_id": "10000000000001",
            "auth_url": "https://sso.canvaslms.com/api/lti/authorize_redirect",
            "token_url": "https://district.instructure.com/login/oauth2/token",
            "keyset_url": "https://sso.canvaslms.com/api/lti/security/jwks",
            "is_active": "on",
            "deployments-TOTAL_FORMS": "1",
            "deployments-INITIAL_FORMS": "0",
            "deployments-0-deployment_id": "42:abcdef",
            "deployments-0-is_active": "on",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    registration = LtiRegistration.objects.get()
    assert registration.client_id == "10000000000001"
    assert [(d.deployment_id, d.is_active) for d in registration.deployments.all()] == [("42:abcdef", True)]
