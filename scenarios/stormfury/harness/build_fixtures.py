"""Build board + seat views from the real Stormfury engine for the renderer harness.

Run from anywhere: ``python3 scenarios/stormfury/harness/build_fixtures.py``; writes
``fixtures.json`` beside this file (shoot.sh rebuilds it).
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from scenarios.base import play_out  # noqa: E402
from scenarios.stormfury import ENGINE  # noqa: E402
from scenarios.stormfury.bots import BOTS  # noqa: E402


def message(state, seat, version, status="playing", bot=None, timer=None, results=None):
    view = ENGINE.view(state, seat)
    return {
        "type": "view",
        "game": 1,
        "seat": seat,
        "version": version,
        "status": status,
        "view": view,
        "mark": None,
        "bot": bot,
        "timer": timer,
        "results": results,
    }


def bots_until(state, stop, limit=400):
    """Let the cooperative bot play every seat, one seat's turn after another, until
    ``stop(state)`` is true or no seat may act (a held storm waits for the class)."""
    play_out(
        ENGINE,
        state,
        BOTS["cooperative"],
        first_seat=True,
        max_moves=limit,
        until=lambda state: stop(state) or not ENGINE.to_act(state),
    )


def main():
    out = {"board": ENGINE.board(), "scenarios": {}, "teacher": {}}

    roles = ENGINE.setup(11, 4)
    ENGINE.apply(roles, 1, {"type": "pick_role", "role": "relief_corps", "city": "baton_rouge"})
    out["scenarios"]["roles"] = message(roles, 0, 2)

    # Round 1: seat 0 (Evac Specialist) and seat 1 (Relief Corps) share Mobile; seat 1 offers a trade.
    start = ENGINE.setup(11, 4)
    for seat, role, city in [
        (0, "evac_specialist", "mobile"),
        (1, "relief_corps", "mobile"),
        (2, "architect", "houston"),
        (3, "aquatic_engineer", "new_orleans"),
    ]:
        ENGINE.apply(start, seat, {"type": "pick_role", "role": role, "city": city})
    hand0 = ENGINE.view(start, 0)["hand"]
    give = next(k for k, v in ENGINE.view(start, 1)["hand"].items() if v)
    get = next(k for k, v in hand0.items() if v and k != give)
    ENGINE.apply(start, 1, {"type": "offer_trade", "to": 0, "give": give, "get": get})
    out["scenarios"]["start"] = message(start, 0, 9, timer="2030-01-01T00:00:00Z")
    out["teacher"]["start"] = ENGINE.view(start, None)

    # A few rounds in: damage, last storm, Relief pile; seat 0 chooses where to draw from.
    mid = ENGINE.setup(5, 4)
    ENGINE.apply(mid, None, {"type": "auto_roles"})
    bots_until(mid, lambda s: s["round"] >= 3 and s["damage"]["total"] > 0)
    rc = next(p["seat"] for p in mid["players"] if p["role"] == "relief_corps")
    if mid["players"][rc]["status"] != "ended" and mid["players"][rc]["to_pile"]:
        k = next(k for k, v in mid["players"][rc]["hand"].items() if v)
        ENGINE.apply(mid, rc, {"type": "use_role", "card": k})
    seat = next((p["seat"] for p in mid["players"] if p["role"] == "evac_specialist"), 0)
    out["scenarios"]["mid"] = message(mid, seat, 77)
    out["teacher"]["mid"] = ENGINE.view(mid, None)

    # Everyone ended; the class-wide storm waits for the other tables (hold_storm).
    hold = ENGINE.setup(5, 3, {"hold_storm": True})
    ENGINE.apply(hold, None, {"type": "auto_roles"})
    bots_until(hold, lambda s: s["phase"] == "storm" and s["round"] >= 2)
    out["scenarios"]["waiting"] = message(hold, 0, 50)

    # Turn ended, team mates still playing; and a bot playing for a seat; and paused.
    ended = ENGINE.setup(8, 3)
    ENGINE.apply(ended, None, {"type": "auto_roles"})
    bots_until(ended, lambda s: s["round"] >= 2 and s["players"][0]["status"] == "ended")
    out["scenarios"]["ended"] = message(ended, 0, 40)
    out["scenarios"]["bot"] = message(ended, 1, 40, bot={"policy": "cooperative"})
    out["scenarios"]["paused"] = message(ended, 2, 40, status="paused")

    done = ENGINE.setup(3, 4)
    ENGINE.apply(done, None, {"type": "auto_roles"})
    bots_until(done, lambda s: False, 2000)
    out["scenarios"]["finished"] = message(done, 0, 400, status="finished", results=ENGINE.results(done))
    out["teacher"]["finished"] = ENGINE.view(done, None)

    path = Path(__file__).with_name("fixtures.json")
    path.write_text(json.dumps(out, indent=1))
    print(f"wrote {path} ({path.stat().st_size // 1024} KB)")
    for name, m in out["scenarios"].items():
        v = m["view"]
        print(
            name,
            v["phase"],
            "round",
            v["round"],
            "status",
            v["players"][m["seat"]]["status"] if v["players"] else None,
            "actions",
            len(v["actions"]),
            "pile",
            v["relief_pile"],
            "last_storm",
            len(v["last_storm"]),
        )


if __name__ == "__main__":
    main()
