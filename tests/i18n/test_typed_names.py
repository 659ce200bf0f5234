"""A nickname is shown as the student typed it, whatever the reader's language: students named
after content words of their game ("Rover", "Genie", "Bank", "Dam") keep their names on Spanish
and Dutch tablets, on the teacher's dashboard and in their reports, while the game's own words
around them are translated."""

import json
import re

import pytest

from classroom import languages, selectors, services
from classroom.models import Participant
from games import broadcast
from scenarios import registry
from tests.factories import make_session

SCENARIOS = [s for s in registry.all() if "tests" not in s.package]


def namesake_words(scenario, count=4):
    """Content words of ``scenario`` that a student could type as a nickname and that Spanish or
    Dutch translates to something else (plain names fill the table when there are fewer)."""
    found = []
    for language in ("es", "nl"):
        path = scenario.folder / "content" / "translations" / f"{language}.json"
        for english, translated in json.loads(path.read_text(encoding="utf-8")).items():
            if (
                english != translated
                and re.fullmatch(r"[A-Za-z][A-Za-z .']{0,15}", english)
                and english.lower() not in {w.lower() for w in found}
            ):
                found.append(english)
    return (found + ["Ana", "Ben", "Cas", "Dee"])[:count]


def test_most_games_have_words_a_student_could_be_named():
    assert sum(namesake_words(s)[0] != "Ana" for s in SCENARIOS) >= 4


@pytest.mark.django_db
@pytest.mark.parametrize("key", [s.key for s in SCENARIOS])
def test_students_named_after_content_words_keep_their_names_everywhere(key):
    scenario = registry.get(key)
    names = namesake_words(scenario)
    session = make_session(scenario=key)
    for name in names:
        services.join(session=session, nickname=name)
    services.approve_all(session=session)
    services.start(session=session)
    session.refresh_from_db()

    for language in ("es", "nl"):
        for participant in Participant.objects.filter(session=session):
            Participant.objects.filter(pk=participant.pk).update(language=language)
            # what the socket sends (the frame as JSON text) and what the long-poll answers
            sent = json.loads(
                languages.translate_content_text(broadcast.encode(selectors.device_state(participant)), key, language)
            )
            assert sent["lobby"]["nickname"] == participant.nickname
            assert sorted(m["name"] for m in sent["lobby"]["mates"] if m["name"]) == sorted(names)
        board = languages.translate_frame(selectors.dashboard(session), key, language)
        assert sorted(p["name"] for p in board["participants"]) == sorted(names)
        assert sorted(s["name"] for t in board["tables"] for s in t["seats"] if s["name"]) == sorted(names)

    services.finish_with_bots(session=session)
    services.end(session=session)
    from django.utils import translation

    from scoring import reports

    seat = session.tables.get(number=1).seats.exclude(participant=None).select_related("participant").first()
    for language in ("es", "nl"):
        with translation.override(language):
            html, _data = reports.seat_report(session, seat)
        assert seat.participant.nickname in html, language
