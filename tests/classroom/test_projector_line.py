"""The dashboard's snapshots carry each table's projector line (``Engine.projector``) as the
session's class may see it: at nothing when the games start, done when they end, for every
scenario; the projector page holds the scenario's sentences for them in the teacher's language;
the table's whole teacher view, which dashboards splice into snapshots as held text, does not
repeat the line unscreened."""

import json

import pytest
from django.test import Client

from classroom import selectors, services
from games import broadcast
from games import services as games
from scenarios import registry
from tests.factories import started_session

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("key", registry.keys())
def test_each_tables_projector_line_goes_from_nothing_to_done_as_its_game_is_played(key):
    session, _devices = started_session(students=2, scenario=key)
    (table,) = selectors.dashboard(session)["tables"]
    line = table["projector"]
    assert line["percent"] == 0 and line["done"] == 0
    words = registry.get(key).engine.projector_words
    assert words[line["unit"]] % {**line["numbers"], "done": line["done"], "of": line["of"]}
    services.finish_with_bots(session=session)
    (table,) = selectors.dashboard(session)["tables"]
    assert table["projector"]["percent"] == 100 and table["projector"]["done"] == table["projector"]["of"]


def test_the_teacher_view_dashboards_keep_leaves_the_projector_line_to_the_snapshot():
    session, _devices = started_session(students=2, scenario="stormfury")
    summary = games.current_view(session.tables.get().game, None)
    assert "projector" in summary and "projector" in broadcast.head(summary)
    assert "projector" not in json.loads(broadcast.summary_text(summary))


@pytest.mark.parametrize(
    ("language", "sentence"),
    [("en", "Round %(done)s of %(of)s"), ("es", "Ronda %(done)s de %(of)s"), ("nl", "Ronde %(done)s van %(of)s")],
)
def test_the_projector_page_holds_the_scenarios_sentences_in_the_teachers_language(language, sentence):
    session, _devices = started_session(students=2, scenario="stormfury")
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(session.teacher)
    page = client.get(f"/sessions/{session.pk}/screen").content.decode()
    words = json.loads(page.split('id="projector-words" type="application/json">')[1].split("</script>")[0])
    assert words["round"].startswith(sentence)
