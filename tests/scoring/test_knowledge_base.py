import json

from scenarios.audience import Audience
from scoring.models import Fact
from scoring.outcomes import FACTS_FILE, load_facts, read_facts


def test_the_migration_loads_at_least_25_cited_facts(db):
    """Every fact in the database has a statement, a number, a source, a title, a year and decisions."""
    facts = list(Fact.objects.all())
    assert len(facts) >= 25
    assert len(facts) == len(read_facts())
    for fact in facts:
        assert fact.statement and fact.number and fact.source and fact.title and fact.year and fact.decisions
        assert fact.citation.startswith(fact.source)


def test_loading_twice_changes_nothing(db):
    """The loader is idempotent: a second run leaves the same rows."""
    before = dict(Fact.objects.values_list("key", "pk"))
    load_facts(Fact)
    assert dict(Fact.objects.values_list("key", "pk")) == before


def test_students_never_see_unverified_facts_and_gentle_hides_death_tolls(db):
    """A student page gets only verified facts with a working address; the gentle intensity
    drops every fact about deaths; the teacher also gets the unverified ones."""
    student = Fact.objects.shown(scenario="evacuation", reader=Audience.of("frank", "16+"))
    assert student and all(f.verified and f.url for f in student)
    assert any(f.deaths for f in student)
    gentle = Fact.objects.shown(scenario="evacuation", reader=Audience.of("gentle", "16+"))
    assert gentle and not any(f.deaths for f in gentle)
    teacher = Fact.objects.shown(scenario="evacuation", reader=Audience.of("frank", "16+", teacher=True))
    assert any(not f.verified for f in teacher) and any(f.verified and not f.url for f in Fact.objects.all())
    young = Fact.objects.shown(scenario="evacuation", reader=Audience.of("frank", "10+"))
    assert young and all(f.age_band == "10+" for f in young)


def test_facts_files_promise_is_what_the_code_does():
    """The knowledge base's own description says what decides whether a student sees a fact."""
    about = json.loads(FACTS_FILE.read_text(encoding="utf-8"))["about"]
    assert "url" in about and "verified" in about and "gentle" in about and "age_band" in about
    unlinked = next(f for f in read_facts() if f["verified"] and not f["url"])
    assert not Audience.of("frank", "16+").allows({**unlinked, "grade": unlinked["confidence"]})


def test_a_scenarios_own_facts_live_in_its_folder():
    """The shared file holds the facts several scenarios cite; a fact only one cites lives in
    that scenario's ``facts/facts.json``, so a new scenario adds none to the platform's file."""
    from scoring.outcomes import fact_files

    shared = read_facts([(FACTS_FILE, None)])
    assert shared and all(len(fact["scenarios"]) >= 2 for fact in shared)
    own = [(path, key) for path, key in fact_files() if key]
    assert {key for _path, key in own} >= {"evacuation", "resort", "bermuda", "tornado_alert"}
    for path, key in own:
        assert all(fact["scenarios"] == [key] for fact in read_facts([(path, key)]))
