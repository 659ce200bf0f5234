"""The class debrief the teacher projects carries the class's what-if replays (the guide's fourth
debrief step points to them): the same re-runs as the students' reports, summed over the class,
and a plain word while the reports are still being written."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from scoring import services as scoring
from scoring.models import Report
from tests.factories import PASSWORD, ended_session

pytestmark = pytest.mark.django_db


def _whatif_panel(client, session):
    with translation.override("en"):
        page = client.get(reverse("scoring:session_debrief", args=[session.pk])).content.decode()
    start = page.index('id="whatif"')
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page[start : page.index("</section>", start)]))


def test_the_evacuation_debrief_shows_the_class_what_if_replays(client):
    session = ended_session(2, scenario="evacuation", seats_per_table=2, seed=7)
    client.login(email=session.teacher.email, password=PASSWORD)
    reports = scoring.plan_reports(session)

    # before the reports are written: a plain word, how many are written
    panel = _whatif_panel(client, session)
    students = [r for r in reports if r.kind == Report.Kind.STUDENT]
    assert f"(0 of {len(students)} so far)" in panel

    for report in students:
        scoring.write_page(report.pk)
    stored = [Report.objects.get(pk=r.pk).data["counterfactuals"] for r in students]
    panel = _whatif_panel(client, session)
    assert "What if? The class's replays" in panel
    assert f"({len([s for s in stored if s])} households so far)" in panel or "(1 household so far)" in panel
    items = [item for household in stored for item in household]
    leave = [i for i in items if i["decision"] == "leave"]
    assert leave, "no household could be replayed"
    # the projector's numbers are the reports' own: the futures that arrived, summed
    earlier = [i for i in leave if i["actual_hour"] is None or i["alternative_hour"] < i["actual_hour"]]
    group = earlier or leave
    futures = sum(i["alternative"]["futures"] for i in group)
    changed = round(100 * sum(i["alternative"]["arrived"] for i in group) / futures)
    label = "Leaving earlier" if earlier else "Leaving later"
    assert re.search(rf"{label} {len(group)} \d+% {changed}%", panel), panel
