"""One English string, one translation per language, in every catalogue.

Django merges the platform's and every scenario's catalogues into one per language and domain,
and the first catalogue holding a string wins: were "grade" "nivel de evidencia" in one catalogue
and "grado" in another, which word a reader got would hang on the order of LOCALE_PATHS. The
scripts' catalogues (djangojs) and the pages' (django) are read side by side on one screen, so
they agree too. Where the same English truly means two things, the code gives it a context
(`pgettext("road", "open")`), which makes it a different entry.
"""

from collections import defaultdict

import polib
import pytest

from tests.i18n.scan import ROOT
from tests.i18n.test_catalogues import CATALOGUES, entries_of, translations

LANGUAGES = sorted({path.parts[-3] for path in CATALOGUES})


def clashes(catalogues):
    """{(msgctxt, msgid, msgid_plural): {translation: [catalogue names]}} for every entry that
    the given catalogues (name -> polib file) translate in more than one way."""
    seen = defaultdict(lambda: defaultdict(list))
    for name, po in catalogues.items():
        for entry in entries_of(po):
            seen[(entry.msgctxt, entry.msgid, entry.msgid_plural)][tuple(translations(entry))].append(name)
    return {key: dict(ways) for key, ways in seen.items() if len(ways) > 1}


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_english_string_has_one_translation_across_catalogues(language):
    catalogues = {
        path.relative_to(ROOT).as_posix(): polib.pofile(str(path)) for path in CATALOGUES if path.parts[-3] == language
    }
    found = clashes(catalogues)
    assert not found, "choose one wording, or give the English a pgettext context: " + "\n".join(
        f"{msgid!r} (context {context!r}): {ways}" for (context, msgid, _plural), ways in found.items()
    )


def entry(msgid, msgstr, msgctxt=None):
    po = polib.POFile()
    po.append(polib.POEntry(msgid=msgid, msgstr=msgstr, msgctxt=msgctxt))
    return po


def test_the_check_finds_two_words_for_one_string_and_spares_contexts():
    found = clashes({"a": entry("grade", "grado"), "b": entry("grade", "nivel de evidencia")})
    assert found == {(None, "grade", ""): {("grado",): ["a"], ("nivel de evidencia",): ["b"]}}
    assert clashes({"a": entry("open", "abierto", "bridge"), "b": entry("open", "abierta", "road")}) == {}
    assert clashes({"a": entry("Move", "Mover"), "b": entry("Move", "Mover")}) == {}


@pytest.mark.parametrize("language", [language for language in LANGUAGES if language != "en"])
def test_a_content_word_and_the_same_string_in_a_catalogue_read_alike(language):
    """The map's "Home" (a content word) and the tally's "Home" (a script string) are one place:
    the reader gets one word for it, not "Thuis" on the map and "Huis" beside it."""
    import json

    from scenarios import registry

    words = {}
    for scenario in registry.all():
        path = scenario.folder / "content" / "translations" / f"{language}.json"
        if path.exists():
            words.update(json.loads(path.read_text(encoding="utf-8")))
    differ = [
        (entry.msgid, entry.msgstr, words[entry.msgid])
        for path in CATALOGUES
        if path.parts[-3] == language
        for entry in entries_of(polib.pofile(str(path)))
        if not entry.msgctxt and entry.msgid in words and entry.msgstr and entry.msgstr != words[entry.msgid]
    ]
    assert differ == []
