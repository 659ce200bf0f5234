"""The translation catalogues: every string a person reads, in every language but English.

    python scripts/messages.py collect   # gather new and changed strings into the .po files
    python scripts/messages.py compile   # write the .mo files the server reads from the .po files

Catalogues live in ``locale/`` (the platform's) and in each registered scenario's own
``<scenario>/locale/``; each holds ``django`` (Python and templates) and ``djangojs`` (the
scripts, served by /jsi18n/) for every language of ``settings.LANGUAGES``. ``collect`` needs
GNU gettext (``xgettext``, installed by ``make test``); both .po and .mo are committed, so serving
needs neither gettext nor this script. tests/i18n checks that the committed catalogues are
complete, not fuzzy, not stale, and compiled (README, "Add a language").
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOMAINS = ("django", "djangojs")
# What makemessages must not read: other people's code, generated files, tests' throw-away
# scenario, and the renderer harnesses (fixtures for screenshots, not the product).
IGNORE = [".venv", "node_modules", "staticfiles", "tests", "benchmarks", "*/harness/*", ".test-media", "scripts"]


def setup(root: Path = ROOT):
    sys.path.insert(0, str(root))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
    import django

    django.setup()


def languages() -> list[str]:
    from django.conf import settings

    return [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def catalogue_folders() -> list[Path]:
    """The platform's locale/ and each registered scenario's (tests' fixture scenario aside)."""
    from django.conf import settings

    return [Path(p) for p in settings.LOCALE_PATHS if "tests" not in Path(p).parts]


def po_files():
    for folder in catalogue_folders():
        for language in languages():
            for domain in DOMAINS:
                yield folder / language / "LC_MESSAGES" / f"{domain}.po"


def collect(root: Path = ROOT):
    from django.core.management import call_command

    for folder in catalogue_folders():
        folder.mkdir(parents=True, exist_ok=True)  # makemessages files a folder's strings in its locale/
    os.chdir(root)
    for domain in DOMAINS:
        call_command(
            "makemessages",
            locale=languages(),
            domain=domain,
            ignore_patterns=IGNORE,
            add_location="file",
            no_obsolete=True,
            no_wrap=True,
            verbosity=0,
        )


def compile_all():
    import polib

    for po in po_files():
        polib.pofile(str(po)).save_as_mofile(str(po.with_suffix(".mo")))


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command not in ("collect", "compile"):
        sys.exit(__doc__)
    setup()
    collect() if command == "collect" else compile_all()
