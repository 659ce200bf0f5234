"""The knowledge check's statistics, as plain functions of numbers (no Django): the class's
normalized gain with its bootstrap interval, and each item's discrimination.

- **Normalized gain** (Hake 1998): ``(after - before) / (100 - before)`` on the class's mean
  percentages, so a class that starts high is not held to the same points as one that starts low.
  Undefined when the class starts at 100 %.
- **Bootstrap interval**: the paired students are drawn again with replacement ``draws`` times,
  each draw's gain worked out, and the middle 90 % kept; the seed is fixed by the caller, so the
  same answers always give the same interval.
- **Discrimination**: the correlation between getting an item right and the rest of the same
  sitting's score (corrected point-biserial). Near 0 or below, the item does not tell stronger
  from weaker answers: reword it or drop it.
"""
from __future__ import annotations

import math
import random
from statistics import mean

DRAWS = 2000
INTERVAL = 0.90
#: fewer paired students than this and the result is indicative only
FEW_PAIRS = 10
#: a class that starts at this share right has little room to gain
CEILING = 80
#: below this, an item tells stronger from weaker answers poorly
WEAK_DISCRIMINATION = 0.2


def normalized_gain(before: float, after: float) -> float | None:
    """Hake's gain of two class means in percent; None when the class started at 100 %."""
    if before >= 100:
        return None
    return (after - before) / (100 - before)


def class_gain(pairs: list[tuple[float, float]], *, seed: str, draws: int = DRAWS) -> dict:
    """``pairs``: each paired student's (before, after) share right in percent. Returns the
    means, the gain and its bootstrap interval (None where undefined)."""
    n = len(pairs)
    if not n:
        return {"n": 0, "before": None, "after": None, "gain": None, "low": None, "high": None}
    before = mean(p[0] for p in pairs)
    after = mean(p[1] for p in pairs)
    rng = random.Random(seed)
    gains = []
    for _draw in range(draws):
        sample = [pairs[rng.randrange(n)] for _i in range(n)]
        g = normalized_gain(mean(p[0] for p in sample), mean(p[1] for p in sample))
        if g is not None:
            gains.append(g)
    low = high = None
    if gains:
        gains.sort()
        tail = (1 - INTERVAL) / 2
        low = gains[math.floor(tail * (len(gains) - 1))]
        high = gains[math.ceil((1 - tail) * (len(gains) - 1))]
    return {"n": n, "before": before, "after": after, "gain": normalized_gain(before, after), "low": low, "high": high}


def discrimination(sittings: list[tuple[bool, float]]) -> float | None:
    """Corrected point-biserial: ``sittings`` holds, for each student who answered the item in one
    sitting, (right or not, their share right on the sitting's other items). None when there are
    fewer than 4 or nobody (or everybody) got it right, or the rest scores do not vary."""
    if len(sittings) < 4:
        return None
    right = [r for ok, r in sittings if ok]
    wrong = [r for ok, r in sittings if not ok]
    if not right or not wrong:
        return None
    rests = [r for _ok, r in sittings]
    m = mean(rests)
    sd = math.sqrt(sum((r - m) ** 2 for r in rests) / len(rests))
    if sd == 0:
        return None
    p = len(right) / len(sittings)
    return (mean(right) - mean(wrong)) / sd * math.sqrt(p * (1 - p))
