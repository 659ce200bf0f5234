"""What a game says reaches a Spanish or Dutch reader in that language. A view carries no English
sentence: evacuation's views name places, cards and reasons by id and carry numbers, and the
tablet writes their sentences with the board it got in its language. A report's sentences are
written in the reader's language from what they say (``scenarios.words.SAY``)."""

import json
import re
from importlib import import_module

import pytest
from django.utils import translation

from classroom import languages
from games.refusals import Refused
from scenarios import registry, words
from scenarios.base import IllegalAction
from scenarios.evacuation import ENGINE as EVACUATION
from scenarios.evacuation import analysis
from scenarios.evacuation import rules as evacuation
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


@pytest.mark.parametrize("language", ["es", "nl"])
@pytest.mark.parametrize("key", SCENARIOS)
def test_a_spanish_or_dutch_view_carries_no_english_sentence(key, language):
    """Along a bot game, no view in Spanish or Dutch (tablets and dashboard) keeps an English
    sentence: a view carries none, and its content words are translated."""
    for views in views_along_a_game(key):
        for english in views:
            assert words.SAY not in json.dumps(english)
            assert english_left(english, languages.translate_content(english, key, language)) == []


def strings_in(value, path=""):
    """(where, string) for every key and string value in ``value``."""
    if isinstance(value, dict):
        return [pair for key, item in value.items() for pair in [(path, key), *strings_in(item, f"{path}.{key}")]]
    if isinstance(value, list):
        return [pair for item in value for pair in strings_in(item, f"{path}[]")]
    return [(path, value)] if isinstance(value, str) else []


@pytest.mark.parametrize("seed", [1, 7, 23, 42])
def test_no_evacuation_view_carries_an_english_content_word(seed):
    """Every seat's and the teacher's view after every move of a game four kinds of households
    play names places, cards, destinations and reasons by id: no string in it is one of the
    scenario's English content words, so every tablet can be sent the same view."""
    english = set(table("evacuation", "es"))
    habits = ["cautious", "last_minute", "bank_farming", "random"]
    state = EVACUATION.setup(seed, 4)
    looked = 0
    while not EVACUATION.finished(state) and looked < 4000:
        for seat in range(4):
            for view in (EVACUATION.view(state, seat), EVACUATION.view(state, None)):
                assert [(where, s) for where, s in strings_in(view) if s in english] == []
                looked += 1
        acting = EVACUATION.to_act(state)
        if not acting:
            break
        EVACUATION.apply(state, acting[0], EVACUATION_BOTS[habits[acting[0]]](state, acting[0]))
    assert looked > 100, "a game was played through"


def test_a_report_writes_money_the_reader_s_way_and_finds_a_place_in_lower_case():
    """A withdrawal in a report shows dollars grouped the reader's way, the symbol where the
    language puts it (as the tablet's money() does); a destination the English writes in lower
    case is found."""
    withdrew = {"type": "withdrew", "minute": 60, "seat": 0, "amount": 1000}
    arrived = {"type": "arrived", "minute": 90, "seat": 0, "destination": "relative"}
    said = [evacuation.say(withdrew), evacuation.say(arrived)]
    assert [words.english(s["template"], s["params"]) for s in said] == [
        "Took $1,000 from the bank",
        "Arrived at the relative's home",
    ]
    shown = {}
    for language in ("es", "nl"):
        with translation.override(language):
            shown[language] = [
                words.translate_words({words.SAY: s}, table("evacuation", language))["text"] for s in said
            ]
    assert shown["es"] == ["Sacaste 1000 $ del banco", "Llegada a destino: Casa de un familiar"]
    assert shown["nl"] == ["$ 1.000 van de bank gehaald", "Aangekomen: Huis van familie"]


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
