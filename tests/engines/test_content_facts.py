"""Every real-world claim in a scenario's content files (what a student's tablet shows) is graded
and sourced exactly like the knowledge base in scoring/outcomes/facts.json."""

import json
import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from scenarios import registry
from scenarios.evacuation import ENGINE as EVACUATION
from scenarios.evacuation import debrief as EVACUATION_DEBRIEF
from scenarios.evacuation import rules as evacuation_rules
from scenarios.resort import build_programs
from scenarios.stormfury import ENGINE as STORMFURY
from scoring.outcomes import read_facts

FACTS = {fact["key"]: fact for fact in read_facts()}
DAY = timedelta(hours=24)
CONTENT_FILES = sorted(path for scenario in registry.all() for path in (scenario.folder / "content").glob("*.json"))
#: a real-world quantity: it belongs in a graded basis, never in a card's own words
REAL_NUMBER = re.compile(r"\d[\d,.]*\s*(?:mph|kt\b|knots|%|per ?cent|inch|million|billion)", re.I)
#: student-visible words of a card, role, space or timeline entry
SHOWN = ("title", "text", "power", "name", "question")
#: earlier editions of content files, kept as stored games were set up with them (never edited, so
#: a link found for a fact later is only in the edition played now)
SUPERSEDED = {
    ("evacuation", "cards.json"),
    ("stormfury", "hurricane_cards.json"),
    ("stormfury", "resource_cards.json"),
    ("tornado_alert", "deck.json"),
}
#: lists of things that each say explicitly whether they carry a real-world basis
CARD_LISTS = {
    ("cards.json", "cards"),
    ("hurricane_cards.json", "cards"),
    ("resource_cards.json", "cards"),
    ("roles.json", "roles"),
}


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
        if (path.parent.parent.name, path.name) not in SUPERSEDED:  # stored games' files keep their words
            assert node.get("grade") == fact["confidence"], f"{path.name}{where}: grade differs from {fact['key']}"
            assert (node.get("url") or None) == (fact["url"] or None), (
                f"{path.name}{where}: link differs from {fact['key']}"
            )
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
                assert "basis" in item, (
                    f"{path.name}: {item.get('id') or item.get('kind')} lacks a basis (null if none)"
                )
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
    ((_, node),) = claims(misgraded)
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


def _rules_of(folder, name, words):
    from scenarios.base import rules_fingerprint

    return rules_fingerprint(json.loads((folder / name).read_text(encoding="utf-8")), words)


def test_corrected_words_come_as_a_new_edition_with_the_same_rules():
    """Files stored games were set up with stay as they were; each new edition changes words and
    tags only, so an old game replays the same and every tablet shows the corrected words."""
    from scenarios.evacuation import tables as evacuation_tables

    evacuation = Path(evacuation_tables.__file__).parent / "content"
    words = evacuation_tables.WORDS
    assert _rules_of(evacuation, "cards.json", words) == _rules_of(evacuation, "cards_2.json", words)
    assert evacuation_tables.CARD_FILES[evacuation_tables.CARDS_EDITION] == "cards_2.json"
    stormfury = Path(evacuation_tables.__file__).parent.parent / "stormfury" / "content"
    for old, new in (
        ("hurricane_cards.json", "hurricane_cards_2.json"),
        ("resource_cards.json", "resource_cards_2.json"),
    ):
        assert _rules_of(stormfury, old, words) == _rules_of(stormfury, new, words), new
    old_cards = json.loads((evacuation / "cards.json").read_text(encoding="utf-8"))["cards"]
    assert next(c for c in old_cards if c["id"] == "C23")["basis"].startswith("Plan on about a gallon")  # kept


def test_the_second_edition_says_what_is_true():
    """The Dam card no longer promises a road that never floods (officials close flooded roads);
    the Loop Current card's example is a Gulf storm; C23's 12 gallons is not put in Ready.gov's
    mouth; the Ike expenditure study names its real authors; death tolls are tagged."""
    board = STORMFURY.board()
    dam = next(c for c in board["resource_cards"] if c["kind"] == "dam")
    assert "never floods" not in dam["text"] and "close" in dam["text"]
    assert "Officials close roads" in dam["basis"]["text"] and not re.search(r"drown|death", dam["basis"]["text"])
    loop = next(c for c in board["hurricane_cards"] if c["title"] == "Loop Current")
    assert "Gulf" in loop["basis"]["text"] and "Wilma" not in loop["basis"]["text"]
    assert "Caribbean" not in loop["basis"]["text"]
    cards = {c["id"]: c for c in EVACUATION.board()["cards"]}
    assert "12 gallons" not in cards["C23"]["basis"] and "several days" in cards["C23"]["basis"]
    assert "drown" not in cards["C29"]["basis"]
    assert all(cards[c]["deaths"] and cards[c]["age_band"] == "13+" for c in ("C22", "C28", "C30"))
    assert cards["C33"]["source"].startswith("Mozumder")
    assert (
        FACTS["evacuation-cost-ike"]["source"].startswith("Mozumder")
        and "Whitehead" not in FACTS["evacuation-cost-ike"]["source"]
    )


def test_securing_a_home_is_not_paired_with_a_construction_standard():
    """Two hours of plywood is not a FORTIFIED roof or a building code: no fact about
    construction speaks to the 'secure home' decision."""
    from types import SimpleNamespace

    facts = [SimpleNamespace(**fact) for fact in FACTS.values()]
    picked = [f.key for f in EVACUATION_DEBRIEF.matching_facts(["secure_home"], facts, limit=5)]
    assert not {"fortified-roofs-sally", "charley-building-code", "mitigation-pays"} & set(picked), picked


