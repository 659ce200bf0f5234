"""The words families and students read in Spanish and Dutch: one term each for a watch and a
warning, everywhere (Spanish, as the National Weather Service's Spanish products say: vigilancia /
aviso; Dutch: orkaanvoorwaarschuwing / orkaanwaarschuwing), the Spanish of US classrooms (carro,
refrigerador, no "a un día vista"), and one form of address (tú).

The KNMI's bulletins for Saba and Sint Eustatius range from an "Information bulletin" to a
"Hurricane warning", in English (Rijkswaterstaat's DCC-IenW, "Weer impact Team Caribisch
Nederland"); Dutch reports call the KNMI's watch a "voorwaarschuwing" (weer.nl, September 2022,
on tropical storm Fiona) and a warning an "orkaanwaarschuwing" (NOS, nu.nl). The family
plan names the English terms beside the Dutch ones for the Caribbean regions.
"""

import glob
import json
import re
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]

#: (English term, the one Spanish term, the one Dutch term)
TERMS = [
    ("hurricane watch", "vigilancia de huracán", "orkaanvoorwaarschuwing"),
    ("hurricane warning", "aviso de huracán", "orkaanwaarschuwing"),
    ("tornado watch", "vigilancia de tornado", "tornadovoorwaarschuwing"),
    ("tornado warning", "aviso de tornado", "tornadowaarschuwing"),
]
#: words a Spanish or Dutch reader must never meet (Spain's Spanish; the formal "usted"; the old Dutch pair)
FORBIDDEN = {
    "es": [
        r"\bneveras?\b",
        r"\bcoches?\b",
        r"d[ií]a vista",
        r"\busted\b",
        r"\bvosotros\b",
        r"\bordenador",
        r"\baparcar\b",
        r"alerta de huracán",
        r"advertencia de huracán",
    ],
    "nl": [r"orkaanalarm", r"orkaanwaarschuwing \(attentie\)", r"waakzaamheid"],
}


def _pairs(language):
    """(English, translation) of every catalogue entry and content word in ``language``."""
    for path in glob.glob(str(ROOT / "locale" / language / "LC_MESSAGES" / "*.po")) + glob.glob(
        str(ROOT / "scenarios" / "*" / "locale" / language / "LC_MESSAGES" / "*.po")
    ):
        for entry in polib.pofile(path):
            if not entry.obsolete:
                yield path, entry.msgid, entry.msgstr or " ".join(entry.msgstr_plural.values())
    for path in glob.glob(str(ROOT / "scenarios" / "*" / "content" / "translations" / f"{language}.json")):
        for english, shown in json.loads(Path(path).read_text(encoding="utf-8")).items():
            if isinstance(shown, str):
                yield path, english, shown
    facts = json.loads(
        (ROOT / "scoring" / "outcomes" / "translations" / f"{language}.json").read_text(encoding="utf-8")
    )
    for key, fact in facts["facts"].items():
        for text in fact.values():
            yield "facts", key, text


@pytest.mark.parametrize("language, column", [("es", 1), ("nl", 2)])
def test_a_watch_and_a_warning_have_one_term_each_everywhere(language, column):
    wrong = []
    for path, english, shown in _pairs(language):
        for term in TERMS:
            if term[0] in english.lower() and term[column] not in shown.lower():
                wrong.append((Path(path).name, english[:60], shown[:80]))
    assert wrong == []


@pytest.mark.parametrize("language", ["es", "nl"])
def test_no_words_from_the_wrong_side_of_the_ocean(language):
    found = [
        (Path(path).name, english[:50], pattern)
        for path, english, shown in _pairs(language)
        for pattern in FORBIDDEN[language]
        if re.search(pattern, shown, re.IGNORECASE)
    ]
    assert found == []


def test_the_dutch_plan_and_guide_say_watch_and_warning_the_same_way():
    """The Dutch fact students read, and the glossary teachers teach from, use the same pair."""
    from django.utils import translation

    from lessons.glossary import TERMS as GLOSSARY

    with translation.override("nl"):
        assert str(GLOSSARY["hurricane_watch"].word) == "Orkaanvoorwaarschuwing"
        assert str(GLOSSARY["hurricane_warning"].word) == "Orkaanwaarschuwing"
    with translation.override("es"):
        assert str(GLOSSARY["hurricane_watch"].word) == "Vigilancia de huracán"
        assert str(GLOSSARY["hurricane_warning"].word) == "Aviso de huracán"
    facts = json.loads((ROOT / "scoring" / "outcomes" / "translations" / "nl.json").read_text(encoding="utf-8"))
    lead = facts["facts"]["watch-warning-lead-times"]["statement"]
    assert "orkaanvoorwaarschuwing" in lead.lower() and "orkaanwaarschuwing" in lead.lower()
