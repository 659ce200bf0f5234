"""Words for people from pure code (analyses, counterfactuals): marked for translation, no Django.

A pure module writes each sentence as ``gettext("... %(hour)s ...") % {...}`` (or ``ngettext``),
imported from here, and marks words it returns as data (a label, an outcome) with
``gettext_noop`` so that a template can translate them (``{% translate story.outcome %}``).
``makemessages`` collects these calls like any other. The web layer installs Django's functions
once (``classroom.apps``), so a sentence comes out in the language active where it is asked for
(the reader's, in a report); engine tests, benchmarks and harnesses get the English as written.
Only words go through here: nothing a game's rules or state depend on.
"""


def _same(text):
    return text


def _same_plural(one, many, n):
    return one if n == 1 else many


_translate = {"gettext": _same, "ngettext": _same_plural, "language": lambda: "en"}


def install(gettext, ngettext, language) -> None:
    """Translate from now on with these (Django's ``gettext``, ``ngettext``, ``get_language``)."""
    _translate.update(gettext=gettext, ngettext=ngettext, language=language)


def language() -> str:
    """The language sentences come out in now (part of the key of anything cached with words)."""
    return _translate["language"]() or "en"


def gettext(text: str) -> str:
    return _translate["gettext"](text)


def ngettext(one: str, many: str, n: int) -> str:
    return _translate["ngettext"](one, many, n)


def gettext_noop(text: str) -> str:
    """Marks ``text`` for the catalogue, to be translated where it is shown."""
    return text
