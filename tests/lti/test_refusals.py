"""Launches Stormwise refuses: each says why on a page of its own and changes nothing."""

import pytest
from django.test import Client
from lti_tool.models import LtiDeployment

from classroom.models import Participant, Session, Teacher
from classroom.services import create_session
from lti.models import LtiLesson, LtiStudent, LtiTeacher
from lti.services import teacher_for
from tests.lti.conftest import LAUNCH_URL, launch
from tests.lti.platform import INSTRUCTOR, LEARNER, login_params

pytestmark = pytest.mark.django_db


@pytest.fixture
def item(platform):
    """A lesson linked in the course of the platform's first deployment, as deep linking leaves it."""
    deployment = LtiDeployment.objects.get(deployment_id=platform.deployment_id)
    teacher = teacher_for(deployment, "teacher-1")
    session = create_session(teacher=teacher, scenario="bermuda")
    LtiLesson.objects.create(session=session, deployment=deployment)
    return {"url_id": 1, "title": "Lesson", "url": LAUNCH_URL, "custom": {"stormwise_session": str(session.pk)}}


def _counts():
    return [
        m.objects.count() for m in (Teacher, Session, Participant, LtiTeacher, LtiLesson, LtiStudent, LtiDeployment)
    ]


def _refused(response, words):
    page = response.content.decode()
    assert response.status_code == 403, page
    assert "This launch was refused" in page and words in page
    assert "Nothing was changed in Stormwise." in page


def test_a_launch_signed_for_another_issuer_is_refused(platform, item):
    before = _counts()
    claims = platform.resource_link(item, "learner-1", LEARNER, iss="https://lms.elsewhere.example")
    _refused(launch(Client(), platform, claims), "not registered here")
    assert _counts() == before


def test_a_login_from_an_unregistered_platform_is_refused(platform):
    params = login_params(platform, "hint", LAUNCH_URL, iss="https://lms.elsewhere.example")
    _refused(Client().post("/lti/login", params), "names no platform registered here")


def test_an_expired_id_token_is_refused(platform, item):
    before = _counts()
    claims = platform.resource_link(item, "learner-1", LEARNER)
    _refused(launch(Client(), platform, claims, token={"lifetime": -60}), "or it has expired")
    assert _counts() == before


def test_an_id_token_signed_with_another_key_is_refused(platform, item):
    from jwcrypto.jwk import JWK

    stranger = JWK.generate(kty="RSA", size=2048, kid=platform.key.kid)
    claims = platform.resource_link(item, "learner-1", LEARNER)
    _refused(launch(Client(), platform, claims, token={"key": stranger}), "not signed by the platform")


def test_a_replayed_id_token_is_refused(platform, item):
    tablet = Client()
    first = launch(tablet, platform, platform.resource_link(item, "learner-1", LEARNER))
    assert first.status_code == 302
    before = _counts()
    # the same id_token and state posted again, from the same browser and from another
    _refused(tablet.post("/lti/launch", first.launch_fields), "already used")
    _refused(Client().post("/lti/launch", first.launch_fields), "already used")
    assert _counts() == before


def test_a_nonce_the_tool_never_issued_is_refused(platform, item):
    claims = platform.resource_link(item, "learner-1", LEARNER)
    _refused(launch(Client(), platform, claims, nonce="made-up-nonce"), "already used or was never issued")


def test_a_state_from_another_sign_in_is_refused(platform, item):
    tablet = Client()
    hint = platform.expect(platform.resource_link(item, "learner-1", LEARNER))
    login = tablet.post("/lti/login", login_params(platform, hint, LAUNCH_URL))
    _action, fields = platform.authorize(login["Location"])
    _refused(tablet.post("/lti/launch", {**fields, "state": "state-forged"}), "did not come from the sign-in")


def test_an_unregistered_deployment_is_refused_and_not_created(platform, item):
    before = _counts()
    claims = platform.resource_link(item, "learner-1", LEARNER)
    claims["https://purl.imsglobal.org/spec/lti/claim/deployment_id"] = "deployment-unknown"
    _refused(launch(Client(), platform, claims), "deployment of Stormwise is not registered")
    assert _counts() == before


def test_an_unsupported_message_type_is_refused(platform, item):
    before = _counts()
    claims = platform.resource_link(
        item,
        "teacher-1",
        INSTRUCTOR,
        **{"https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiSubmissionReviewRequest"},
    )
    _refused(launch(Client(), platform, claims), "does not handle this kind of launch")
    assert _counts() == before


def test_a_learner_of_another_deployment_cannot_launch_the_lesson(platform, item):
    # the same platform, a second school's deployment, registered too
    LtiDeployment.objects.create(
        registration=LtiDeployment.objects.get().registration, deployment_id="deployment-2", is_active=True
    )
    before = _counts()
    claims = platform.resource_link(item, "learner-1", LEARNER)
    claims["https://purl.imsglobal.org/spec/lti/claim/deployment_id"] = "deployment-2"
    _refused(launch(Client(), platform, claims), "belongs to another course or school")
    assert _counts() == before


def test_a_learner_cannot_deep_link(platform):
    before = _counts()
    claims = platform.claims("learner-1", LEARNER, "LtiDeepLinkingRequest")
    _refused(launch(Client(), platform, claims), "Only a teacher")
    assert _counts() == before


def test_another_teacher_of_the_course_cannot_open_the_lesson(platform, item):
    before = _counts()
    claims = platform.resource_link(item, "teacher-2", INSTRUCTOR)
    _refused(launch(Client(), platform, claims), "belongs to another teacher")
    assert _counts() == before
