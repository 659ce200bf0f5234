"""How hard a paragraph is to read: the Flesch–Kincaid grade of English text, with syllables
counted by Pyphen's hyphenation dictionary (a word of n hyphenation points has n + 1)."""

import re

import pyphen

_DICTIONARY = pyphen.Pyphen(lang="en_US")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if _WORD.search(s)]


def syllables(word: str) -> int:
    return len(_DICTIONARY.positions(word.lower())) + 1


def grade(text: str) -> float:
    """Flesch–Kincaid grade level: 0.39 × words a sentence + 11.8 × syllables a word − 15.59."""
    words = _WORD.findall(text)
    return 0.39 * len(words) / len(sentences(text)) + 11.8 * sum(map(syllables, words)) / len(words) - 15.59


def longest_sentence(text: str) -> int:
    """The words in the text's longest sentence."""
    return max(len(_WORD.findall(s)) for s in sentences(text))
