"""Every scenario's guide, page and PDF, in three languages, has every section a teacher needs:
objectives, exact standards (NGSS MS-ESS3-2; no "state ... style" rows), a preparation
checklist (devices, codes, printables, the check, the region), key vocabulary with definitions,
the 45-minute period, a debrief scripted in five phases that points at the debrief page, ways
to reach every student, what to do when something goes wrong, and running it on paper."""

import html

import pytest
from django.urls import reverse
from django.utils import translation

from lessons import glossary
from scenarios import registry
from scenarios.kit import DEBRIEF_PHASES
from tests.lessons.test_kit_pages import pdf_text

pytestmark = pytest.mark.django_db

SECTIONS = (
    "objectives",
    "standards",
    "preparation",
    "vocabulary",
    "debrief-script",
    "differentiation",
    "troubles",
    "fallback",
)


@pytest.fixture
def teacher_client(client):
    from tests.factories import PASSWORD, make_teacher

    teacher = make_teacher()
    client.login(email=teacher.email, password=PASSWORD)
    return client


@pytest.mark.parametrize("key", registry.keys())
def test_every_guide_has_every_section_in_three_languages(teacher_client, key):
    guide = registry.get(key).kit.guide
    assert tuple(p.phase for p in guide.debrief) == DEBRIEF_PHASES
    assert guide.vocabulary and all(term in glossary.TERMS for term in guide.vocabulary)
    codes = [str(code) for code, _asks, _how in guide.standards]
    assert "NGSS MS-ESS3-2" in codes
    assert not any("style" in code.lower() or "MS-ESS3-3" in code for code in codes)
    for language in ("en", "es", "nl"):
        page = html.unescape(
            teacher_client.get(reverse("lessons:guide", args=[key]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        )
        for section in SECTIONS:
            assert f'id="{section}"' in page, (language, section)
        with translation.override(language):
            for term in glossary.terms(guide.vocabulary):
                assert str(term.word) in page and str(term.meaning) in page
            for phase in ("1. ", "2. ", "3. ", "4. ", "5. "):
                assert f"<strong>{phase}" in page
            text = pdf_text(teacher_client.get(reverse("lessons:guide_pdf", args=[key]), HTTP_ACCEPT_LANGUAGE=language))
            for heading in (
                "Before the lesson: a checklist",
                "Key vocabulary",
                "The debrief, step by step",
                "Reaching every student",
                "When something goes wrong",
            ):
                assert translation.gettext(heading) in text, (language, heading)
        assert "ESS3-2" in text  # the table cell may wrap after "MS-"


def test_the_resort_guide_gives_the_grid_as_it_is_printed(teacher_client):
    page = teacher_client.get(reverse("lessons:guide", args=["resort"])).content.decode()
    assert "2° squares" in page and "whole degrees" not in page


def test_the_guide_pdf_follows_the_sessions_paper(teacher_client):
    import io

    from pypdf import PdfReader

    from classroom.models import Session, Teacher
    from tests.factories import make_session

    teacher = Teacher.objects.order_by("-pk").first()
    session = make_session(teacher=teacher, region="nl_be")
    assert Session.objects.filter(teacher=teacher).exists()
    answer = teacher_client.get(reverse("lessons:guide_pdf", args=["evacuation"]) + f"?session={session.pk}")
    assert round(float(PdfReader(io.BytesIO(answer.content)).pages[0].mediabox.width)) == 595  # A4
    answer = teacher_client.get(reverse("lessons:guide_pdf", args=["evacuation"]))
    assert round(float(PdfReader(io.BytesIO(answer.content)).pages[0].mediabox.width)) == 612  # Letter


@pytest.mark.parametrize("key", registry.keys())
def test_the_guide_marks_the_objectives_the_check_asks_about(teacher_client, key):
    """Every objective is on the guide in the teacher's language with what measures it: the check,
    or play and the debrief alone."""
    aims = registry.get(key).kit.guide.objectives
    for language in ("en", "es", "nl"):
        page = html.unescape(
            teacher_client.get(reverse("lessons:guide", args=[key]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        )
        objectives = page[page.index('id="objectives"') : page.index('id="standards"')]
        with translation.override(language):
            checked = translation.gettext("the knowledge check asks about this")
            practised = translation.gettext("practised in play and the debrief; not on the check")
            for aim in aims:
                assert f"{aim.text} <span" in objectives, (language, str(aim.text))
            assert objectives.count(checked) == sum(1 for aim in aims if aim.checks), language
            assert objectives.count(practised) == sum(1 for aim in aims if not aim.checks), language


@pytest.mark.parametrize("key", registry.keys())
def test_an_older_class_is_asked_older_questions(teacher_client, key):
    """The debrief's "why" and "real world" questions for a session whose youngest students are
    16 or over are the older ones; a 10+ session gets the younger ones; the guide without a
    session gives both."""
    from classroom.models import Teacher
    from tests.factories import make_session

    teacher = Teacher.objects.order_by("-pk").first()
    phases = {p.phase: p for p in registry.get(key).kit.guide.debrief}
    older = [str(phases[name].older) for name in ("why", "real_world")]
    younger = [str(phases[name].say) for name in ("why", "real_world")]
    assert all(older) and not set(older) & set(younger)

    def script(session=None):
        url = reverse("lessons:guide", args=[key]) + (f"?session={session.pk}" if session else "")
        page = html.unescape(teacher_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
        return page[page.index('id="debrief-script"') : page.index('id="differentiation"')]

    sixteen = script(make_session(teacher=teacher, scenario=key, age_band="16+"))
    ten = script(make_session(teacher=teacher, scenario=key, age_band="10+"))
    both = script()
    for old, young in zip(older, younger):
        assert old in sixteen and young not in sixteen
        assert young in ten and old not in ten
        assert old in both and young in both
    assert "With students of 16 and over:" in both and "With students of 16 and over:" not in ten
