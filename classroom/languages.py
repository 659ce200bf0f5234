"""Languages: which one a screen is shown in.

A student's tablet chooses its own (the browser's by default, changed with the picker on every
page, which Django's ``set_language`` keeps in the language cookie); the participant remembers it
so that the server speaks it on the socket and writes the student's report in it. The teacher's
pages and projector follow the teacher's browser, and the class packet the teacher's language
when the session was opened or ended.
"""
from django.conf import settings
from django.utils import translation


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


def follow_device(participant) -> None:
    """Remember the language this tablet's page is shown in, if the student changed it."""
    language = current()
    if participant.language != language:
        participant.language = language
        type(participant).objects.filter(pk=participant.pk).update(language=language)
