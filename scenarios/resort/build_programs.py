"""Build the hurricane program cards (``content/programs.json``) from NOAA's best tracks.

    python -m scenarios.resort.build_programs [--check]

Reads the HURDAT2 best-track text (``$STORMWISE_HURDAT2``, default
``/work/shared/data/hurdat2_notable.txt``; NOAA NHC, public domain; the data file itself is not in
the repository) and writes, for every storm in it, the program card the board game reads out:
the 6-hourly fixes inside the sea board, sampled evenly to at most ``MAX_LINES`` lines, each with
latitude and longitude rounded to the board's even-degree grid, the wind in knots and the
Saffir-Simpson category, plus the storm's whole real track for the debrief. ``--check`` exits 1
if the committed file differs from what the data gives. Pure Python, no Django.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

DEFAULT_SOURCE = "/work/shared/data/hurdat2_notable.txt"
OUT = Path(__file__).parent / "content" / "programs.json"
BOARD = json.loads((Path(__file__).parent / "content" / "board.json").read_text(encoding="utf-8"))["sea"]
MAX_LINES = 10
MIN_LINES = 4
#: Saffir-Simpson lower bounds in knots (NHC; fact "saffir-simpson"): 64, 83, 96, 113, 137
CATEGORY_KT = (64, 83, 96, 113, 137)


def category(wind_kt: int) -> int:
    """0 below hurricane force, else the Saffir-Simpson category 1-5."""
    return sum(1 for floor in CATEGORY_KT if wind_kt >= floor)


def grid(value: float) -> int:
    """A coordinate on the board's grid of even degrees (half-way rounds away from zero)."""
    return int(2 * int(abs(value) / 2 + 0.5)) * (1 if value >= 0 else -1)


def parse(text: str) -> list[dict]:
    """HURDAT2 text -> storms with their fixes (lat N positive, lon W positive)."""
    storms, current = [], None
    for raw in text.splitlines():
        cells = [c.strip() for c in raw.split(",")]
        if not raw.strip():
            continue
        if raw.startswith("AL") or raw.startswith("EP") or raw.startswith("CP"):
            current = {"id": cells[0], "name": cells[1].title(), "year": int(cells[0][4:8]), "fixes": []}
            storms.append(current)
            continue
        lat = float(cells[4][:-1]) * (1 if cells[4].endswith("N") else -1)
        lon = float(cells[5][:-1]) * (1 if cells[5].endswith("W") else -1)
        current["fixes"].append({"date": cells[0], "time": cells[1], "record": cells[2], "status": cells[3],
                                 "lat": lat, "lon": lon, "wind": int(cells[6])})
    return storms


def on_board(lat: int, lon: int) -> bool:
    return BOARD["lat_min"] <= lat <= BOARD["lat_max"] and BOARD["lon_min"] <= lon <= BOARD["lon_max"]


def sample(items: list, most: int) -> list:
    """At most ``most`` items spread evenly from first to last."""
    if len(items) <= most:
        return list(items)
    return [items[round(i * (len(items) - 1) / (most - 1))] for i in range(most)]


def program(storm: dict) -> dict | None:
    synoptic = [f for f in storm["fixes"] if f["time"] in ("0000", "0600", "1200", "1800")]
    inside = [f for f in synoptic if on_board(grid(f["lat"]), grid(f["lon"]))]
    lines = []
    for fix in sample(inside, MAX_LINES):
        lines.append({"lat": grid(fix["lat"]), "lon": grid(fix["lon"]), "wind": fix["wind"],
                      "category": category(fix["wind"]), "when": f"{fix['date']} {fix['time']}Z"})
    if len(lines) < MIN_LINES or max(line["category"] for line in lines) == 0:
        return None
    peak = max(storm["fixes"], key=lambda f: f["wind"])
    return {"key": f"{storm['name'].lower()}-{storm['year']}", "id": storm["id"], "name": storm["name"], "year": storm["year"],
            "peak_wind": peak["wind"], "peak_category": category(peak["wind"]), "lines": lines,
            "track": [[round(f["lat"], 1), round(f["lon"], 1), f["wind"]] for f in synoptic]}


def build(source: str) -> dict:
    storms = parse(Path(source).read_text(encoding="utf-8"))
    programs = [p for p in (program(s) for s in storms) if p]
    return {
        "provenance": ("NOAA National Hurricane Center, HURDAT2 Atlantic best-track data (public domain), "
                       "https://www.nhc.noaa.gov/data/#hurdat; built by scenarios/resort/build_programs.py "
                       f"from {Path(source).name}: 6-hourly fixes inside the board, at most {MAX_LINES} "
                       "a storm, positions rounded to even degrees, wind in knots, category by the "
                       "Saffir-Simpson scale"),
        "programs": programs,
    }


def dumps(data: dict) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    source = os.environ.get("STORMWISE_HURDAT2", DEFAULT_SOURCE)
    text = dumps(build(source))
    if "--check" in argv:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("programs.json is up to date" if same else "programs.json differs from the data: rebuild it")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(json.loads(text)['programs'])} programs)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
