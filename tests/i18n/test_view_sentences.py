"""The sentences an engine puts in a view (evacuation's feed, a road's odds) reach a Spanish or
Dutch tablet, the teacher's dashboard and a report in the reader's language, built from what they
say (``scenarios.words.SAY``); English readers get the engine's English unchanged."""

import json
import re
from importlib import import_module

import pytest
from django.utils import translation

from classroom import languages
from games.refusals import Refused
from scenarios import registry, words
from scenarios.base import IllegalAction
from scenarios.evacuation import ENGINE as EVACUATION, analysis, rules as evacuation
from scenarios.evacuation.bots import BOTS as EVACUATION_BOTS

SCENARIOS = [s.key for s in registry.all() if "tests" not in s.package]
SNAPSHOTS = (0, 3, 10, 25, 60, 120)
# Words kept in their original language on purpose: a source is cited as published.
KEPT = {"source"}


def table(key, language):
    path = registry.get(key).folder / "content" / "translations" / f"{language}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def views_along_a_game(key, seats=4, seed=5):
    """Each seat's and the teacher's view at a few points of a game the policy bot plays."""
    engine = registry.engine(key)
    bots = import_module(f"{registry.get(key).package}.bots")
    bot = bots.BOTS[bots.POLICY_BOT]
    state = engine.setup(seed, seats)
    for step in range(max(SNAPSHOTS) + 1):
        if step in SNAPSHOTS or engine.finished(state):
            yield [engine.view(state, seat) for seat in range(seats)] + [engine.view(state, None)]
        if engine.finished(state) or not engine.to_act(state):
            return
        for seat in engine.to_act(state):
            if seat in engine.to_act(state):
                engine.apply(state, seat, bot(state, seat))


def english_left(english, shown, path=""):
    """Sentences (two lower-case English words or more) that ``shown`` still has as ``english``."""
    if isinstance(english, dict):
        return [
            left
            for key, item in english.items()
            if key not in KEPT and key != words.SAY and key in shown
            for left in english_left(item, shown[key], f"{path}.{key}")
        ]
    if isinstance(english, list):
        return [left for a, b in zip(english, shown) for left in english_left(a, b, f"{path}[]")]
    if isinstance(english, str) and english == shown and re.search(r"[a-z]{2,} [a-z]{2,}", english):
        return [f"{path}: {english}"]
    return []


def said_pairs(english, shown):
    """Each part of ``english`` that says what its sentence says, beside the same part of
    ``shown`` (translating keeps a view's shape: the same keys, less ``say``, the same lists)."""
    if isinstance(english, dict):
        here = [(english, shown)] if words.SAY in english else []
        return here + [
            pair for key, item in english.items() if key != words.SAY for pair in said_pairs(item, shown[key])
        ]
    if isinstance(english, list):
        return [pair for a, b in zip(english, shown, strict=True) for pair in said_pairs(a, b)]
    return []


@pytest.mark.parametrize("language", ["es", "nl"])
@pytest.mark.parametrize("key", SCENARIOS)
def test_a_spanish_or_dutch_view_carries_no_english_sentence(key, language):
    """Along a bot game, no view in Spanish or Dutch (tablets and dashboard) keeps an English
    sentence: every feed line and road's odds is written in the reader's language."""
    said = 0
    for views in views_along_a_game(key):
        for english in views:
            shown = languages.translate_content(english, key, language)
            assert english_left(english, shown) == []
            for line, shown_line in said_pairs(english, shown):
                field = line[words.SAY].get("into", "text")
                assert words.SAY not in shown_line
                assert shown_line[field] != line[field], line[field]
                said += 1
    if key == "evacuation":
        assert said > 50, "the game's feeds and roads were looked at"


def played_evacuation(seed=3):
    state = EVACUATION.setup(seed, 4)
    for _ in range(400):
        if EVACUATION.finished(state):
            break
        for seat in EVACUATION.to_act(state):
            EVACUATION.apply(state, seat, EVACUATION_BOTS["cautious"](state, seat))
    return state


def drive_line(state):
    for seat in range(4):
        for line in EVACUATION.view(state, seat)["feed"]:
            if line["type"] == "moved" and "rolled" in line["text"]:
                return seat, line
    raise AssertionError("no household drove a road that needed a roll")


