"""Languages: which one a screen is shown in.

A student's tablet chooses its own (the browser's by default, changed with the picker on every
page, which Django's ``set_language`` keeps in the language cookie); the participant remembers it
so that the server speaks it on the socket and writes the student's report in it. The teacher's
pages and projector follow the teacher's browser, and the class packet the teacher's language
when the session was opened or ended.
"""

from django.conf import settings
from django.utils import translation

from scenarios import registry, words


def codes() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def supported(code: str | None) -> str:
    """``code`` if it is one of ours (``es-MX`` counts as ``es``), else the default language."""
    if code:
        code = code.lower()
        for candidate in (code, code.split("-")[0]):
            if candidate in codes():
                return candidate
    return settings.LANGUAGE_CODE


def current() -> str:
    """The active language (the request's, or the one a task overrides to)."""
    return supported(translation.get_language())


def from_scope(scope) -> str:
    """A socket's language, as LocaleMiddleware reads a request's: the language cookie, else the
    browser's Accept-Language, else the default."""
    chosen = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    if chosen and supported(chosen) == chosen.lower().split("-")[0]:
        return supported(chosen)
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in translation.trans_real.parse_accept_lang_header(accept):
        if code != "*" and supported(code) == code.lower().split("-")[0]:
            return supported(code)
    return settings.LANGUAGE_CODE


def follow_device(participant) -> None:
    """Remember the language this tablet's page is shown in, if the student changed it."""
    language = current()
    if participant.language != language:
        participant.language = language
        type(participant).objects.filter(pk=participant.pk).update(language=language)


def content_translations(scenario: str, language: str) -> dict:
    """English content word -> ``language`` for a scenario (empty for English, or a scenario
    with no translations into it): ``<scenario>/content/translations/<language>.json``."""
    if language == settings.LANGUAGE_CODE:
        return {}
    return registry.content_translations(scenario, language)


def translate_content(value, scenario: str, language: str):
    """A scenario's content for a reader in ``language`` (its board, a printable, a debrief's
    page): its content words translated and its sentences (``scenarios.words.SAY``) written in
    that language; people's names in a debrief are ``scenarios.words.Typed`` and never looked up.
    Frames never go through here: views, summaries and answers carry ids and numbers, the same
    for every reader, and each screen names them from the board it holds."""
    if language == settings.LANGUAGE_CODE:
        return value
    with translation.override(language):
        return words.translate_words(value, content_translations(scenario, language))
