"""The real-outcomes knowledge base as data, loaded into ``Fact``: ``facts.json`` beside this file
(the facts several scenarios cite), and each registered scenario's own ``facts/facts.json`` (the
facts only it cites; their ``scenarios`` is that scenario), each with ``translations/`` beside it.

The files are the source of truth; ``load_facts`` (called by data migrations and by the
``load_facts`` management command) makes the table match them, so running it twice changes nothing.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from scenarios import registry
from scenarios.audience import AGE_BANDS

FACTS_FILE = Path(__file__).parent / "facts.json"
# Beside each facts file, translations/<language>.json: each fact's statement and number in it.
TRANSLATIONS = "translations"
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


def fact_files() -> list[tuple[Path, str | None]]:
    """Every facts file, with the scenario whose folder holds it (None: the shared one)."""
    files = [(FACTS_FILE, None)]
    for scenario in registry.all():
        path = scenario.folder / "facts" / "facts.json"
        if path.exists():
            files.append((path, scenario.key))
    return files


def _file_facts(path: Path, scenario: str | None) -> list[dict]:
    facts = json.loads(path.read_text(encoding="utf-8"))["facts"]
    if scenario is None:
        return facts
    for fact in facts:
        if fact.setdefault("scenarios", [scenario]) != [scenario]:
            raise ValueError(f"Fact {fact['key']!r} of {scenario} names other scenarios: the shared file holds those")
    return facts


def read_facts(files=None) -> list[dict]:
    """Every fact of the facts files (``fact_files()`` unless told), checked for the fields the
    reports rely on."""
    facts = [fact for path, scenario in files or fact_files() for fact in _file_facts(path, scenario)]
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


def load_facts(Fact) -> int:
    """Create or update every fact from the files (one statement) and drop the ones they no
    longer list."""
    facts = read_facts()
    defaults = {field: Fact._meta.get_field(field).get_default() for field in FIELDS}
    Fact.objects.bulk_create(
        [Fact(key=fact["key"], **{field: fact.get(field, defaults[field]) for field in FIELDS}) for fact in facts],
        update_conflicts=True,
        unique_fields=["key"],
        update_fields=list(FIELDS),
    )
    Fact.objects.exclude(key__in=[f["key"] for f in facts]).delete()
    return len(facts)


@lru_cache(maxsize=8)
def translations(language: str) -> dict:
    """{fact key: {"statement": ..., "number": ...}} in ``language`` ({} if none is written)."""
    words = {}
    for facts_file, _scenario in fact_files():
        path = facts_file.parent / TRANSLATIONS / f"{language}.json"
        if path.exists():
            words.update(json.loads(path.read_text(encoding="utf-8"))["facts"])
    return words


def in_language(facts, language: str):
    """``facts`` (Fact rows) with their statement and number in ``language``, for showing only:
    the rows are not saved, and sources, titles and grades stay as the source gives them."""
    words = translations(language)
    for fact in facts:
        for field, text in words.get(fact.key, {}).items():
            if field in TRANSLATED:
                setattr(fact, field, text)
    return facts
