"""Every registered scenario provides its lesson kit (``<pkg>/kit.py``, ``scenarios.kit.Kit``):
a guide timed for a 45-minute period, printables that render from its own content files, and
family-plan lines (its knowledge check is tested in test_check_banks)."""

import io

import pytest
from pypdf import PdfReader

from lessons import printing
from scenarios import registry
from scenarios.audience import Audience, verified
from scenarios.kit import Aim, Kit
from scoring.outcomes import read_facts

SCENARIOS = [pytest.param(key, id=key) for key in registry.keys()]
FACTS = {fact["key"]: fact for fact in read_facts()}


@pytest.mark.parametrize("key", SCENARIOS)
def test_the_guide_covers_a_45_minute_period(key):
    kit = registry.get(key).kit
    assert isinstance(kit, Kit)
    guide = kit.guide
    assert guide.objectives and guide.standards and guide.questions and guide.fallback
    assert sum(step.minutes for step in guide.steps) == 45
    assert all(str(step.title) and str(step.say) for step in guide.steps)
    assert any("MS-ESS3-2" in str(code) for code, _asks, _how in guide.standards)


@pytest.mark.parametrize("key", SCENARIOS)
def test_the_guide_says_which_objectives_the_check_measures(key):
    """Each objective the knowledge check measures is one the guide states, an objective the guide
    marks as checked names only the check's own, and a lesson of 45 minutes aims at no more than
    five things (Tornado Alert! aimed at five, averages to two decimals among them, and its check
    measured one: it aims at four now, two of them checked)."""
    scenario = registry.get(key)
    aims = scenario.kit.guide.objectives
    assert all(isinstance(aim, Aim) for aim in aims)
    assert 1 <= len(aims) <= 5
    checked = {check for aim in aims for check in aim.checks}
    assert checked == {objective.key for objective in scenario.check.objectives}
    if key == "tornado_alert":
        assert len(aims) == 4
        assert not any("decimal" in str(aim.text) for aim in aims)


@pytest.mark.parametrize("key", SCENARIOS)
def test_the_printables_render_from_the_content_files(key):
    """Each printable's content files exist and its template prints at least one page."""
    scenario = registry.get(key)
    assert scenario.kit.printables
    for printable in scenario.kit.printables:
        for name in printable.content:
            assert (scenario.folder / "content" / f"{name}.json").is_file(), f"{printable.key}: no {name}.json"
        pdf = printing.printables_pdf(scenario, [printable], Audience())
        assert len(PdfReader(io.BytesIO(pdf)).pages) >= 1


@pytest.mark.parametrize("key", SCENARIOS)
def test_the_family_plan_lines_and_facts(key):
    kit = registry.get(key).kit
    assert kit.plan and all(str(line.label) and str(line.otherwise) for line in kit.plan)
    assert all(line.column or not line.values for line in kit.plan), "values need a column to look up"
    for fact in kit.plan_facts:
        assert verified({**FACTS[fact], "grade": FACTS[fact]["confidence"]}), (
            f"the plan cites {fact}, which students may not see"
        )
