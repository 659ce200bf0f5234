"""What the evacuation report and the class debrief say about how the what-if replays were made
reads at a middle-school level: the student report's paragraph was a 110-word block at
Flesch–Kincaid grade 7 with a 30-word sentence, the debrief's note one 35-word sentence at grade 13."""

import re

import pytest

from scenarios import registry
from tests.readability import grade, longest_sentence

FOLDER = registry.get("evacuation").folder / "templates"


def _paragraph(template: str, opening: str) -> str:
    """The English words of the blocktranslate that starts with ``opening``, a number for each
    variable (its first form where it has a plural)."""
    source = (FOLDER / template).read_text()
    start = source.index(opening) + len(opening)
    text = source[start : source.index("{%", start)]
    return re.sub(r"\{\{ *\w+ *\}\}", "200", re.sub(r"\{%.*?%\}", "", text))


@pytest.mark.parametrize(
    "template, opening",
    [
        ("student_report.html", '<p class="method">{% blocktranslate %}'),
        ("debrief.html", "{% blocktranslate count n=whatif.households %}"),
    ],
)
def test_the_replay_method_reads_at_grade_six(template, opening):
    text = _paragraph(template, opening)
    assert len(text.split()) > 20, text  # the paragraph was found
    assert grade(text) <= 6, (round(grade(text), 1), text)
    assert longest_sentence(text) <= 20, text
