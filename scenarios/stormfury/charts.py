"""Project Stormfury's report charts (matplotlib, as SVG text): the storm map, spending against
the forecast, and damage beside the policy bot's."""

from __future__ import annotations

import math

from scenarios.charting import ACCENT, BAD, BRAND, INK, LINE, MUTED, OK  # noqa: F401
from scenarios.charting import pyplot as _plt
from scenarios.charting import svg as _svg
from scenarios.words import gettext as _

LAND, SEA, FLOOD, HELD = "#e9efe6", "#dcebf5", "#b3261e", "#1f7a3a"


def _hex_xy(q, r):
    """Flat-top axial hex centre in plot units (north up)."""
    return 1.5 * q, -(3**0.5) * (r + q / 2)


def storm_map(story: dict) -> str:
    """The Gulf coast: the storm's track by round, roads flooded or held, and where the team spent."""
    from matplotlib.collections import PolyCollection

    from scenarios.stormfury import rules as sf

    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.2, 3.9))
    corners = [(math.cos(i * math.pi / 3), math.sin(i * math.pi / 3)) for i in range(6)]
    polys, colours = [], []
    for (q, r), terrain in sf.TERRAIN.items():
        x, y = _hex_xy(q, r)
        polys.append([(x + cx, y + cy) for cx, cy in corners])
        colours.append(LAND if terrain == "land" else SEA)
    # The sea and land hexes go in as one small raster inside the SVG: as vectors they made
    # the PDF several times slower to print, and they carry no text.
    ax.add_collection(PolyCollection(polys, facecolors=colours, edgecolors="white", linewidths=0.4, rasterized=True))
    flooded = set(story["team"]["flooded_roads"])
    sealed = {r for r in story["spending"]["sealed"]}
    for rid, road in sf.ROADS.items():
        pts = (
            [_hex_xy(*sf.CITY_HEX[road["a"]])]
            + [_hex_xy(*h) for h in road["hexes"]]
            + [_hex_xy(*sf.CITY_HEX[road["b"]])]
        )
        colour, style, width = (
            (FLOOD, "--", 1.6) if rid in flooded else ((HELD, "-", 2.4) if rid in sealed else (MUTED, "-", 1.2))
        )
        ax.plot([p[0] for p in pts], [p[1] for p in pts], color=colour, ls=style, lw=width, zorder=2)
    track = story["track"]
    if track:
        xs = [_hex_xy(*track[0]["from"])[0]] + [_hex_xy(*h["to"])[0] for h in track]
        ys = [_hex_xy(*track[0]["from"])[1]] + [_hex_xy(*h["to"])[1] for h in track]
        ax.plot(xs, ys, color=BRAND, lw=2.2, marker="o", ms=4, zorder=4)
        for h in track:
            x, y = _hex_xy(*h["to"])
            ax.annotate(
                f"{h['round']}",
                (x, y),
                xytext=(4, 3),
                textcoords="offset points",
                color=BRAND,
                fontsize=8,
                fontweight="bold",
                zorder=5,
            )
    spent = {c["city"]: c for c in story["cities"]}
    for cid in sf.CITY_IDS:
        x, y = _hex_xy(*sf.CITY_HEX[cid])
        row = spent.get(cid)
        hit = row and row["hit"]
        ax.plot(x, y, "s", color=BAD if hit else INK, ms=5, zorder=6)
        label = sf.CITIES[cid]["name"]
        if row and row["units"]:
            parts = [
                f"F{row['fortify']}" if row["fortify"] else "",
                f"D{row['dam']}" if row["dam"] else "",
                f"E{row['evacuate']}" if row["evacuate"] else "",
            ]
            label += "\n" + " ".join(p for p in parts if p)
            ax.scatter([x], [y], s=60 + 45 * row["units"], facecolors="none", edgecolors=ACCENT, lw=1.6, zorder=5)
        ax.annotate(
            label,
            (x, y),
            xytext=(0, -8),
            textcoords="offset points",
            ha="center",
            va="top",
            fontsize=7,
            color=BAD if hit else INK,
            zorder=7,
        )
    ax.set_aspect("equal")
    ax.autoscale_view()
    # The inland rows north of the board's frame show only as far as the storm went.
    ax.set_ylim(top=max(_hex_xy(*h)[1] for h in sf.MAP["frame"] + [t["to"] for t in track]) + 1.5)
    ax.axis("off")
    from matplotlib.lines import Line2D

    ax.legend(
        handles=[
            Line2D([], [], color=BRAND, lw=2, marker="o", ms=4, label=_("storm center by round")),
            Line2D([], [], color=FLOOD, ls="--", label=_("road flooded")),
            Line2D([], [], color=HELD, lw=2.4, label=_("road sealed by dams")),
            Line2D(
                [],
                [],
                ls="",
                marker="o",
                mfc="none",
                mec=ACCENT,
                ms=9,
                label=_("team spent here (F fortify, D dam, E evacuate)"),
            ),
            Line2D([], [], ls="", marker="s", color=BAD, ms=5, label=_("city hit by the storm")),
        ],
        frameon=False,
        fontsize=7,
        loc="upper left",
        bbox_to_anchor=(0, -0.01),
        ncols=3,
    )
    return _svg(fig)


