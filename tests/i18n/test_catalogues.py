"""The translation catalogues: complete, checked, compiled and in step with the code.

A string added to a template, a Python module or a script without its Spanish and Dutch fails
here (stale catalogue), as does an entry left untranslated or fuzzy, a translation that drops or
renames a placeholder, a .mo not compiled from its .po, and readable words in a template outside
{% translate %} / {% blocktranslate %}.
"""

import re
import shutil
import subprocess
import sys

import polib
import pytest

from tests.i18n.scan import ROOT, template_files, untranslated

sys.path.insert(0, str(ROOT / "scripts"))
import messages  # noqa: E402 - scripts/messages.py, the tool that writes the catalogues

PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}|%[sd]")
CATALOGUES = list(messages.po_files())


def entries_of(po):
    return [e for e in po if not e.obsolete and e.msgid]


def translations(entry):
    return list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]


def test_every_language_and_every_scenario_has_its_catalogues():
    from django.conf import settings

    assert {code for code, _name in settings.LANGUAGES} == {"en", "es", "nl"}
    folders = {p.relative_to(ROOT).as_posix() for p in messages.catalogue_folders()}
    assert {"locale", "scenarios/evacuation/locale", "scenarios/stormfury/locale"} <= folders
    assert len(CATALOGUES) == len(folders) * 2 * 2  # es and nl, django and djangojs
    for path in CATALOGUES:
        assert path.exists(), f"{path.relative_to(ROOT)} is missing: run `make messages`"


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_catalogue_is_complete_and_checked(path):
    """Every entry translated, none fuzzy or obsolete, and the same placeholders as the English."""
    po = polib.pofile(str(path))
    language = path.parts[-3]
    assert po.metadata.get("Language") == language
    assert not po.obsolete_entries(), [e.msgid for e in po.obsolete_entries()]
    problems = []
    for entry in entries_of(po):
        if "fuzzy" in entry.flags:
            problems.append(("fuzzy", entry.msgid))
        if not all(translations(entry)):
            problems.append(("untranslated", entry.msgid))
            continue
        wanted = sorted(PLACEHOLDER.findall(entry.msgid))
        for text in translations(entry):
            if sorted(PLACEHOLDER.findall(text)) != wanted and not (
                entry.msgid_plural and set(PLACEHOLDER.findall(text)) <= set(wanted)
            ):
                problems.append(("placeholders", entry.msgid, text))
    assert not problems, problems
    if shutil.which("msgfmt"):  # GNU gettext's own checks: formats, plural forms, header
        checked = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_compiled_catalogue_is_the_po_compiled(path, tmp_path):
    """The .mo the server reads says exactly what the .po says (`make messages` compiles)."""
    fresh = tmp_path / "fresh.mo"
    polib.pofile(str(path)).save_as_mofile(str(fresh))
    assert path.with_suffix(".mo").read_bytes() == fresh.read_bytes(), f"recompile {path.relative_to(ROOT)}"


def test_catalogues_hold_exactly_the_strings_of_the_code(tmp_path):
    """Collecting the strings afresh from a copy of the code adds and removes nothing."""
    if shutil.which("xgettext") is None:
        pytest.skip("GNU gettext is not installed: `make gettext`")
    copy = tmp_path / "src"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".venv",
            ".git",
            "node_modules",
            "staticfiles",
            ".test-media",
            "__pycache__",
            "*.mo",
            ".pytest_cache",
            ".hypothesis",
            "test-artifacts",
        ),
    )
    subprocess.run([sys.executable, "scripts/messages.py", "collect"], cwd=copy, check=True, timeout=300)
    stale = {}
    for path in CATALOGUES:
        relative = path.relative_to(ROOT)
        ours = {(e.msgctxt, e.msgid, e.msgid_plural) for e in entries_of(polib.pofile(str(path)))}
        code = {(e.msgctxt, e.msgid, e.msgid_plural) for e in entries_of(polib.pofile(str(copy / relative)))}
        if ours != code:
            stale[relative.as_posix()] = {
                "not in the catalogue": sorted(m for _c, m, _p in code - ours),
                "no longer in the code": sorted(m for _c, m, _p in ours - code),
            }
    assert not stale, f"run `make messages` and translate: {stale}"


@pytest.mark.parametrize("path", template_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_template_has_no_words_outside_translation(path):
    assert untranslated(path.read_text()) == []


def test_the_template_scan_finds_words_outside_translation():
    """The scan itself: text between tags and in read attributes counts, translated text does not."""
    assert untranslated("<p>Wind speed</p>") == ["Wind speed"]
    assert untranslated('<img alt="A map" src="x.png">') == ["A map"]
    assert untranslated('{% load i18n %}<p>{% translate "Wind speed" %}</p><b>{{ name }}</b>') == []
    assert untranslated("{% blocktranslate %}Hi {{ name }}{% endblocktranslate %} · PDF") == []
