"""Every registered scenario's debrief, through the real services: a lesson finished by bots
gets a projector page with cited real-world facts, written reports (page and PDF) with their
sources, and a research export with the scenario's decision rows."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from scenarios import registry
from scoring import services
from scoring.models import Fact, Report
from tests.factories import PASSWORD, ended_session

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("key", registry.keys())
def test_a_finished_lesson_gets_a_cited_debrief_reports_and_an_export(client, key):
    scenario = registry.get(key)
    session = ended_session(scenario.seats[0], scenario=key, seats_per_table=scenario.seats[0], seed=42)
    client.login(email=session.teacher.email, password=PASSWORD)

    answer = client.get(reverse("scoring:session_debrief", args=[session.pk]))
    assert answer.status_code == 200
    page = answer.content.decode()
    citations = answer.context["citations"]
    assert citations and all(escape(fact.source) in page for fact in citations)

    for report in services.plan_reports(session):
        services.build_report(report.pk)
        report.refresh_from_db()
        assert report.status == Report.Status.DONE and report.html and bytes(report.pdf).startswith(b"%PDF")
        assert any(escape(fact.source) in report.html for fact in Fact.objects.all())
    kinds = set(Report.objects.filter(session=session).values_list("kind", flat=True))
    assert kinds == {Report.Kind.CLASS, Report.Kind.TEAM if scenario.team_play else Report.Kind.STUDENT}

    export = client.get(reverse("scoring:export_json", args=[session.pk])).json()
    assert export["moves"] and export["decisions"]
    assert set(scenario.debrief.data_dictionary) <= set(export["data_dictionary"])
