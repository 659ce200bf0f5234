"""The debrief's chart: the storm's whole real track beside the program lines the game read out,
on the sea board's grid, as an SVG string (no Django, no plotting library)."""

from __future__ import annotations

from html import escape

from scenarios.words import gettext as _

from .rules import LATS, LONS, RESORTS, SEA

C = 22
PAD = 40
CAT = {0: "#9fb4c2", 1: "#f2c14e", 2: "#f29e4c", 3: "#e8702a", 4: "#d1495b", 5: "#8e3b9c"}


def _xy(lat, lon):
    """Any position (not only grid points) in chart units; west longitudes positive."""
    x = PAD + (LONS[0] - lon) / 2 * C + C / 2
    y = (LATS[0] - lat) / 2 * C + C / 2
    return round(x, 1), round(y, 1)


def track_map(program: dict, read: int, labels: dict) -> str:
    """The board, the real track (grey line, clipped to the board) and the lines read (dots)."""
    width, height = PAD + len(LONS) * C, len(LATS) * C + 24
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" font-family="sans-serif" font-size="9">'
    ]
    for row in SEA["rows"]:
        for lon, cell in zip(LONS, row["land"]):
            x, y = _xy(row["lat"], lon)
            fill = "#cfe3b8" if cell == "#" else "#b9dcef"
            out.append(
                f'<rect x="{x - C / 2}" y="{y - C / 2}" width="{C}" height="{C}" fill="{fill}" stroke="#fff" stroke-width=".5"/>'
            )
        x, y = _xy(row["lat"], LONS[0])
        out.append(
            f'<text x="{PAD - 3}" y="{y + 3}" text-anchor="end">{escape(_("%(lat)s°N") % {"lat": row["lat"]})}</text>'
        )
    for i, lon in enumerate(LONS):
        if i % 3 == 0:
            x, _y = _xy(LATS[0], lon)
            out.append(
                f'<text x="{x}" y="{len(LATS) * C + 14}" text-anchor="middle">{escape(_("%(lon)s°W") % {"lon": lon})}</text>'
            )
    for r in RESORTS.values():
        x, y = _xy(r["lat"], r["lon"])
        out.append(f'<circle cx="{x}" cy="{y}" r="4" fill="#fff" stroke="#13232f"/>')
    lat_lo, lat_hi = LATS[-1] - 1, LATS[0] + 1
    lon_lo, lon_hi = LONS[-1] - 1, LONS[0] + 1
    inside = [(la, lo) for la, lo, _wind in program["track"] if lat_lo <= la <= lat_hi and lon_lo <= lo <= lon_hi]
    if len(inside) > 1:
        pts = " ".join(f"{x},{y}" for x, y in (_xy(la, lo) for la, lo in inside))
        out.append(f'<polyline points="{pts}" fill="none" stroke="#3b2a5c" stroke-width="2" stroke-dasharray="4 3"/>')
    for i, line in enumerate(program["lines"][:read]):
        x, y = _xy(line["lat"], line["lon"])
        out.append(
            f'<circle cx="{x}" cy="{y}" r="7" fill="{CAT[line["category"]]}" stroke="#13232f"/>'
            f'<text x="{x}" y="{y + 3}" text-anchor="middle" font-weight="bold">{i + 1}</text>'
        )
    out.append(f'<text x="{PAD}" y="{height - 1}">{escape(labels["legend"])}</text>')
    out.append("</svg>")
    return "".join(out)
