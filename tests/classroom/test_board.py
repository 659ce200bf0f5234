import hashlib
import html as html_lib
import json
import re

import pytest
from django.test import Client

from classroom.consumers import token_cookie
from scenarios.registry import ENGINES
from tests.factories import started_session

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("scenario", ["evacuation", "stormfury"])
def test_every_game_screen_fetches_the_board_at_an_address_versioned_by_the_board(scenario):
    """Browsers keep the board for good, so its address changes whenever the board does (not
    only its content files): the tablet, the dashboard and the projector all ask for the board
    the engine draws now, with the real-world claims the class may see (its ``for``), and get it."""
    session, devices = started_session(students=2, scenario=scenario)
    tablet = Client()
    tablet.cookies[token_cookie(session.pk)] = devices[0][1]
    teacher = Client()
    teacher.force_login(session.teacher)
    board = ENGINES[scenario].board()
    version = hashlib.sha256(json.dumps(board, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]
    for client, page in [
        (tablet, f"/play/{session.pk}/"),
        (teacher, session.get_absolute_url()),
        (teacher, f"/sessions/{session.pk}/screen"),
    ]:
        html = client.get(page).content.decode()
        url = html_lib.unescape(re.search(r'data-board-url="([^"]+)"', html).group(1))
        assert url == f"/games/board/{scenario}.json?v={version}&for=gentle-10", page
        answer = client.get(url)
        shown = json.loads(json.dumps(session.audience.redact(board)))
        assert answer.json() == shown and "immutable" in answer["Cache-Control"]
