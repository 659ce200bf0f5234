"""Every real-world claim in a scenario's content files (what a student's tablet shows) is graded
and sourced exactly like the knowledge base in scoring/outcomes/facts.json."""
import json
import re

import pytest

from scenarios import registry
from scenarios.evacuation import ENGINE as EVACUATION
from scenarios.evacuation import rules as evacuation_rules
from scenarios.stormfury import ENGINE as STORMFURY
from scoring.outcomes import read_facts

FACTS = {fact["key"]: fact for fact in read_facts()}
CONTENT_FILES = sorted(
    path for scenario in registry.all() for path in (scenario.folder / "content").glob("*.json"))
#: a real-world quantity: it belongs in a graded basis, never in a card's own words
REAL_NUMBER = re.compile(r"\d[\d,.]*\s*(?:mph|kt\b|knots|%|per ?cent|inch|million|billion)", re.I)
#: student-visible words of a card, role, space or timeline entry
SHOWN = ("title", "text", "power", "name", "question")
#: lists of things that each say explicitly whether they carry a real-world basis
CARD_LISTS = {("cards.json", "cards"), ("hurricane_cards.json", "cards"), ("resource_cards.json", "cards"),
              ("roles.json", "roles")}


def walk(value, where="", parent_key=None):
    """(location, dict, the key it hangs from) for every dict in a JSON document."""
    if isinstance(value, dict):
        yield where, value, parent_key
        for key, item in value.items():
            yield from walk(item, f"{where}.{key}", key)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from walk(item, f"{where}[{i}]", parent_key)


def claims(document):
    """Every citation in a document: a dict with a source, or one naming a fact."""
    for where, node, _parent in walk(document):
        if node.get("source") is not None or node.get("fact") is not None:
            yield where, node


@pytest.mark.parametrize("path", CONTENT_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_cited_claim_carries_the_grade_and_link_of_its_fact(path):
    """A basis names its facts.json entry, has that entry's grade and link, and a citation."""
    document = json.loads(path.read_text(encoding="utf-8"))
    for where, node in claims(document):
        fact = FACTS.get(node.get("fact"))
        assert fact is not None, f"{path.name}{where}: cites {node.get('source')!r} without a known fact"
        assert node.get("grade") == fact["confidence"], f"{path.name}{where}: grade differs from {fact['key']}"
        assert (node.get("url") or None) == (fact["url"] or None), f"{path.name}{where}: link differs from {fact['key']}"
        assert isinstance(node.get("source"), str) and node["source"].strip(), f"{path.name}{where}: no citation"
        words = node["basis"] if "basis" in node else node.get("text")
        if "basis" in node or words is not None:
            assert isinstance(words, str) and words.strip(), f"{path.name}{where}: a citation without a claim"


@pytest.mark.parametrize("path", CONTENT_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_no_unsourced_real_world_claim_reaches_a_student(path):
    """Every card and role says whether it rests on a fact (a basis, or an explicit null); a
    basis never stands without a source; and no real-world quantity (mph, kt, %, inches,
    millions) sits in a card's own words, where no grade or source could go with it."""
    document = json.loads(path.read_text(encoding="utf-8"))
    for file_name, list_key in CARD_LISTS:
        if path.name == file_name:
            for item in document[list_key]:
                assert "basis" in item, f"{path.name}: {item.get('id') or item.get('kind')} lacks a basis (null if none)"
                basis = item["basis"]
                if basis is None:
                    assert not item.get("source") and not item.get("fact"), item
                elif isinstance(basis, str):
                    assert item.get("source") and item.get("fact"), f"{path.name}: {item['id']}'s basis is unsourced"
                else:
                    assert basis.get("source") and basis.get("fact"), f"{path.name}: {item}'s basis is unsourced"
    for where, node, parent_key in walk(document):
        if parent_key == "basis":
            continue  # a graded claim's own words
        for field in SHOWN:
            text = node.get(field)
            if isinstance(text, str):
                assert not REAL_NUMBER.search(text), f"{path.name}{where}.{field}: {text!r} states a real-world number"


def test_the_checks_refuse_an_unsourced_or_misgraded_claim():
    """The checks above catch the faults they exist for."""
    unsourced = {"cards": [{"id": "X", "title": "t", "text": "t", "basis": "Wind gusts of 80 mph.", "source": None}]}
    assert not list(claims(unsourced))  # no citation at all ...
    card = unsourced["cards"][0]
    assert card["basis"] and not (card.get("source") and card.get("fact"))  # ... which the card check refuses
    misgraded = {"basis": "x", "source": "NWS", "fact": "turn-around-dont-drown", "grade": "S", "url": None}
    (_, node), = claims(misgraded)
    assert node["grade"] != FACTS[node["fact"]]["confidence"]
    assert REAL_NUMBER.search("Gusts over 40 mph: the bridge closes.")
    assert not REAL_NUMBER.search("Contraflow roads are easier (numbers drop by 2).")


def test_the_tablet_gets_each_basis_with_its_grade():
    """The boards the tablets load carry every basis with its grade, so a secondary or
    unverified claim is shown as reported, never as plain fact."""
    for card in EVACUATION.board()["cards"]:
        if card["basis"]:
            assert card["grade"] in ("O", "S", "U") and card["source"]
    board = STORMFURY.board()
    for item in board["roles"] + board["resource_cards"] + board["hurricane_cards"]:
        if item["basis"]:
            assert item["basis"]["grade"] in ("O", "S", "U") and item["basis"]["source"]
    reported = [c["id"] for c in EVACUATION.board()["cards"] if c["basis"] and c["grade"] != "O"]
    assert "C15" in reported and "C27" in reported


def test_the_fixed_claims_match_their_sources():
    """The claims the review found wrong now say what their sources say."""
    cards = {c["id"]: c for c in EVACUATION.board()["cards"]}
    assert "mph" not in cards["C15"]["text"] and "sustained winds pass 45 mph" in cards["C15"]["basis"]
    assert "crash" not in cards["C16"]["text"].lower() and "40 mph" in cards["C16"]["basis"]
    assert "statewide" in cards["C19"]["basis"] and cards["C19"]["fact"] == "destinations-florida-2004"
    assert cards["C21"]["fact"] == "pets-stay-behind" and "1997" in cards["C21"]["basis"]
    assert "24 meals" not in cards["C23"]["basis"] and "gallon of water per person per day" in cards["C23"]["basis"]
    timeline = {t["minute"]: t for t in EVACUATION.board()["timeline"]}
    assert "40 mph" not in timeline[2640]["text"] and timeline[2640]["fact"] == "bridges-close"
    board = STORMFURY.board()
    wilma = [c for c in board["hurricane_cards"] if c["basis"] and "Wilma" in c["basis"]["text"]]
    assert wilma and all("Caribbean" in c["basis"]["text"] and "Gulf water" not in c["basis"]["text"] for c in wilma)
    evacuate = next(c for c in board["resource_cards"] if c["kind"] == "evacuate")
    assert "direct deaths" in evacuate["basis"]["text"]


def test_correcting_words_never_changes_the_rules_of_stored_games():
    """Card texts and bases are words: the fingerprint of everything else is the one engine
    1.0.0 shipped with, so stored games play on under the same rules."""
    assert evacuation_rules.RULES_FINGERPRINT == "899977f21dd73ca3"
