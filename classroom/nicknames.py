"""Students' nicknames: checked against a small multilingual blocklist, or generated."""
import re
import unicodedata

from django.utils.translation import gettext_lazy as _

MAX_LENGTH = 16

# Kept short on purpose: words no classroom screen should show, in English, Spanish, French,
# Portuguese and German. Matched inside the folded name, so "xXidiotXx" is caught too.
BLOCKLIST = {
    "fuck", "shit", "bitch", "cunt", "pussy", "slut", "whore", "fag", "nigg",
    "retard", "idiot", "stupid", "loser", "nazi", "hitler", "sexy", "porn", "penis",
    "vagina", "boob", "puta", "puto", "mierda", "pendej", "cabron", "verga",
    "joder", "culo", "merde", "connard", "salope", "putain", "caralho", "porra", "buceta",
    "scheiss", "arsch", "fotze", "hure", "wichser",
}

ADJECTIVES = [
    "Brave", "Calm", "Clever", "Swift", "Steady", "Bright", "Bold", "Quick", "Kind", "Wise",
    "Sunny", "Lucky", "Gentle", "Eager", "Keen", "Jolly", "Merry", "Noble", "Proud", "Witty",
]
ANIMALS = [
    "Pelican", "Heron", "Dolphin", "Manatee", "Otter", "Gecko", "Egret", "Turtle", "Osprey",
    "Crab", "Panther", "Ibis", "Marlin", "Seal", "Puffin", "Falcon", "Lynx", "Owl", "Fox", "Koala",
]


def same_key(name: str) -> str:
    """Lower case without accents or separators: two names with one key are the same name."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]", "", plain)


def fold(name: str) -> str:
    """``same_key`` with look-alike digits read as letters, for blocklist matching."""
    plain = same_key(name).translate(str.maketrans("0134", "oiea"))
    return re.sub(r"[^a-z]", "", plain)


def clean(raw: str) -> str:
    """Collapse spaces; return the nickname as shown."""
    return " ".join((raw or "").split())


def problem(name: str) -> str | None:
    """Why a nickname is refused, as a sentence for the student, or None when it is fine."""
    if not name:
        return _("Type a nickname, for example your first name or a made-up name.")
    if len(name) > MAX_LENGTH:
        return _("That nickname is too long: use at most %(max)d letters.") % {"max": MAX_LENGTH}
    if not re.search(r"\w", name):
        return _("Use letters or numbers in your nickname.")
    folded = fold(name)
    if any(word in folded for word in BLOCKLIST):
        return _("Please choose a different nickname.")
    return None


def generated(index: int) -> str:
    """The ``index``-th generated name: adjective + animal, then a number once they run out."""
    adjective = ADJECTIVES[index % len(ADJECTIVES)]
    animal = ANIMALS[(index // len(ADJECTIVES) + index * 7) % len(ANIMALS)]
    round_ = index // (len(ADJECTIVES) * len(ANIMALS))
    return f"{adjective} {animal}" + (f" {round_ + 1}" if round_ else "")
