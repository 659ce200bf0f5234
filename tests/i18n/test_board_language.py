"""The teacher's dashboard and projector draw their table summaries from the scenario's board:
its place names come in the teacher's language, as the tablets' come in the student's."""

import html
import re

import pytest
from django.test import Client

from tests.factories import PASSWORD, make_session, make_teacher

pytestmark = pytest.mark.django_db


def board_names(client, page_url):
    page = client.get(page_url).content.decode()
    board_url = html.unescape(re.search(r'data-board-url="([^"]+)"', page).group(1))
    return {location["name"] for location in client.get(board_url).json()["locations"]}


@pytest.mark.parametrize("language, cellar", [("nl", "vanuit een schuilkelder"), ("en", "from a storm cellar")])
def test_the_dashboard_and_projector_name_places_in_the_teachers_language(language, cellar):
    teacher = make_teacher()
    session = make_session(teacher=teacher, scenario="tornado_alert")
    desk = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert desk.login(username=teacher.email, password=PASSWORD)
    for page in (f"/sessions/{session.pk}/", f"/sessions/{session.pk}/screen"):
        names = board_names(desk, page)
        assert cellar in names, (page, sorted(names)[:6])
