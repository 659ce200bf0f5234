"""What a teacher or a family holds in their hands: no printed page of a guide or a family plan
ends on a heading whose section starts on the next page, and no page shows a program's file name
or a template key where a sentence belongs."""

import html
import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from lessons import printing, services
from scenarios import registry
from tests import pdfs
from tests.factories import make_session

pytestmark = pytest.mark.django_db

#: what must never reach paper: file names and paths, template syntax, untranslated placeholders
LEAKS = re.compile(r"(?<![/\w.-])[\w-]+\.(?:md|py|json)\b|\{\{|\{%|%\(\w+\)s|(?<![/\w])content/")


def _headings(page_html: str) -> set[str]:
    return {
        " ".join(html.unescape(re.sub(r"<[^>]+>", "", h)).split())
        for h in re.findall(r"<h[123][^>]*>(.*?)</h[123]>", page_html, re.S)
    }


def _pages(pdf: bytes) -> list[list[str]]:
    """Each page's lines of text, without the running footer."""
    return [
        [
            " ".join(line.split())
            for line in page.splitlines()
            if line.strip() and not line.strip().startswith("Stormwise ·")
        ]
        for page in pdfs.pdf_pages(pdf)
    ]


def _check(pdf: bytes, page_html: str, what: str):
    headings = _headings(page_html)
    pages = _pages(pdf)
    for number, lines in enumerate(pages[:-1], start=1):
        assert lines and lines[-1] not in headings, (what, number, lines[-1:])
    text = "\n".join("\n".join(lines) for lines in pages)
    assert not LEAKS.findall(text), (what, LEAKS.findall(text))


@pytest.mark.parametrize("key", registry.keys())
def test_no_guide_page_ends_on_a_heading(key):
    scenario = registry.get(key)
    for language in ("en", "nl"):
        with translation.override(language):
            page = render_to_string("lessons/print_guide.html", services.guide_context(scenario))
            _check(printing.guide_pdf(scenario), page, (key, language))


@pytest.mark.parametrize("region", ["us_gulf", "caribbean_nl", "nl_be"])
def test_no_plan_page_ends_on_a_heading(region):
    for key in registry.keys():
        session = make_session(scenario=key, region=region)
        for language in ("es", "nl"):
            with translation.override(language):
                plan = services.family_plan_blank(session)
                page = render_to_string("lessons/print_plan.html", {"plan": plan, "paper": plan["paper"]})
                _check(printing.plan_pdf(plan), page, (key, region, language))
