"""Words a person would read in a template but that no translation tag carries."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Text a reader sees: between tags, and in these attributes.
READ_ATTRIBUTES = ("alt", "title", "aria-label", "aria-roledescription", "placeholder")
# Words that are the same in every language: the product's name, units and the like.
SAME_IN_EVERY_LANGUAGE = {"Stormwise", "PDF", "CSV", "JSON", "QR", "ABC-DEF", "TS", "px"}

_BLOCKS = re.compile(r"{%\s*(blocktranslate|blocktrans)\b.*?{%\s*end\1\s*%}", re.S)
# blocks that fill an attribute or a <style> element of the base template: never read as text
_CLASSES = re.compile(r"{%\s*block (body_class|style)\s*%}.*?{%\s*endblock\s*%}", re.S)
_TAGS = re.compile(r"{%.*?%}|{{.*?}}|{#.*?#}", re.S)
_RAW = re.compile(r"<(script|style)\b.*?</\1>", re.S | re.I)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_ATTR = re.compile(r'\s(%s)="([^"]*)"' % "|".join(READ_ATTRIBUTES))
_ELEMENT = re.compile(r"<[^>]*>", re.S)
_WORD = re.compile(r"[^\W\d_]{2,}")


def template_files():
    folders = [ROOT / "templates", *sorted((ROOT / "scenarios").glob("*/templates"))]
    return sorted(p for folder in folders for p in folder.rglob("*") if p.suffix in (".html", ".txt"))


def untranslated(text: str) -> list[str]:
    """Each piece of readable text in ``text`` outside {% translate %} and {% blocktranslate %}."""
    text = _COMMENT.sub(" ", _RAW.sub(" ", _BLOCKS.sub(" ", _CLASSES.sub(" ", text))))
    text = _TAGS.sub(" ", text)
    found = []
    for element in _ELEMENT.findall(text):
        for _name, value in _ATTR.findall(element):
            found.append(value)
    found.extend(_ELEMENT.sub(" ", text).split("\n"))
    words = []
    for piece in found:
        piece = re.sub(r"&\w+;|&#\d+;", " ", piece).strip()
        if any(word not in SAME_IN_EVERY_LANGUAGE for word in _WORD.findall(piece)):
            words.append(piece)
    return words
