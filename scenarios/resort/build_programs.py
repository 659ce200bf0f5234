"""Build the hurricane program cards (``content/programs.json``) from NOAA's best tracks.

    python -m scenarios.resort.build_programs [HURDAT2-FILE] [--check]

Reads a HURDAT2 best-track text file (NOAA NHC, public domain; the file named on the command line,
else ``$STORMWISE_HURDAT2``, else the 26-storm extract the repository carries in
``content/hurdat2/``, whose README says where it comes from) and writes, for
every storm in it, the program card the board game reads out: fixes inside the sea board, at most
``MAX_LINES`` lines, each with latitude and longitude rounded to the board's even-degree grid, the
wind in knots and the Saffir-Simpson category, plus the storm's whole real track for the debrief.

Two editions of the cards: edition 1 (``programs.json``, kept for games stored under it) samples
the 6-hourly fixes evenly; edition 2 (``programs_2.json``) first keeps the storm's peak on the
board and its landfalls (HURDAT2 ``L`` records), then fills the other lines evenly, so no card
shows a storm weaker than it was. ``--check`` exits 1 if a committed file differs from what the
data gives. Pure Python, no Django.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ENV = "STORMWISE_HURDAT2"
CONTENT = Path(__file__).parent / "content"
EXTRACT = CONTENT / "hurdat2" / "hurdat2_notable.txt"
OUT = {1: CONTENT / "programs.json", 2: CONTENT / "programs_2.json"}
EDITIONS = (1, 2)
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
        current["fixes"].append(
            {
                "date": cells[0],
                "time": cells[1],
                "record": cells[2],
                "status": cells[3],
                "lat": lat,
                "lon": lon,
                "wind": int(cells[6]),
            }
        )
    return storms


def on_board(lat: int, lon: int) -> bool:
    return BOARD["lat_min"] <= lat <= BOARD["lat_max"] and BOARD["lon_min"] <= lon <= BOARD["lon_max"]


def sample(items: list, most: int) -> list:
    """At most ``most`` items spread evenly from first to last."""
    if len(items) <= most:
        return list(items)
    return [items[round(i * (len(items) - 1) / (most - 1))] for i in range(most)]


def inside(fix: dict) -> bool:
    return on_board(grid(fix["lat"]), grid(fix["lon"]))


def keep_key_fixes(storm: dict, synoptic: list, most: int) -> list:
    """Edition 2: the strongest fix on the board and every landfall on it (strongest first, as
    many as fit), then the other 6-hourly fixes on the board spread evenly, in time order."""
    fixes = storm["fixes"]
    on = [f for f in fixes if inside(f)]
    peak = max(on, key=lambda f: f["wind"], default=None)
    landfalls = sorted((f for f in on if f["record"] == "L"), key=lambda f: -f["wind"])
    key = []
    for fix in ([peak] if peak else []) + landfalls:
        if fix not in key and len(key) < most:
            key.append(fix)
    rest = [f for f in synoptic if inside(f) and f not in key]
    chosen = key + sample(rest, most - len(key)) if most > len(key) else key
    return sorted(chosen, key=lambda f: (f["date"], f["time"]))


def program(storm: dict, edition: int = 2) -> dict | None:
    synoptic = [f for f in storm["fixes"] if f["time"] in ("0000", "0600", "1200", "1800")]
    if edition == 1:
        chosen = sample([f for f in synoptic if inside(f)], MAX_LINES)
    else:
        chosen = keep_key_fixes(storm, synoptic, MAX_LINES)
    lines = []
    for fix in chosen:
        lines.append(
            {
                "lat": grid(fix["lat"]),
                "lon": grid(fix["lon"]),
                "wind": fix["wind"],
                "category": category(fix["wind"]),
                "when": f"{fix['date']} {fix['time']}Z",
            }
        )
    if len(lines) < MIN_LINES or max(line["category"] for line in lines) == 0:
        return None
    peak = max(storm["fixes"], key=lambda f: f["wind"])
    return {
        "key": f"{storm['name'].lower()}-{storm['year']}",
        "id": storm["id"],
        "name": storm["name"],
        "year": storm["year"],
        "peak_wind": peak["wind"],
        "peak_category": category(peak["wind"]),
        "lines": lines,
        "track": [[round(f["lat"], 1), round(f["lon"], 1), f["wind"]] for f in synoptic],
    }


def build(source: str, edition: int = 2) -> dict:
    storms = parse(Path(source).read_text(encoding="utf-8"))
    programs = [p for p in (program(s, edition) for s in storms) if p]
    chosen = (
        "6-hourly fixes inside the board"
        if edition == 1
        else "the storm's peak and its landfalls on the board, then 6-hourly fixes inside it"
    )
    return {
        "provenance": (
            "NOAA National Hurricane Center, HURDAT2 Atlantic best-track data (public domain), "
            "https://www.nhc.noaa.gov/data/#hurdat; built by scenarios/resort/build_programs.py "
            f"from {Path(source).name}: {chosen}, at most {MAX_LINES} "
            "a storm, positions rounded to even degrees, wind in knots, category by the "
            "Saffir-Simpson scale"
        ),
        "programs": programs,
    }


def dumps(data: dict) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


class MissingData(Exception):
    """No HURDAT2 file was named, or the named one is not there."""


def source_file(argv: list[str]) -> Path:
    """The HURDAT2 file: the first argument that is not an option, else ``$STORMWISE_HURDAT2``, else
    the repository's own extract."""
    named = next((a for a in argv if not a.startswith("--")), None) or os.environ.get(ENV) or str(EXTRACT)
    hint = (
        "Download NHC's Atlantic best-track file (HURDAT2, hurdat2-1851-YYYY-*.txt) from "
        "https://www.nhc.noaa.gov/data/#hurdat and pass its path: "
        "python -m scenarios.resort.build_programs PATH (or set STORMWISE_HURDAT2=PATH)."
    )
    path = Path(named)
    if not path.is_file():
        raise MissingData(f"HURDAT2 file not found: {path}. " + hint)
    return path


def main(argv: list[str]) -> int:
    try:
        source = source_file(argv)
    except MissingData as missing:
        print(missing, file=sys.stderr)
        return 2
    stale = []
    for edition in EDITIONS:
        text = dumps(build(str(source), edition))
        out = OUT[edition]
        if "--check" in argv:
            if not (out.exists() and out.read_text(encoding="utf-8") == text):
                stale.append(out.name)
            continue
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out.name} ({len(json.loads(text)['programs'])} programs)")
    if "--check" in argv:
        print("the programs are up to date" if not stale else f"{', '.join(stale)} differ from the data: rebuild them")
        return 1 if stale else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