def test_a_drive_reads_in_spanish_and_dutch_with_the_place_in_that_language():
    """ "Drove to Bank (rolled 7, needed 3+)" on an English tablet is the Spanish or Dutch sentence
    with the Spanish or Dutch place name on the others."""
    state = played_evacuation()
    seat, line = drive_line(state)
    place, roll, needs = (line["say"]["params"][k] for k in ("place", "roll", "needs"))
    assert line["text"] == f"Drove to {place} (rolled {roll}, needed {needs}+)"
    view = EVACUATION.view(state, seat)
    expected = {
        "es": f"Fuiste en carro hasta {table('evacuation', 'es')[place]} (sacaste {roll}; hacía falta {needs} o más)",
        "nl": f"Naar {table('evacuation', 'nl')[place]} gereden ({roll} gegooid, {needs} of hoger nodig)",
    }
    for language, sentence in expected.items():
        shown = languages.translate_content(view, "evacuation", language)
        texts = [e["text"] for e in shown["feed"]]
        assert sentence in texts
    assert languages.translate_content(view, "evacuation", "en") is view, "English is sent as the engine wrote it"


def test_money_follows_the_language_and_lower_case_places_are_translated():
    """A withdrawal shows dollars grouped the reader's way, the symbol where the language puts it
    (as the tablet's money() does); a destination the English writes in lower case is found."""
    withdrew = {"type": "withdrew", "minute": 60, "seat": 0, "amount": 1000}
    arrived = {"type": "arrived", "minute": 90, "seat": 0, "destination": "relative"}
    lines = [evacuation.feed_line(withdrew), evacuation.feed_line(arrived)]
    assert [line["text"] for line in lines] == ["Took $1,000 from the bank", "Arrived at the relative's home"]
    spanish = languages.translate_content(lines, "evacuation", "es")
    dutch = languages.translate_content(lines, "evacuation", "nl")
    assert [line["text"] for line in spanish] == ["Sacaste 1000 $ del banco", "Llegada a destino: Casa de un familiar"]
    assert [line["text"] for line in dutch] == ["$ 1.000 van de bank gehaald", "Aangekomen: Huis van familie"]


def test_a_road_s_odds_and_a_closed_road_read_in_spanish():
    state = EVACUATION.setup(1, 2)
    road = EVACUATION.view(state, 0)["roads"][0]
    assert road["needs_label"] == f"needs {road['needs']}+ ({11 - road['needs']} in 10)"
    with translation.override("es"):
        spanish = languages.translate_content(road, "evacuation", "es")
    assert spanish["needs_label"] == f"hace falta {road['needs']} o más ({11 - road['needs']} de 10)"
    closed = {**road, "open": False, "needs_label": "closed", "say": {**words.said("closed"), "into": "needs_label"}}
    assert languages.translate_content(closed, "evacuation", "nl")["needs_label"] == "dicht"


def test_a_report_timeline_is_written_in_its_reader_s_language():
    """A household's timeline in a Spanish report (the report's words go through
    ``translate_words``): its drives in Spanish, with the Spanish place."""
    state = EVACUATION.setup(3, 4)
    moves = []
    for _ in range(400):
        if EVACUATION.finished(state):
            break
        for seat in EVACUATION.to_act(state):
            events = EVACUATION.apply(state, seat, EVACUATION_BOTS["cautious"](state, seat))
            moves.append({"seat": seat, "actor": "student", "events": events})
    record = {"state": state, "moves": moves, "table": 1, "game": 1, "holders": {}}
    spanish_places = table("evacuation", "es")
    shown = {}
    for seat in range(4):
        story = analysis.seat_story(record, seat)
        with translation.override("es"):
            spanish = words.translate_words(story, spanish_places)
        for step, step_shown in zip(story["timeline"], spanish["timeline"], strict=True):
            assert words.SAY not in step_shown
            shown.setdefault(step["kind"], (step, step_shown["text"]))
    step, text = shown["arrived"]
    label = evacuation.DESTINATIONS[step["tags"][1]]["label"]
    assert step["text"] == f"Arrived at the {label.lower()}"
    assert text == "Llegada a destino: " + spanish_places[label]
    step, text = shown["bought_fuel"]
    gallons, cost = step["say"]["params"]["gallons"], step["say"]["params"]["cost"]
    assert text == f"Compraste {gallons} galones por {cost} $"


def test_a_refusal_and_a_feed_line_show_their_params_with_one_function():
    """Refusals fill their sentence with the same shown params: numbers grouped the Dutch way."""
    refusal = Refused.from_illegal(
        IllegalAction(
            "not_enough_cash",
            "Home supplies cost $%(need)s and you have $%(have)s: visit the bank first.",
            need=1200,
            have=300,
        ),
        "evacuation",
    )
    with translation.override("nl"):
        assert "1.200" in refusal.message
        assert words.shown_params({"need": 1200, "place": "bank"}, table("evacuation", "nl")) == {
            "need": "1.200",
            "place": "Bank",
        }
