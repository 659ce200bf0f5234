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


# --- Numbers and dollars ------------------------------------------------------------------------
# Paper and screens write a number or an amount as the reader's language does, the same way the
# tablets' Intl.NumberFormat does (static/js/kit.js num()/money(), CLDR): the content is about the
# US Gulf coast, so amounts stay US dollars. Per language: thousands separator, decimal mark, the
# fewest digits that get grouped (Spanish writes 1200 but 12.000), and where "$" goes.
_NUMBER_STYLES = {
    "en": (",", ".", 4, "{sign}${amount}"),
    "es": (".", ",", 5, "{sign}{amount}\u00a0$"),
    "nl": (".", ",", 4, "$\u00a0{sign}{amount}"),
}


def _style():
    return _NUMBER_STYLES.get(language().split("-")[0], _NUMBER_STYLES["en"])


def number(value, places: int | None = None) -> str:
    """``value`` as the language sentences come out in writes it: 1,200.5 in English, 1200,5 in
    Spanish, 1.200,5 in Dutch; with ``places``, always that many decimals (hour 0.0 / hora 0,0)."""
    group, decimal, fewest, _money = _style()
    digits = f"{abs(value):.{places}f}" if places is not None else f"{abs(value)}"
    whole, _dot, fraction = digits.partition(".")
    if places is None and not fraction.strip("0"):
        fraction = ""
    if len(whole) >= fewest:
        whole = f"{int(whole):,}".replace(",", group)
    sign = "-" if value < 0 and digits.strip("0.") else ""
    return sign + whole + (decimal + fraction if fraction else "")


def money(amount) -> str:
    """Whole US dollars as the language writes an amount: $200,000 / 200.000 $ / $ 200.000."""
    amount = round(amount)
    pattern = _style()[3]
    return pattern.format(sign="-" if amount < 0 else "", amount=number(abs(amount)))


# --- Content words ------------------------------------------------------------------------------
# A scenario's content files (cards, places, roles, reasons...) are written in English; beside
# them, ``content/translations/<language>.json`` maps each English word of the fields below to
# that language: {"Contraflow!": "¡Contraflujo!", ...}. The web layer puts the translations into
# what it sends to a tablet in that language (``classroom.languages``); engines, their states and
# the move log stay in English, so nothing a game decides depends on a language.
CONTENT_FIELDS = frozenset({"label", "name", "title", "text", "question", "power", "basis"})
CONTENT_CHOICES = frozenset({"choices", "consequences"})  # {key: English sentence}


def content_words(content) -> list[str]:
    """Every English word of ``content`` (parsed content files) that is translated, in order."""
    found = []

    def walk(value):
        if isinstance(value, dict):
            for key, item in value.items():
                if key in CONTENT_FIELDS and isinstance(item, str):
                    found.append(item)
                elif key in CONTENT_CHOICES and isinstance(item, dict):
                    found.extend(text for text in item.values() if isinstance(text, str))
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(content)
    return list(dict.fromkeys(found))


class Typed(str):
    """Text a person typed (a nickname): shown as it was typed in every language, never looked
    up as a content word ("Rover" the student is not "Rover" the card)."""

    __slots__ = ()


def translate_words(value, translations: dict):
    """``value`` (a view, a board: plain JSON) with every string that is an English content word
    replaced by its translation and every sentence that says what it says (``said``) written in
    the active language; keys, ``Typed`` text and everything else untouched."""
    if isinstance(value, Typed):
        return value
    if isinstance(value, str):
        return translations.get(value, value)
    if isinstance(value, dict):
        if SAY in value:
            return _spoken(value, translations)
        return {key: translate_words(item, translations) for key, item in value.items()}
    if isinstance(value, list):
        return [translate_words(item, translations) for item in value]
    return value


# --- Sentences in a view ------------------------------------------------------------------------
# A sentence an engine puts in a view (a feed line, a road's odds) is English, and says beside it
# what it says, so the web layer can write it in the reader's language as it does a refusal:
#     {"text": "Drove to Bank (rolled 7, needed 3+)",
#      "say": {"template": "Drove to %(place)s (rolled %(roll)s, needed %(needs)s+)",
#              "params": {"place": "Bank", "roll": 7, "needs": 3}}}
# The template is marked with ``gettext_noop`` in the engine (so it is in the scenario's
# catalogue); params are numbers and content words; "into" names the field when it is not "text".
SAY = "say"


def said(template: str, **params) -> dict:
    """What a sentence says, for a view's ``"say"``: its marked template and its params."""
    return {"template": template, "params": params}


def english(template: str, params: dict) -> str:
    """The sentence as an engine writes it: ``template`` filled from ``params``, whole numbers
    grouped as English writes them ($1,000). A template without placeholders is as is."""
    if "%(" not in template:
        return template
    return template % {
        key: f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else value
        for key, value in params.items()
    }


def shown_params(params: dict, translations: dict) -> dict:
    """``params`` as the active language writes them: whole numbers grouped its way (1.000), the
    scenario's content words (a place, a card) in its words from ``translations`` (matched
    regardless of case, as an English sentence may write a place in lower case)."""
    shown = {}
    for key, value in params.items():
        if isinstance(value, int) and not isinstance(value, bool):
            value = number(value)
        elif isinstance(value, str) and translations:
            value = translations.get(value) or _by_case(translations).get(value.lower(), value)
        shown[key] = value
    return shown


def sentence(template: str, params: dict, translations: dict) -> str | None:
    """``template`` in the active language, filled with ``shown_params``; None if the
    translation does not fit the params (a broken catalogue entry), so the English stays."""
    text = _translate["gettext"](template)
    if "%(" not in template:
        return text
    try:
        return text % shown_params(params, translations)
    except (KeyError, TypeError, ValueError):
        return None


def _kept(cache: dict, translations: dict, build):
    """What ``cache`` keeps beside one table of content words (one per scenario and language; the
    tables live as long as the process), built by ``build()`` the first time it is asked for."""
    kept = cache.get(id(translations))
    if kept is None or kept[0] is not translations:
        kept = cache[id(translations)] = (translations, build())
    return kept[1]


_BY_CASE: dict = {}  # id(translations) -> (translations, lower-cased English -> word)


def _by_case(translations: dict) -> dict:
    return _kept(_BY_CASE, translations, lambda: {k.lower(): v for k, v in translations.items()})


def _spoken(line: dict, translations: dict) -> dict:
    say = line[SAY]
    out = {key: translate_words(item, translations) for key, item in line.items() if key != SAY}
    text = sentence(say["template"], say.get("params") or {}, translations)
    if text is not None:
        out[say.get("into", "text")] = text
    return out
