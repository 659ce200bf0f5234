"""Students' nicknames: checked against a small multilingual blocklist, or generated."""

import re
import unicodedata

from django.utils.translation import gettext_lazy as _

MAX_LENGTH = 16

# Kept short on purpose: words no classroom screen should show, in English, Spanish, French,
# Portuguese and German. Matched inside the folded name, so "xXidiotXx" is caught too.
BLOCKLIST = {
    "fuck",
    "shit",
    "bitch",
    "cunt",
    "pussy",
    "slut",
    "whore",
    "fag",
    "nigg",
    "retard",
    "idiot",
    "stupid",
    "loser",
    "nazi",
    "hitler",
    "sexy",
    "porn",
    "penis",
    "vagina",
    "boob",
    "puta",
    "puto",
    "mierda",
    "pendej",
    "cabron",
    "verga",
    "joder",
    "culo",
    "merde",
    "connard",
    "salope",
    "putain",
    "caralho",
    "porra",
    "buceta",
    "scheiss",
    "arsch",
    "fotze",
    "hure",
    "wichser",
}

ADJECTIVES = [
    "Brave",
    "Calm",
    "Clever",
    "Swift",
    "Steady",
    "Bright",
    "Bold",
    "Quick",
    "Kind",
    "Wise",
    "Sunny",
    "Lucky",
    "Gentle",
    "Eager",
    "Keen",
    "Jolly",
    "Merry",
    "Noble",
    "Proud",
    "Witty",
]
ANIMALS = [
    "Pelican",
    "Heron",
    "Dolphin",
    "Manatee",
    "Otter",
    "Gecko",
    "Egret",
    "Turtle",
    "Osprey",
    "Crab",
    "Panther",
    "Ibis",
    "Marlin",
    "Seal",
    "Puffin",
    "Falcon",
    "Lynx",
    "Owl",
    "Fox",
    "Koala",
]
# The same names in Spanish (the animal first, the adjective agreeing with it: masculine and
# feminine forms) and in Dutch (every animal here is a "de" word, so the adjective takes -e).
ADJECTIVES_ES = [
    ("Valiente", "Valiente"),
    ("Tranquilo", "Tranquila"),
    ("Listo", "Lista"),
    ("Veloz", "Veloz"),
    ("Firme", "Firme"),
    ("Brillante", "Brillante"),
    ("Audaz", "Audaz"),
    ("Rápido", "Rápida"),
    ("Amable", "Amable"),
    ("Sabio", "Sabia"),
    ("Alegre", "Alegre"),
    ("Suertudo", "Suertuda"),
    ("Tierno", "Tierna"),
    ("Atento", "Atenta"),
    ("Astuto", "Astuta"),
    ("Feliz", "Feliz"),
    ("Risueño", "Risueña"),
    ("Noble", "Noble"),
    ("Fuerte", "Fuerte"),
    ("Genial", "Genial"),
]
ANIMALS_ES = [  # (name, feminine)
    ("Pelícano", False),
    ("Garza", True),
    ("Delfín", False),
    ("Manatí", False),
    ("Nutria", True),
    ("Geco", False),
    ("Garceta", True),
    ("Tortuga", True),
    ("Águila", True),
    ("Cangrejo", False),
    ("Pantera", True),
    ("Ibis", False),
    ("Marlín", False),
    ("Foca", True),
    ("Frailecillo", False),
    ("Halcón", False),
    ("Lince", False),
    ("Búho", False),
    ("Zorro", False),
    ("Koala", False),
]
ADJECTIVES_NL = [
    "Dappere",
    "Kalme",
    "Slimme",
    "Vlugge",
    "Stoere",
    "Heldere",
    "Moedige",
    "Snelle",
    "Lieve",
    "Wijze",
    "Zonnige",
    "Gelukkige",
    "Zachte",
    "Gretige",
    "Scherpe",
    "Vrolijke",
    "Blije",
    "Edele",
    "Trotse",
    "Grappige",
]
ANIMALS_NL = [
    "Pelikaan",
    "Reiger",
    "Dolfijn",
    "Zeekoe",
    "Otter",
    "Gekko",
    "Zilverreiger",
    "Schildpad",
    "Visarend",
    "Krab",
    "Panter",
    "Ibis",
    "Marlijn",
    "Zeehond",
    "Papegaaiduiker",
    "Valk",
    "Lynx",
    "Uil",
    "Vos",
    "Koala",
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


def generated(index: int, language: str = "en") -> str:
    """The ``index``-th generated name in ``language``: adjective and animal (in Spanish the
    animal first, the adjective agreeing), then a number once they run out."""
    adjective = index % len(ADJECTIVES)
    animal = (index // len(ADJECTIVES) + index * 7) % len(ANIMALS)
    round_ = index // (len(ADJECTIVES) * len(ANIMALS))
    if language == "es":
        name, feminine = ANIMALS_ES[animal]
        words = f"{name} {ADJECTIVES_ES[adjective][feminine]}"
    elif language == "nl":
        words = f"{ADJECTIVES_NL[adjective]} {ANIMALS_NL[animal]}"
    else:
        words = f"{ADJECTIVES[adjective]} {ANIMALS[animal]}"
    return words + (f" {round_ + 1}" if round_ else "")
