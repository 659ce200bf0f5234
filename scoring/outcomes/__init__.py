"""The real-outcomes knowledge base as data: ``facts.json`` beside this file, loaded into ``Fact``.

The file is the source of truth; ``load_facts`` (called by a data migration and by the
``load_facts`` management command) makes the table match it, so running it twice changes nothing.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from scenarios.audience import AGE_BANDS

FACTS_FILE = Path(__file__).parent / "facts.json"
# Beside it, translations/<language>.json: each fact's statement and number in that language.
TRANSLATIONS = Path(__file__).parent / "translations"
TRANSLATED = ("statement", "number")
FIELDS = (
    "statement",
    "number",
    "source",
    "title",
    "year",
    "url",
    "decisions",
    "scenarios",
    "confidence",
    "verified",
    "age_band",
    "deaths",
    "values",
)


def read_facts(path: Path = FACTS_FILE) -> list[dict]:
    """Every fact in the data file, checked for the fields the reports rely on."""
    facts = json.loads(path.read_text(encoding="utf-8"))["facts"]
    keys = set()
    for fact in facts:
        missing = [
            f
            for f in (
                "key",
                "statement",
                "number",
                "source",
                "title",
                "year",
                "decisions",
                "confidence",
                "verified",
                "age_band",
            )
            if f not in fact
        ]
        if missing:
            raise ValueError(f"Fact {fact.get('key')!r} lacks {', '.join(missing)}")
        if fact["key"] in keys:
            raise ValueError(f"Fact {fact['key']!r} appears twice")
        if fact["confidence"] not in ("O", "S", "U") or fact["age_band"] not in AGE_BANDS:
            raise ValueError(f"Fact {fact['key']!r} has a bad confidence or age band")
        if fact["verified"] and fact["confidence"] != "O":
            raise ValueError(f"Fact {fact['key']!r}: only grade O facts may be marked verified")
        keys.add(fact["key"])
    return facts


def load_facts(Fact, path: Path = FACTS_FILE) -> int:
    """Create or update every fact from the file and drop the ones it no longer lists."""
    facts = read_facts(path)
    for fact in facts:
        Fact.objects.update_or_create(
            key=fact["key"],
            defaults={field: fact.get(field, Fact._meta.get_field(field).get_default()) for field in FIELDS},
        )
    Fact.objects.exclude(key__in=[f["key"] for f in facts]).delete()
    return len(facts)


@lru_cache(maxsize=8)
def translations(language: str) -> dict:
    """{fact key: {"statement": ..., "number": ...}} in ``language`` ({} if none is written)."""
    path = TRANSLATIONS / f"{language}.json"
    return json.loads(path.read_text(encoding="utf-8"))["facts"] if path.exists() else {}


def in_language(facts, language: str):
    """``facts`` (Fact rows) with their statement and number in ``language``, for showing only:
    the rows are not saved, and sources, titles and grades stay as the source gives them."""
    words = translations(language)
    for fact in facts:
        for field, text in words.get(fact.key, {}).items():
            if field in TRANSLATED:
                setattr(fact, field, text)
    return facts
