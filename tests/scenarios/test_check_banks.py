"""Every registered scenario's knowledge check (``<pkg>/check.py``) is a bank a researcher would
sign off: 2-4 objectives; forms A and B of at least 8 items, parallel in objectives and size;
mostly decisions; the right answer at each position about equally often and never given away
by its length or by absolute words in the wrong ones; every item on a verified fact that
students may see, in words short enough for the teacher's editor, and translated."""

import re
from collections import Counter

import pytest
from django.utils import translation

from lessons import knowledge
from scenarios import registry
from scenarios.kit import FORMS, KINDS, CheckBank
from scoring.outcomes import AGE_BANDS, read_facts

# The installed scenarios (the tests' throw-away scenario has no check).
SCENARIOS = [pytest.param(key, id=key) for key in registry.keys() if not registry.get(key).package.startswith("tests.")]
FACTS = {fact["key"]: fact for fact in read_facts()}
#: words that give a wrong answer away to a test-wise student
GIVEAWAYS = re.compile(r"\b(always|never|only if|nothing|none|impossible|guaranteed)\b", re.IGNORECASE)


def bank(key) -> CheckBank:
    check = registry.get(key).check
    assert isinstance(check, CheckBank)
    return check


@pytest.mark.parametrize("key", SCENARIOS)
def test_objectives_and_parallel_forms(key):
    check = bank(key)
    assert 2 <= len(check.objectives) <= 4
    objectives = {o.key for o in check.objectives}
    assert len(objectives) == len(check.objectives) and all(str(o.text) for o in check.objectives)
    forms = {name: check.of_form(name) for name in FORMS}
    assert {i.form for i in check.items} == set(FORMS)
    assert len(forms["A"]) == len(forms["B"]) >= 8
    assert Counter(i.objective for i in forms["A"]) == Counter(i.objective for i in forms["B"])
    assert {i.objective for i in check.items} == objectives, "every objective is tested"
    assert sorted(i.pair for i in forms["A"]) == sorted(i.pair for i in forms["B"]), "items pair up across the forms"
    for a in forms["A"]:
        b = next(i for i in forms["B"] if i.pair == a.pair)
        assert a.objective == b.objective
        assert str(a.question) != str(b.question), f"{a.pair}: the after-check asks new words"
    assert len({i.key for i in check.items}) == len(check.items)


@pytest.mark.parametrize("key", SCENARIOS)
def test_mostly_decisions_with_plausible_wrong_answers(key):
    with translation.override("en"):
        for name in FORMS:
            items = bank(key).of_form(name)
            assert all(i.kind in KINDS for i in items)
            assert sum(i.kind == "decision" for i in items) > len(items) / 2, f"form {name}: mostly decisions"
            longest = 0
            for item in items:
                choices = [str(c) for c in item.choices]
                right, wrong = choices[item.answer], [c for n, c in enumerate(choices) if n != item.answer]
                assert 3 <= len(choices) <= 4 and len(set(choices)) == len(choices)
                for choice in wrong:
                    assert not GIVEAWAYS.search(choice), f"{item.key}: {choice!r} gives itself away"
                assert len(right) <= 1.3 * max(len(c) for c in wrong), (
                    f"{item.key}: the right answer stands out by length"
                )
                longest += len(right) > max(len(c) for c in wrong)
            assert longest <= len(items) * 3 // 8, f"form {name}: the right answer is the longest too often"


@pytest.mark.parametrize("key", SCENARIOS)
def test_keyed_positions_are_balanced(key):
    for name in FORMS:
        items = bank(key).of_form(name)
        for size in {len(i.choices) for i in items}:
            places = Counter(i.answer for i in items if len(i.choices) == size)
            counts = [places.get(p, 0) for p in range(size)]
            assert max(counts) - min(counts) <= 1, f"form {name}: right answers at {counts}"


@pytest.mark.parametrize("key", SCENARIOS)
def test_every_item_rests_on_a_verified_fact_students_may_see(key):
    scenario = registry.get(key)
    for item in bank(key).items:
        fact = FACTS.get(item.fact)
        assert fact, f"{item.key}: no fact {item.fact!r} in facts.json"
        assert fact["verified"] and fact["confidence"] == "O", f"{item.key}: students see only verified facts"
        assert not fact.get("deaths"), f"{item.key}: no death tolls in the check (Gentle classes answer it too)"
        assert AGE_BANDS.index(item.age_band) >= AGE_BANDS.index(fact["age_band"]), f"{item.key}: younger than its fact"
        assert AGE_BANDS.index(item.age_band) <= AGE_BANDS.index(scenario.age_band), (
            f"{item.key}: the whole bank suits the scenario's youngest class, so both forms are always asked whole"
        )
        assert len(str(item.question)) <= knowledge.MAX_QUESTION
        assert all(len(str(c)) <= knowledge.MAX_CHOICE for c in item.choices)


@pytest.mark.parametrize("key", SCENARIOS)
@pytest.mark.parametrize("language", ["es", "nl"])
def test_the_bank_is_translated(key, language):
    check = bank(key)
    texts = [o.text for o in check.objectives]
    for item in check.items:
        texts += [item.question, *item.choices]
    with translation.override("en"):
        english = [str(t) for t in texts]
    with translation.override(language):
        missing = [e for e, t in zip(english, texts) if str(t) == e and not e.replace(" ", "").isdigit()]
    assert not missing, f"{len(missing)} untranslated, e.g. {missing[:2]}"


def test_tornado_alerts_check_is_about_tornado_safety():
    check = registry.get("tornado_alert").check
    assert all(item.fact.startswith("tornado-") for item in check.items)