def spending_vs_forecast(cities: list[dict]) -> str:
    """Per city: the team's resources (tokens, dams, people moved) beside the forecast's highest
    chance of a hit, cities the storm reached in red."""
    plt = _plt()
    rows = cities or [{"name": "—", "fortify": 0, "dam": 0, "evacuate": 0, "max_risk": 0, "hit": False}]
    fig, ax = plt.subplots(figsize=(7.2, 0.9 + 0.32 * len(rows)))
    ys = list(range(len(rows)))
    left = [0] * len(rows)
    for key, colour, label in (
        ("fortify", ACCENT, _("fortification tokens")),
        ("dam", BRAND, _("dams")),
        ("evacuate", OK, _("people evacuated")),
    ):
        values = [r[key] for r in rows]
        ax.barh(ys, values, left=left, height=0.55, color=colour, label=label)
        left = [a + b for a, b in zip(left, values)]
    ax.set_yticks(ys, [r["name"] + (_(" (hit)") if r["hit"] else "") for r in rows])
    for tick, row in zip(ax.get_yticklabels(), rows):
        tick.set_color(BAD if row["hit"] else INK)
    ax.invert_yaxis()
    ax.set_xlabel(_("resources the team spent there"))
    ax.xaxis.get_major_locator().set_params(integer=True)
    risk = ax.twiny()
    risk.plot(
        [100 * r["max_risk"] for r in rows], ys, "D", color=INK, ms=5, label=_("forecast: highest chance of a hit")
    )
    risk.set_xlim(0, 105)
    risk.set_xlabel(_("forecast: highest chance of a hit in any round (%)"), color=MUTED)
    risk.spines["top"].set_visible(True)
    handles = ax.get_legend_handles_labels()
    extra = risk.get_legend_handles_labels()
    ax.legend(
        handles[0] + extra[0],
        handles[1] + extra[1],
        frameon=False,
        fontsize=7,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.5 / (0.9 + 0.32 * len(rows))),
        ncols=4,
    )
    return _svg(fig)


def damage_side_by_side(team: dict, bot: dict | None) -> str:
    """Damage by type: the team, and the policy bot on the same storm and deck."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.2, 1.9))
    kinds = [
        ("infrastructure", _("infrastructure")),
        ("population", _("people not yet evacuated")),
        ("roads", _("roads")),
    ]
    ys = range(len(kinds))
    ax.barh(
        [y - 0.2 for y in ys],
        [team["damage_by_type"][k] for k, _ in kinds],
        height=0.38,
        color=BRAND,
        label=_("your team (total %(total)s)") % {"total": team["damage_total"]},
    )
    if bot:
        ax.barh(
            [y + 0.2 for y in ys],
            [bot["damage_by_type"][k] for k, _ in kinds],
            height=0.38,
            color=ACCENT,
            label=_("policy bot, same storm (total %(total)s)") % {"total": bot["damage_total"]},
        )
    ax.set_yticks(list(ys), [label for _, label in kinds])
    ax.invert_yaxis()
    ax.set_xlabel(_("damage (lower is better)"))
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.legend(frameon=False, fontsize=8, loc="lower right", bbox_to_anchor=(1, 1), ncols=2)
    return _svg(fig)


def class_damage(rows: list[dict]) -> str:
    """Every team's damage by type (stacked), with the policy bot's total on the same storm."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.2, 1 + 0.34 * max(1, len(rows))))
    ys = list(range(len(rows)))
    left = [0] * len(rows)
    for key, colour, label in (
        ("infrastructure", BRAND, _("infrastructure")),
        ("population", BAD, _("people not yet evacuated")),
        ("roads", ACCENT, _("roads")),
    ):
        values = [r[key] for r in rows]
        ax.barh(ys, values, left=left, height=0.55, color=colour, label=label)
        left = [a + b for a, b in zip(left, values)]
    bots = [(y, r["bot_total"]) for y, r in zip(ys, rows) if r["bot_total"] is not None]
    if bots:
        ax.plot(
            [b for _, b in bots],
            [y for y, _ in bots],
            "|",
            color=INK,
            ms=14,
            mew=2,
            label=_("policy bot on the same storm"),
        )
    ax.set_yticks(ys, [_("Table %(n)s") % {"n": r["table"]} for r in rows])
    ax.invert_yaxis()
    ax.set_xlabel(_("damage (lower is better)"))
    ax.legend(frameon=False, fontsize=7, loc="lower right", bbox_to_anchor=(1, 1), ncols=4)
    return _svg(fig)
