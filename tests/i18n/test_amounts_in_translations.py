"""The Spanish and Dutch words people read write dollars and numbers the way their language (and
the tablets' Intl) does: "20.000 $" and "2,6 millones" in Spanish, "$ 20.000" and "60,58" in
Dutch; never the English "$20,000" or "2.6" in a translated card, fact or sentence."""

import json
import re

import polib
import pytest

from tests.i18n.scan import ROOT
from tests.i18n.test_catalogues import CATALOGUES, entries_of, translations

# "$20", "20,000" (English grouping), "2.6" (an English decimal point; not a version like 1.0.0)
ENGLISH_WAYS = r"\$ ?\d|\$%\(|(?<![\d.,])\d{1,3}(,\d{3})+(?![\d,])|(?<![\w.,/])\d+\.\d{1,2}(?![\d.])"


def translated_texts(language):
    """(where, text) for every translated card, fact and catalogue sentence in ``language``."""
    files = sorted(ROOT.glob(f"scenarios/*/content/translations/{language}.json"))
    files += [ROOT / "scoring" / "outcomes" / "translations" / f"{language}.json"]

    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for key, item in value.items():
                if key != "about":
                    yield from strings(item)
        elif isinstance(value, list):
            for item in value:
                yield from strings(item)

    for path in files:
        for text in strings(json.loads(path.read_text(encoding="utf-8"))):
            yield path.relative_to(ROOT).as_posix(), text
    for path in CATALOGUES:
        if path.parts[-3] == language:
            for entry in entries_of(polib.pofile(str(path))):
                for text in translations(entry):
                    yield path.relative_to(ROOT).as_posix(), text


@pytest.mark.parametrize("language", ["es", "nl"])
def test_translations_write_amounts_and_numbers_their_own_way(language):
    found = [(where, text[:120]) for where, text in translated_texts(language) if re.search(ENGLISH_WAYS, text)]
    assert found == [], (
        "write amounts as the language does (es '20.000\\u00a0$', nl '$\\u00a020.000', with a "
        "no-break space, as the tablets do) and decimals with a comma"
    )


def test_the_check_finds_the_english_ways():
    for text in ("Paga $200 y pierde 1 hora.", "unos 300,000 edificios", "a unos 2.6 millones", "hasta $%(most)s."):
        assert re.search(ENGLISH_WAYS, text), text
    for text in (
        "Paga 200\u00a0$ y pierde 1 hora.",
        "unos 300.000 edificios",
        "a unos 2,6 millones",
        "Betaal $\u00a0200",
        "motor 1.0.0",
        "hasta %(most)s\u00a0$.",
    ):
        assert not re.search(ENGLISH_WAYS, text), text
