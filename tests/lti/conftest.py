import re
from urllib.parse import urlsplit

import pytest

from tests.lti.platform import Platform, login_params

LAUNCH_URL = "http://testserver/lti/launch"


@pytest.fixture
def platform(client):
    """The test LMS, registered in Stormwise and knowing Stormwise's published key set."""
    with Platform() as platform:
        platform.register()
        platform.tool_jwks = client.get("/lti/jwks.json").json()
        yield platform


def launch(client, platform, claims, secure=False, **options):
    """A browser (``client``) launching from the platform: the OIDC login at the tool, the
    platform's sign-in, and the id_token posted back to the tool (over HTTPS if ``secure``)."""
    hint = platform.expect(claims, **options)
    login = client.post("/lti/login", login_params(platform, hint, LAUNCH_URL), secure=secure)
    assert login.status_code == 302, login.content
    action, fields = platform.authorize(login["Location"])
    response = client.post(urlsplit(action).path, fields, secure=secure)
    response.launch_fields = fields
    return response


def deep_link(client, platform, sub="teacher-1", **form):
    """A teacher adding a Stormwise lesson to the course; returns the content item the platform
    received."""
    import requests

    from tests.lti.platform import INSTRUCTOR

    response = launch(client, platform, platform.claims(sub, INSTRUCTOR, "LtiDeepLinkingRequest"))
    assert response.status_code == 302 and response["Location"] == "/lti/add", response.content
    assert client.get("/lti/add").status_code == 200
    data = {
        "title": "Period 3",
        "scenario": "bermuda",
        "seats_per_table": 3,
        "fill_with_bots": "on",
        "turn_timer": "on",
        "turn_seconds": 120,
        "region": "us_gulf",
        "names": "auto",
        "intensity": "gentle",
        "age_band": "10+",
        "max_participants": 40,
        "passback": "completion",
        **form,
    }
    page = client.post("/lti/add", data)
    assert page.status_code == 200, page.content
    html = page.content.decode()
    action = re.search(r'action="([^"]+)" id="lti-return"', html).group(1)
    jwt = re.search(r'name="JWT" value="([^"]+)"', html).group(1)
    answer = requests.post(action, data={"JWT": jwt}, timeout=10)
    assert answer.status_code == 200
    return platform.deep_link_returns[-1]


def personal_words_kept() -> list[tuple[str, str]]:
    """Each (table, word) of a name or e-mail address the test platform knows that some row of
    some table holds: the names whole and each part long enough not to turn up by chance in a
    random token."""
    from django.db import connection

    from tests.lti.platform import PEOPLE

    words = {
        w.lower()
        for person in PEOPLE.values()
        for w in (person["name"], *person["name"].split(), person["email"])
        if len(w) >= 5
    }
    words |= {"admin@district.example", "district.example"}
    found = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f'SELECT t::text FROM "{table}" t')
            for (row,) in cursor.fetchall():
                found += [(table, w) for w in words if w in row.lower()]
    return found
