"""The sources under a debrief or report are English: on a Spanish or Dutch page their
organisation and title carry lang="en", so a screen reader reads them with English sounds; on an
English page they need no mark."""

from django.template.loader import render_to_string
from django.utils import translation

FACT = {
    "source": "National Hurricane Center",
    "year": 2023,
    "title": "Tropical Cyclone Report",
    "url": "https://www.nhc.noaa.gov/",
}


def sources(language):
    with translation.override(language):
        return render_to_string("scoring/_sources_footer.html", {"citations": [FACT]})


def test_source_titles_are_marked_english_on_spanish_and_dutch_pages():
    for language in ("es", "nl"):
        html = sources(language)
        assert '<span lang="en">National Hurricane Center (2023). <i>Tropical Cyclone Report</i>.</span>' in html, html
        assert "https://www.nhc.noaa.gov/" in html


def test_an_english_page_needs_no_mark():
    assert 'lang="en"' not in sources("en")
