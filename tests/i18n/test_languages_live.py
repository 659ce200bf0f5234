"""The socket and the report worker speak their reader's language (real Redis layer, PostgreSQL)."""

import pytest
from asgiref.sync import async_to_sync
from django.utils import translation

from classroom import services
from scoring import services as scoring
from scoring.models import Report
from tests.factories import make_session

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_socket_speaks_the_tablets_language():
    from tests.classroom.test_sockets import answer_to, open_device

    session = make_session()
    _student, token = services.join(session=session, nickname="Hal", language="nl")
    services.start(session=session)

    async def run():
        socket, _lobby, _views = await open_device(session, token)
        answer = await answer_to(socket, "{not json")
        await socket.disconnect()
        return answer

    answer = async_to_sync(run)()
    assert answer["type"] == "error" and answer["message"] == "Dat bericht kon niet worden gelezen."


def test_reports_are_written_in_their_readers_language():
    """The Spanish student's report is Spanish, the Dutch one's Dutch, the class packet the
    teacher's; each page says its language."""
    from tests.scoring.conftest import play_as_students

    session = make_session()
    for nickname, language in (("Ida", "es"), ("Jan", "nl"), ("Kim", "en")):
        services.join(session=session, nickname=nickname, language=language)
    services.start(session=session)
    session.refresh_from_db()
    play_as_students(session)
    with translation.override("nl"):
        session.language = "nl"
        session.save(update_fields=["language"])
        services.end(session=session)
    for report in scoring.plan_reports(session):
        scoring.build_report(report.pk)
    written = {}
    for report in Report.objects.filter(session=session).select_related("seat__participant"):
        assert report.status == Report.Status.DONE, report.error
        reader = report.seat.participant.nickname if report.seat else "class"
        written[reader] = report.html
    assert '<html lang="es">' in written["Ida"] and "Tus 48 horas" in written["Ida"]
    assert '<html lang="nl">' in written["Jan"] and "Jouw 48 uur" in written["Jan"]
    assert '<html lang="en">' in written["Kim"] and "Your 48 hours" in written["Kim"]
    assert '<html lang="nl">' in written["class"] and "Vragen voor het gesprek" in written["class"]
    assert (
        "Salió de casa a la hora" in written["Ida"]
        or "Se quedó en casa" in written["Ida"]
        or "se quedó en casa" in written["Ida"]
    )


def test_the_dashboard_socket_speaks_the_teachers_language():
    """A Dutch teacher's dashboard names the scenario's places in Dutch: its frames name them by
    id, and the board its page draws them with is Dutch."""
    import json
    import re

    from django.conf import settings
    from django.test import Client

    from config.asgi import application
    from tests.factories import PASSWORD, make_teacher
    from tests.sockets import WebsocketCommunicator

    teacher = make_teacher()
    session = make_session(teacher=teacher)
    services.join(session=session, nickname="Noor", language="nl")
    services.start(session=session)
    desk = Client()
    assert desk.login(username=teacher.email, password=PASSWORD)
    cookies = "; ".join(f"{k}={v.value}" for k, v in desk.cookies.items())
    cookies += f"; {settings.LANGUAGE_COOKIE_NAME}=nl"
    desk.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"

    async def run():
        socket = WebsocketCommunicator(
            application,
            f"/ws/sessions/{session.pk}/",
            headers=[(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookies.encode())],
        )
        connected, _ = await socket.connect()
        assert connected
        snapshot = await socket.receive_json_from(timeout=10)
        await socket.disconnect()
        return snapshot

    text = json.dumps(async_to_sync(run)(), ensure_ascii=False)
    assert '"position": "H"' in text and '"Home"' not in text  # every household starts at home
    page = desk.get(f"/sessions/{session.pk}/").content.decode()
    board_url = re.search(r'data-board-url="([^"]+)"', page).group(1).replace("&amp;", "&")
    home = next(node for node in desk.get(board_url).json()["nodes"] if node["id"] == "H")
    assert home["label"] == "Huis"
