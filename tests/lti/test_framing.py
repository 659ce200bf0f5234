"""Canvas opens the launch in an iframe of the course and deep linking in a modal iframe: the
launch and deep-linking pages may be framed by the registered platforms' origins, and by no
other; every other page still refuses to be framed; and over HTTPS the cookies the framed launch
needs cross sites."""

import pytest
from django.test import Client
from lti_tool.models import LtiDeployment, LtiRegistration

from classroom.services import create_session
from lti.models import LtiLesson
from lti.services import teacher_for
from tests.lti.conftest import LAUNCH_URL, launch
from tests.lti.platform import INSTRUCTOR, LEARNER, login_params
from tests.test_security import policy

pytestmark = pytest.mark.django_db

ELSEWHERE = "https://lms.elsewhere.example"


def _framing(response):
    return policy(response)["frame-ancestors"], response.get("X-Frame-Options")


def _canvas():
    """A district's Canvas as its admin registers it: Instructure's shared issuer and sign-in,
    the district's own host for access tokens (the page that frames the tool)."""
    return LtiRegistration.objects.create(
        name="District Canvas",
        issuer="https://canvas.instructure.com",
        client_id="10000000000001",
        auth_url="https://sso.canvaslms.com/api/lti/authorize_redirect",
        token_url="https://district.instructure.com/login/oauth2/token",
        keyset_url="https://sso.canvaslms.com/api/lti/security/jwks",
    )


def test_the_launch_and_deep_linking_pages_name_the_registered_platforms_only(client, platform):
    _canvas()
    LtiRegistration.objects.create(  # registered once, then switched off by the admin
        name="Old LMS", issuer=ELSEWHERE, client_id="x", auth_url=f"{ELSEWHERE}/auth", is_active=False
    )
    expected = sorted(
        [
            platform.url,
            "https://canvas.instructure.com",
            "https://sso.canvaslms.com",
            "https://district.instructure.com",
        ]
    )

    deep = launch(client, platform, platform.claims("teacher-1", INSTRUCTOR, "LtiDeepLinkingRequest"))
    assert deep.status_code == 302 and _framing(deep) == (expected, None)
    form = client.get("/lti/add")
    assert form.status_code == 200 and _framing(form) == (expected, None)
    assert ELSEWHERE not in form["Content-Security-Policy"]

    # the login that starts every launch, and a refused launch's page
    tablet = Client()
    login = tablet.post("/lti/login", login_params(platform, platform.expect({}), LAUNCH_URL))
    assert _framing(login) == (expected, None)
    refused = tablet.post("/lti/launch", {"id_token": "not-a-token", "state": "forged"})
    assert refused.status_code == 403 and _framing(refused) == (expected, None)


def test_every_other_page_still_refuses_to_be_framed(client, platform):
    _canvas()
    launch(client, platform, platform.claims("teacher-1", INSTRUCTOR, "LtiDeepLinkingRequest"))
    for path in ("/", "/join", "/accounts/login/", "/lti/", "/sessions/new/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert _framing(response) == (["'none'"], "DENY"), path


def test_with_no_platform_registered_no_page_may_be_framed(client):
    for response in (client.get("/lti/login"), client.post("/lti/launch", {"id_token": "x", "state": "y"})):
        assert _framing(response) == (["'none'"], "DENY")


def test_over_https_the_framed_launch_sets_cross_site_cookies_and_no_other_page_does(client, platform):
    deep = launch(client, platform, platform.claims("teacher-1", INSTRUCTOR, "LtiDeepLinkingRequest"), secure=True)
    session_cookie = deep.cookies["sessionid"]
    assert session_cookie["samesite"] == "None" and session_cookie["secure"] is True
    assert session_cookie["httponly"] is True
    form = client.get("/lti/add", secure=True)
    assert form.cookies["csrftoken"]["samesite"] == "None" and form.cookies["csrftoken"]["secure"] is True

    # a learner framed in the course, over HTTPS: the nickname page's form holds
    tablet = Client()
    deployment = LtiDeployment.objects.get(deployment_id=platform.deployment_id)
    session = create_session(teacher=teacher_for(deployment, "teacher-1"), scenario="bermuda")
    LtiLesson.objects.create(session=session, deployment=deployment)
    item = {"url_id": 1, "title": "Lesson", "url": LAUNCH_URL, "custom": {"stormwise_session": str(session.pk)}}
    arrived = launch(tablet, platform, platform.resource_link(item, "learner-1", LEARNER), secure=True)
    assert arrived["Location"] == "/lti/nickname" and arrived.cookies["sessionid"]["samesite"] == "None"
    nickname = tablet.get("/lti/nickname", secure=True)
    assert nickname.cookies["csrftoken"]["samesite"] == "None"

    # the teacher's sign-in page, over HTTPS: its cookies stay SameSite=Lax
    page = Client().get("/accounts/login/", secure=True)
    assert page.cookies["csrftoken"]["samesite"] == "Lax"


def test_a_framed_page_that_lost_its_launch_says_so_inside_the_frame(platform):
    """A browser that keeps no cookie inside the course's frame (or a page opened too late)
    reaches the deep-linking or nickname page without the launch's sign-in: the page says why,
    framable where it is framed, instead of a sign-in page the frame would refuse to show."""
    for path in ("/lti/add", "/lti/nickname"):
        response = Client().get(path)
        page = response.content.decode()
        assert response.status_code == 403, path
        assert "no cookie for Stormwise inside the course&#x27;s page" in page and "open it in a new tab" in page
        assert _framing(response) == ([platform.url], None), path
