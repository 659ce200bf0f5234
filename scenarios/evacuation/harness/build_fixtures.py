"""Build board + seat views from the real evacuation engine for the renderer harness.

Run from anywhere: ``python3 scenarios/evacuation/harness/build_fixtures.py``; writes
``fixtures.json`` beside this file (git-ignored; shoot.sh rebuilds it).
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from scenarios.base import play_out  # noqa: E402
from scenarios.evacuation import ENGINE, bots, rules  # noqa: E402


def play(state, seat, *actions):
    for action in actions:
        rules.apply(state, seat, action)


def message(state, seat, version, status="playing", bot=None, timer=None):
    view = rules.view(state, seat)
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
        "results": view.get("results"),
    }


def main():
    out = {"board": rules.board(), "scenarios": {}}
    wait = {"type": "wait"}

    start = rules.new_state(7, 4)
    out["scenarios"]["start"] = message(start, 0, 1, timer="2030-01-01T00:00:00Z")

    mid = rules.new_state(7, 4)
    play(
        mid,
        0,
        *[wait] * 15,
        {"type": "set_destination", "destination": "hotel"},
        {"type": "reason", "about": "destination", "choice": "safe"},
    )
    rules.force(mid, 0, dice=[5], cards=["C03"])
    # Leaves home through Coast Road (a chance node): Gridlock stops the car; "why?" is pending.
    play(mid, 0, {"type": "drive", "to": "N11"})
    play(mid, 1, *[wait] * 4)
    out["scenarios"]["mid"] = message(mid, 0, 23)

    gas = rules.new_state(11, 3)
    rules.force(gas, 0, dice=[9] * 10)
    play(
        gas,
        0,
        {"type": "drive", "to": "BK"},
        {"type": "reason", "about": "leave", "choice": "ready"},
        {"type": "withdraw", "amount": 1000},
        {"type": "drive", "to": "GS"},
    )
    out["scenarios"]["gas"] = message(gas, 0, 9, bot={"policy": "cautious"})

    late = rules.new_state(5, 4)
    play(late, 0, *[wait] * 44)
    rules.force(late, 0, dice=[9] * 10)
    play(late, 0, {"type": "drive", "to": "N3"}, {"type": "reason", "about": "leave", "choice": "warning"})
    out["scenarios"]["late"] = message(late, 0, 60, status="paused")

    done = rules.new_state(3, 4)
    play_out(ENGINE, done, lambda state, seat: bots.BOTS["cautious" if seat else "last_minute"](state, seat))
    out["scenarios"]["finished"] = message(done, 0, 400, status="finished")
    out["teacher"] = {"mid": rules.view(mid, None), "finished": rules.view(done, None)}

    path = Path(__file__).with_name("fixtures.json")
    path.write_text(json.dumps(out, indent=1))
    print(f"wrote {path} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
