"""Report charts drawn with matplotlib as SVG text (embedded in the page and the PDF).

Each function returns an SVG string; text stays text (``svg.fonttype: none``) so charts are
small, sharp when printed, and searchable. Import is lazy: matplotlib costs about a second to load.
"""

from __future__ import annotations

from functools import lru_cache

from scenarios import words
from scenarios.charting import ACCENT, BAD, BRAND, INK, LINE, MUTED, OK  # noqa: F401
from scenarios.charting import pyplot as _plt
from scenarios.charting import svg as _svg
from scenarios.words import gettext as _
from scenarios.words import number


def decision_timeline(story: dict) -> str:
    """The household's 48 hours: watch, warning and winds, with when it did each thing."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.2, 1.9))
    ax.axvspan(0, 12, color="#eef4f7")
    ax.axvspan(16, 30, color="#fbe9e7", alpha=0.7)
    for x, label in ((0, _("watch")), (12, _("warning")), (48, _("winds"))):
        ax.axvline(x, color=MUTED, lw=1, ls="--")
        ax.text(x, 1.05, label, ha="center", va="bottom", color=MUTED, transform=ax.get_xaxis_transform())
    ax.text(23, 0.92, _("peak traffic"), ha="center", color=BAD, fontsize=8, transform=ax.get_xaxis_transform())
    rows = {
        "leave": (2, BRAND),
        "destination": (2, BRAND),
        "arrived": (2, OK),
        "stayed_home": (2, BAD),
        "out_of_time": (2, BAD),
    }
    for step in story["timeline"]:
        y, colour = rows.get(step["kind"], (1, ACCENT))
        if step["kind"] == "card":
            y, colour = 0, MUTED
        ax.plot(step["hour"], y, "o", color=colour, ms=6 if y else 4)
        if step["cost_minutes"]:
            ax.plot([step["hour"], step["hour"] + step["cost_minutes"] / 60], [y, y], color=colour, lw=3)
    if story["left_hour"] is not None:
        ax.annotate(
            _("left home, hour %(hour)s") % {"hour": number(story["left_hour"], 1)},
            (story["left_hour"], 2),
            xytext=(0, 8),
            textcoords="offset points",
            ha="left",
            fontsize=8,
            color=BRAND,
        )
    if story["arrived_hour"] is not None:
        ax.annotate(
            _("arrived, hour %(hour)s") % {"hour": number(story["arrived_hour"], 1)},
            (story["arrived_hour"], 2),
            xytext=(0, -14),
            textcoords="offset points",
            ha="right",
            fontsize=8,
            color=OK,
        )
    ax.set_yticks([0, 1, 2], [_("chance"), _("errands"), _("leaving")])
    ax.set_ylim(-0.6, 2.8)
    ax.set_xlim(-1, 49)
    ax.set_xticks(range(0, 49, 6))
    ax.set_xlabel(_("game hour (0 = hurricane watch, 48 = tropical-storm winds)"))
    return _svg(fig)


def departures(bins: list[dict], your_hour: float | None = None) -> str:
    """How many households left in each 6-hour block; the reader's own block highlighted.

    The class's chart differs between students only in the highlighted block, so a worker
    draws each variant once (at most nine per class) and reuses it.
    """
    mine = (
        None
        if your_hour is None
        else next((i for i, b in enumerate(bins) if b["from"] is not None and b["from"] <= your_hour < b["to"]), -1)
    )
    return _departures(
        tuple((b["label"], b["from"], b["to"], b["count"]) for b in bins), your_hour is None, mine, words.language()
    )


@lru_cache(maxsize=64)
def _departures(rows: tuple, none_left: bool, mine: int | None, language: str) -> str:
    """``language``: the words are drawn in it, so each language's variant is cached apart."""
    bins = [{"label": label, "from": start, "to": end, "count": count} for label, start, end, count in rows]
    your_hour = None if none_left else (bins[mine]["from"] if mine is not None and mine >= 0 else -1)
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.2, 2.2))
    labels = [b["label"] if b["from"] is not None else _("never") for b in bins]
    colours = []
    for b in bins:
        mine = (
            (your_hour is None and b["from"] is None)
            if your_hour is None
            else (b["from"] is not None and b["from"] <= your_hour < b["to"])
        )
        colours.append(ACCENT if mine else (BAD if b["from"] is None else BRAND))
    ax.bar(labels, [b["count"] for b in bins], color=colours)
    ax.axvline(1.5, color=MUTED, lw=1, ls="--")
    ax.text(
        1.55,
        0.95,
        _("warning (hour %(hour)s)") % {"hour": 12},
        color=MUTED,
        fontsize=8,
        transform=ax.get_xaxis_transform(),
    )
    ax.set_ylabel(_("households"))
    ax.set_xlabel(_("hour the household left home (orange: you)"))
    ax.yaxis.get_major_locator().set_params(integer=True)
    return _svg(fig)


def destinations(rows: list[dict], real_label: str | None) -> str:
    """Where the class went beside where real evacuees went (percent of evacuated households)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.2, 2.2))
    names = [_(r["label"]) for r in rows]  # marked in analysis, written in the reader's language here
    ys = range(len(rows))
    ax.barh([y + 0.2 for y in ys], [r["share"] for r in rows], height=0.38, color=BRAND, label=_("our class"))
    if real_label and all(r.get("real") is not None for r in rows):
        ax.barh([y - 0.2 for y in ys], [r["real"] for r in rows], height=0.38, color=ACCENT, label=real_label)
    ax.set_yticks(list(ys), names)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel(_("households that evacuated (%)"))
    ax.legend(frameon=False, loc="lower right", fontsize=8)
    return _svg(fig)


def counterfactual(items: list[dict]) -> str:
    """Futures in which the household arrived before the winds, as played and with one change."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.2, 1.2 + 0.55 * len(items)))
    labels, played, changed = [], [], []
    for item in items:
        if item["decision"] == "leave":
            labels.append(_("leaving time"))
        else:
            labels.append("shutters")
        played.append(item["actual"]["arrived"])
        changed.append(item["alternative"]["arrived"])
    ys = range(len(items))
    ax.barh([y + 0.2 for y in ys], played, height=0.38, color=BRAND, label=_("as you decided"))
    ax.barh([y - 0.2 for y in ys], changed, height=0.38, color=ACCENT, label=_("with the one change"))
    ax.set_yticks(list(ys), labels)
    ax.invert_yaxis()
    n = items[0]["alternative"]["futures"] if items else 100
    ax.set_xlim(0, n)
    ax.set_xlabel(_("futures (of %(n)s) arriving before the winds") % {"n": n})
    ax.legend(frameon=False, loc="lower right", fontsize=8, bbox_to_anchor=(1, 1), ncols=2)
    return _svg(fig)
