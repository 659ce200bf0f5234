from scoring.models import DebriefSettings, Fact
from scoring.outcomes import load_facts, read_facts


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
    """A student page gets only verified facts; the gentle intensity drops every fact about deaths."""
    student = Fact.objects.shown(scenario="evacuation", audience="student", intensity="frank", age_band="16+")
    assert student and all(f.verified for f in student)
    assert any(f.deaths for f in student)
    gentle = Fact.objects.shown(scenario="evacuation", audience="student", intensity=DebriefSettings.Intensity.GENTLE,
                                age_band="16+")
    assert gentle and not any(f.deaths for f in gentle)
    teacher = Fact.objects.shown(scenario="evacuation", audience="teacher", intensity="frank", age_band="16+")
    assert any(not f.verified for f in teacher)
    young = Fact.objects.shown(scenario="evacuation", audience="student", intensity="frank", age_band="10+")
    assert all(f.age_band == "10+" for f in young)