def test_wilmas_rapid_intensification_is_what_the_cited_best_track_gives():
    """The fact and Stormfury's cards cite HURDAT2 for Wilma's rise: their figure is the largest
    24-hour rise in Wilma's fixes in the extract the repository carries, with its window."""
    storms = {storm["id"]: storm for storm in build_programs.parse(build_programs.EXTRACT.read_text(encoding="utf-8"))}
    wind = {
        datetime.strptime(fix["date"] + fix["time"], "%Y%m%d%H%M"): fix["wind"] for fix in storms["AL252005"]["fixes"]
    }
    rise, start, end, when = max(
        (wind[t + DAY] - wind[t], wind[t], wind[t + DAY], t + DAY) for t in wind if t + DAY in wind
    )
    said = FACTS["rapid-intensification"]["number"]
    assert f"from {start} to {end} kt (+{rise} kt)" in said
    assert f"{when:%H} UTC on {when.day} {when:%B %Y}" in said
    cards = [c for c in STORMFURY.board()["hurricane_cards"] if c["basis"] and "Wilma" in c["basis"]["text"]]
    assert cards and all(f"gained {rise} kt in 24 hours" in c["basis"]["text"] for c in cards)


def test_pets_stay_behind_says_what_its_study_found_and_no_more():
    """Heath, Kass, Beck & Glickman (2001), abstract: 19.4 % of 397 Yuba County households failed to
    evacuate; 20.9 % of households with pets against 16.3 % without (p = 0.11, not significant);
    pet-owning households without children against those with children, odds ratio 1.3; the more
    pets, the higher the risk. The fact once read the odds ratio as "pet owners stay behind more"
    and added a 2006 law the 2001 paper cannot have reported."""
    fact = FACTS["pets-stay-behind"]
    for figure in ("19.4%", "with pets 20.9%", "without pets 16.3%", "p = 0.11", "the more pets, the higher the risk"):
        assert figure in fact["number"]
    card = {c["id"]: c for c in EVACUATION.board()["cards"]}["C21"]
    for words in (fact["statement"], fact["number"], card["basis"]):
        assert "odds ratio" not in words and "Congress" not in words and "PETS Act" not in words
        assert "households with pets were more likely" not in words and "pet owners more likely" not in words


#: Smith & McCarty (2009), Demography 46(1), Table 3, "Type of Lodging (% distribution)", columns
#: Southeast, Central, Southwest, Charlotte, Northwest and Florida (the statewide sample), as the
#: table reads at pmc.ncbi.nlm.nih.gov/articles/PMC2831263/table/t3-dem-46-0127
LODGING_TABLE_3 = {
    "relative": (58.0, 62.6, 63.3, 56.5, 57.6, 65.2),
    "shelter": (6.6, 5.8, 11.3, 3.3, 7.1, 5.7),
    "hotel": (20.4, 14.3, 7.3, 25.3, 22.3, 15.3),
    "other": (15.0, 17.3, 18.0, 14.9, 13.0, 13.8),
}


def test_the_florida_2004_destinations_are_table_3s_statewide_column():
    """The exact figures are the statewide ('Florida') column of Table 3's type of lodging, not a
    region's; the fact and its card link that table, so a reader finds the numbers where cited."""
    fact = FACTS["destinations-florida-2004"]
    statewide = {kind: column[-1] for kind, column in LODGING_TABLE_3.items()}
    assert fact["values"] == statewide and round(sum(statewide.values()), 1) == 100.0
    assert fact["number"] == "65.2% family or friends, 15.3% hotel or motel, 5.7% public shelter"
    assert "Table 3" in fact["title"] and "statewide" in fact["title"]
    assert fact["url"].endswith("/table/t3-dem-46-0127")
    card = {c["id"]: c for c in EVACUATION.board()["cards"]}["C19"]
    assert "about 15 %" in card["basis"] and "about 65 %" in card["basis"] and card["url"] == fact["url"]
    regional = FACTS["destinations-regional-range"]["number"]
    for kind, words in (("relative", "family or friends"), ("hotel", "hotel"), ("shelter", "shelter")):
        regions = LODGING_TABLE_3[kind][:-1]
        assert f"{words} {min(regions)}-{max(regions)}%" in regional


def test_the_resort_rules_quote_nibs_figures_as_the_report_gives_them():
    """NIBS's Natural Hazard Mitigation Saves gives 7:1 for federal riverine-flood mitigation
    grants and 5:1 for wind mitigation grants (safe rooms included): the reference fact sheet's
    row 23. It gives no 7:1 for surge grants, so the rule book no longer reads "7 for flood and
    surge"; the seawall borrowing the flood grants' ratio is said to be the game's choice."""
    text = (registry.get("resort").folder / "RULES.md").read_text(encoding="utf-8")
    assert "flood and surge" not in text
    assert "riverine-flood mitigation grants, 7:1" in text
    assert "wind mitigation grants, including safe rooms, 5:1" in text
    assert "the 6:1 average of all grants" in text
    assert "5 to 1" in FACTS["mitigation-pays"]["number"] and "$6 saved per $1" in FACTS["mitigation-pays"]["number"]
