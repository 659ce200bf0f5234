"""Content words (cards, places, roles, reasons) carry translations beside the English, complete
and in step with it; a tablet in Spanish or Dutch gets its board and views with them."""

import json
import re

import pytest
from django.test import Client

from classroom import languages
from scenarios import registry, words
from tests.factories import make_session

# Every language a scenario lists besides English has a complete translation of its content words.
SCENARIOS = [s for s in registry.all() if "tests" not in s.package]
CASES = [(s.key, language) for s in SCENARIOS for language in s.languages if language != "en"]


def content_of(scenario):
    return [
        json.loads(path.read_text(encoding="utf-8")) for path in sorted((scenario.folder / "content").glob("*.json"))
    ]


def numbers(text):
    """The numbers a sentence states, however a language groups digits (300,000 / 300.000)."""
    return sorted(re.findall(r"\d+", re.sub(r"(?<=\d)[,.](?=\d{3}\b)", "", text)))


def test_every_real_scenario_is_offered_in_spanish_and_dutch():
    assert SCENARIOS and all({"en", "es", "nl"} <= set(s.languages) for s in SCENARIOS)


@pytest.mark.parametrize("key, language", CASES)
def test_content_words_are_translated_completely_and_keep_their_numbers(key, language):
    scenario = registry.get(key)
    path = scenario.folder / "content" / "translations" / f"{language}.json"
    translated = json.loads(path.read_text(encoding="utf-8"))
    english = words.content_words(content_of(scenario))
    assert [w for w in english if w not in translated] == [], "missing: translate these"
    assert [w for w in translated if w not in english] == [], "stale: the English changed or went"
    for source, text in translated.items():
        assert text.strip(), source
        assert numbers(text) == numbers(source), (source, text)


def test_translating_a_view_changes_words_only():
    table = {"Home": "Casa", "Bank": "Banco"}
    view = {
        "position": "home",
        "position_label": "Home",
        "roads": [{"to": "bank", "label": "Bank"}],
        "Home": 3,
        "hour": 1.5,
    }
    assert words.translate_words(view, table) == {
        "position": "home",
        "position_label": "Casa",
        "roads": [{"to": "bank", "label": "Banco"}],
        "Home": 3,
        "hour": 1.5,
    }


@pytest.mark.django_db
def test_a_spanish_tablet_gets_the_board_and_its_view_in_spanish():
    session = make_session()
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    client.post("/join", {"code": session.join_code, "nickname": "Lu", "players": 1})
    page = client.get(f"/play/{session.pk}/").content.decode()
    board_url = re.search(r'data-board-url="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert board_url.endswith("&lang=es")
    board = json.dumps(client.get(board_url).json(), ensure_ascii=False)
    assert "Refugio público (instituto)" in board and "Public shelter (high school)" not in board
    # the map's streets too: a Spanish tablet's map read "Palm Street" beside "Refugio público"
    assert "Calle Palma" in board and "Palm Street" not in board
    from classroom import services

    services.start(session=session)
    state = client.get(f"/play/{session.pk}/poll").json()
    view = json.dumps(state["views"], ensure_ascii=False)
    assert '"position": "H"' in view and '"Home"' not in view  # the board names the place
    english = languages.translate_content(state, session.scenario, "en")
    assert english == state  # English tablets get the engine's words untouched


@pytest.mark.django_db
@pytest.mark.parametrize("language, street", [("es", "Calle Principal"), ("nl", "Hoofdstraat")])
def test_the_evacuation_maps_streets_are_named_in_the_tablets_language(language, street):
    session = make_session()
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.post("/join", {"code": session.join_code, "nickname": "Lu", "players": 1})
    page = client.get(f"/play/{session.pk}/").content.decode()
    board_url = re.search(r'data-board-url="([^"]+)"', page).group(1).replace("&amp;", "&")
    board = json.dumps(client.get(board_url).json(), ensure_ascii=False)
    assert street in board
    assert not [name for name in ("Main Street", "Coast Road", "Bayou Bend", "Beach Boulevard") if name in board]


@pytest.mark.parametrize("language", ["es", "nl"])
def test_every_fact_has_its_statement_and_number_in_the_language_with_the_same_numbers(language):
    from scoring import outcomes

    facts = outcomes.read_facts()
    translated = outcomes.translations(language)
    assert sorted(translated) == sorted(f["key"] for f in facts), "a fact is missing or stale"
    for fact in facts:
        for field in outcomes.TRANSLATED:
            text = translated[fact["key"]][field]
            assert text.strip() and numbers(text) == numbers(fact[field]), (fact["key"], field, text)


@pytest.mark.django_db
def test_a_report_reader_sees_facts_in_their_language():
    from django.utils import translation

    from scoring.selectors import shown_facts

    session = make_session()
    with translation.override("es"):
        spanish = {f.key: f for f in shown_facts(session, "student")}
    with translation.override("en"):
        english = {f.key: f for f in shown_facts(session, "student")}
    fact = spanish["destinations-florida-2004"]
    assert fact.statement.startswith("Cuando Florida evacuó") and fact.number.startswith("65,2 %")
    assert fact.source == english["destinations-florida-2004"].source  # sources stay as given
    assert english["destinations-florida-2004"].statement.startswith("When Florida evacuated")
