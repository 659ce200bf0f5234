"""Who reads a page, and so which real-world claims it may show: the one filter for children.

The teacher chooses a session's *intensity* (Gentle: no death tolls anywhere; Frank: death tolls
where a fact has them) and its *age band* (the youngest students) on the new-session form. Every
child-facing thing — the board a tablet loads, printables, reports, the family plan, the
debrief screen — passes through ``Audience.redact`` (or asks ``Audience.allows`` of each fact),
so the choice reaches everything a student sees, never only the debrief.

A *claim* is any content dict that names its fact by key (``"fact": "<key of facts.json>"``): a
card's basis, a role's basis, a timeline entry. (A report's citation, ``{"fact": <Fact row>}``,
holds a fact the page already asked for through ``allows``, and is left alone.) A claim carries what the filter needs:

- ``grade`` (O, S or U) and ``url``: a child sees only a claim checked against its primary
  source (grade O) that has a working public address; anything else is for the teacher only;
- ``deaths``: true when its words hold a death toll (hidden from a Gentle audience);
- ``age_band``: the youngest band it suits ("10+" when absent).

Pure: no Django (scenarios' engines, kits and the web layer all use it).
"""

from __future__ import annotations

from dataclasses import dataclass

AGE_BANDS = ("10+", "13+", "16+")
GENTLE, FRANK = "gentle", "frank"
INTENSITIES = (GENTLE, FRANK)
#: the words of a claim that stands inside a card (some decks' cards hold them flat)
CLAIM_FIELDS = ("basis", "source", "fact", "grade", "url")
#: what a claim says of itself, for the filter only: dropped with the claim
TAGS = ("deaths", "age_band")


def band_index(band: str | None) -> int:
    return AGE_BANDS.index(band) if band in AGE_BANDS else 0


@dataclass(frozen=True)
class Audience:
    """A reader: a session's students (``teacher=False``) or its teacher (who also sees claims
    not checked against a primary source, labelled as such)."""

    intensity: str = GENTLE
    age_band: str = AGE_BANDS[0]
    teacher: bool = False

    @classmethod
    def of(cls, intensity: str | None, age_band: str | None, *, teacher: bool = False) -> Audience:
        """An audience from stored or typed values; anything unknown falls back to the gentlest,
        youngest choice."""
        return cls(
            intensity if intensity in INTENSITIES else GENTLE,
            age_band if age_band in AGE_BANDS else AGE_BANDS[0],
            teacher,
        )

    @classmethod
    def from_key(cls, key: str | None) -> Audience:
        """The audience an address names (``key``), e.g. ``gentle-10`` or ``frank-16``."""
        intensity, _dash, band = (key or "").partition("-")
        return cls.of(intensity, f"{band}+")

    @property
    def key(self) -> str:
        """A short name for addresses and cache keys (students only: ``gentle-10``)."""
        return f"{self.intensity}-{self.age_band.rstrip('+')}"

    @property
    def gentle(self) -> bool:
        return self.intensity == GENTLE

    def allows(self, claim) -> bool:
        """May this reader see ``claim`` (a content claim dict, or anything with the same names as
        attributes, such as a knowledge-base fact)? Students see only verified claims with a
        working source; the teacher sees unverified ones too (pages label them so). Neither sees
        a death toll when the session is Gentle, nor a claim above its age band."""
        if not self.teacher and not verified(claim):
            return False
        if self.gentle and _get(claim, "deaths"):
            return False
        return band_index(_get(claim, "age_band")) <= band_index(self.age_band)

    def redact(self, value):
        """``value`` (a board, view, printable's content or report context: JSON-like dicts and
        lists) with every claim this reader may not see taken out: a nested basis becomes None,
        a claim held flat in a card loses its claim fields (the card itself stays, it is a rule).
        Returns new containers; ``value`` is not changed."""
        return _redact(value, self, None)


def verified(claim) -> bool:
    """Checked against its primary source (grade O, or a fact marked verified) with a public
    address a reader can follow."""
    grade = _get(claim, "grade") or _get(claim, "confidence")
    checked = _get(claim, "verified") if _has(claim, "verified") else grade == "O"
    return bool(checked) and grade == "O" and bool(_get(claim, "url"))


def _has(claim, name) -> bool:
    return name in claim if isinstance(claim, dict) else hasattr(claim, name)


def _get(claim, name):
    return claim.get(name) if isinstance(claim, dict) else getattr(claim, name, None)


def _redact(value, audience: Audience, parent_key):
    if isinstance(value, list):
        return [_redact(item, audience, parent_key) for item in value]
    if not isinstance(value, dict):
        return value
    if isinstance(value.get("fact"), str) and value["fact"] and not audience.allows(value):
        if parent_key == "basis" or "fact" in value and not ({"basis", "text"} & set(value)):
            return None  # a claim of its own (a basis, a citation): gone
        # a card holding its claim flat stays (it is a rule) without its claim; an entry whose own
        # text is the claim (a timeline line) stays as a game event, without its source
        gone = CLAIM_FIELDS if "basis" in value else CLAIM_FIELDS[1:]
        return {k: (None if k in gone else _redact(v, audience, k)) for k, v in value.items() if k not in TAGS}
    return {k: _redact(v, audience, k) for k, v in value.items()}
