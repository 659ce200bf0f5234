"""Scratch: the resort kit's plan, check and pages from a real bot-finished resort lesson."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from classroom import regions
from classroom.consumers import token_cookie
from lessons import services
from lessons.models import CheckItem
from scenarios import registry
from tests import pdfs
from tests.factories import PASSWORD, make_teacher, started_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_resort(db):
    from classroom import services as classroom

    session, devices = started_session(students=3, scenario="resort")
    classroom.finish_with_bots(session=session)
    classroom.end(session=session)
    session.refresh_from_db()
    return session, devices


def test_a_resort_student_gets_a_plan_from_their_own_options(client, finished_resort):
    session, devices = finished_resort
    kit = registry.get("resort").kit
    seen = []
    for participant, token in devices:
        row = services.decision_row(participant)
        assert row is not None and "most_options" in row
        plan = services.family_plan(participant)
        amounts = regions.quantities(regions.of(session), "en")
        lines = {line["key"]: line for line in plan["lines"]}
        for spec in kit.plan:
            expected = spec.values.get(str(row[spec.column])) if spec.column else None
            # the plan fills in the amounts (water per day) in the region's units
            assert lines[spec.key]["text"] == regions.fill(expected or spec.otherwise, amounts)
            assert lines[spec.key]["from_game"] == bool(expected)
        assert [f.key for f in plan["facts"]] == list(kit.plan_facts)
        seen.append((row["most_options"], row["resorts"], {k: line["from_game"] for k, line in lines.items()}))
        most = row["most_options"]
        assert lines["insurance"]["text"].startswith("One of your resorts ended the game insured") == (most == 5)
        assert lines["plan"]["text"].startswith("One of your resorts") == (most >= 2)
        assert all(lines[k]["from_game"] for k in ("plan", "kit", "home", "insurance"))
        client.cookies[token_cookie(session.pk)] = token
        response = client.get(reverse("lessons:student_plan_pdf", args=[session.pk]))
        pdf = b"".join(response.streaming_content) if response.streaming else response.content

        text = pdfs.pdf_text(pdf)
        assert "Home insurance does not pay for floods" in text
    print(seen)


def test_a_resort_plan_without_a_game_says_nothing_of_the_game(finished_resort):
    session, _devices = finished_resort
    plan = services.family_plan_blank(session)
    assert not any(line["from_game"] for line in plan["lines"])
    assert not any("game" in str(line["text"]) for line in plan["lines"])


def test_the_resort_check_asks_both_forms_whole(finished_resort):
    """The resort's bank suits its youngest class, so both forms are asked whole and stay parallel."""
    session, _devices = finished_resort
    items = list(CheckItem.objects.filter(session=session).order_by("position"))
    assert [i.kit_key for i in items] == [i.key for i in registry.get("resort").check.items]
    assert all(i.used for i in items)


def test_the_resort_guide_page_and_printables(client):
    teacher = make_teacher()
    client.login(email=teacher.email, password=PASSWORD)
    page = client.get(reverse("lessons:guide", args=["resort"])).content.decode()
    assert "MS-ESS3-2" in page and "5.G.A.2" in page
    response = client.get(reverse("lessons:printables_pdf", args=["resort"]))
    pdf = b"".join(response.streaming_content) if response.streaming else response.content
    text = pdfs.pdf_text(pdf)
    for words in (
        "Miami Beach",
        "Bermuda Triangle",
        "Hurricane drill",
        "Storm: Andrew, 1992",
        "Plotting the storm",
        "34°N",
    ):
        assert words in text, words
    only = client.get(reverse("lessons:printables_pdf", args=["resort"]) + "?only=programs")
    pdf = b"".join(only.streaming_content) if only.streaming else only.content
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 3
