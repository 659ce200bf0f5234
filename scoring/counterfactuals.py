"""Counterfactuals as paired re-runs from the decision point (pure: engines only, no Django).

How a future is resampled
-------------------------
The evacuation engine draws every die, chance card and damage roll from counter-based streams
keyed by ``state["seed"]`` (``base.draw(seed, purpose, seat, n)``), with the counters held in
each seat's part of the state. To resample what happens *after* the decision point we copy the
state at that point and replace ``state["seed"]`` with ``draw(seed, "counterfactual", seat, k)``
for future ``k``: everything drawn before the decision point is already in the state and stays
as it was; everything after it comes from the new stream. Future ``k`` uses the same new seed on
both branches, so the two branches of a pair meet the same luck (paired comparison).

What is held fixed
------------------
* The household's other choices: both branches are played by the same policy bot
  (``bots.make_policy``) configured from what the student actually did (bank cash taken, shutters,
  friends, destination); only the decision under study differs between the branches.
* The other seats: they are set to what they actually did by the end of the lesson - their final
  seat state, and every change they made to the state of the system (bridges, contraflow, prices)
  stamped at the game hour they made it, which the engine applies to each seat from that hour of
  its own clock. The studied seat's own later system changes are dropped and re-made by its branch.

Reported per household, as the household's outcome in each branch: arrived before the winds,
hour of arrival, cash at the end, home damage. Never as "a bot did better than you".
"""
from __future__ import annotations

import json
from bisect import bisect_right

from games.engines.base import draw
from games.engines.evacuation import bots, rules

FUTURES = 100
MAX_STEPS = 400


def _copy(state):
    return json.loads(json.dumps(state))


def replay(seed: int, seats: int, options: dict, moves: list[dict]):
    """Yield (move, state before it) for every move of the log, replaying from ``setup``."""
    state = rules.new_state(seed, seats, options)
    for move in moves:
        yield move, state
        rules.apply(state, move["seat"], move["action"])


def decision_point(table: dict, seat: int) -> dict | None:
    """The state just before the seat's first move at home (where leaving was first possible),
    and the hour it actually left (None if it never left)."""
    point = None
    for move, state in replay(table["seed"], len(table["state"]["seats"]), table["options"], table["moves"]):
        if move["seat"] != seat or move["action"].get("type") == "reason":
            continue
        s = state["seats"][seat]
        if point is None and s["pos"] == rules.HOME and not s["left_home"] and s["status"] == "playing":
            point = _copy(state)
            break
    if point is None:
        return None
    return {"state": point, "clock": point["seats"][seat]["clock"]}


def hold_others(point: dict, final: dict, seat: int) -> dict:
    """The decision-point state with every other seat set to what it actually did."""
    base = _copy(point)
    known = {change[1] for change in base["changes"]}
    for change in final["changes"]:
        if change[1] not in known and change[5] != seat:
            minutes = [c[0] for c in base["changes"]]
            base["changes"].insert(bisect_right(minutes, change[0]), list(change))
    base["change_seq"] = max(final["change_seq"], base["change_seq"])
    for other, s in enumerate(final["seats"]):
        if other != seat:
            held = _copy(s)
            if held["status"] == "playing":
                held["status"] = "stopped"
            base["seats"][other] = held
    base["ended"] = base["done"] = False
    return base


def household_policy(story: dict, *, leave_minute: int, home: bool | None = None):
    """The policy bot set up from the household's own choices (one decision may be overridden)."""
    first = story.get("chosen_destination") or story.get("destination") or "relative"
    order = (first,) + tuple(d for d in ("relative", "hotel", "shelter") if d != first)
    bank = min(rules.MONEY["bank_total"], story.get("withdrawn") or 0)
    return bots.make_policy("counterfactual", bank=bank - bank % rules.MONEY["bank_step"],
                            home=story["secured"] if home is None else home, friends=story["friends"],
                            fuel=True, supplies=True, leave_minute=leave_minute, destinations=order)


def play_future(base: dict, seat: int, policy, k: int) -> dict:
    """Play the seat to the end with ``policy`` on future ``k``; its outcome."""
    state = _copy(base)
    state["seed"] = draw(base["seed"], "counterfactual", seat, k) >> 1
    s = state["seats"][seat]
    for _ in range(MAX_STEPS):
        if s["status"] != "playing" and not s["prompt"]:
            break
        rules.apply(state, seat, policy(state, seat))
    if not state["done"]:
        rules._finish(state, [])
    row = next(r for r in rules.results(state) if r["seat"] == seat)
    return {"arrived": s["status"] == "arrived", "arrived_hour": row["breakdown"]["safety"]["arrived_hour"],
            "cash": row["breakdown"]["cash"]["total"], "damage": row["breakdown"]["cash"]["home_damage"],
            "score": row["score"], "outcome": row["breakdown"]["safety"]["outcome"]}


def _summary(outcomes):
    n = len(outcomes)
    arrived = [o for o in outcomes if o["arrived"]]
    return {"futures": n, "arrived": len(arrived),
            "mean_arrival_hour": round(sum(o["arrived_hour"] for o in arrived) / len(arrived), 1) if arrived else None,
            "mean_cash": round(sum(o["cash"] for o in outcomes) / n) if n else 0,
            "mean_damage": round(sum(o["damage"] for o in outcomes) / n) if n else 0}


def compare(base, seat, policy_a, policy_b, futures, a=None):
    """Paired futures: the same resampled luck on both branches (``a``: branch A already played)."""
    a = a if a is not None else [play_future(base, seat, policy_a, k) for k in range(futures)]
    b = [play_future(base, seat, policy_b, k) for k in range(futures)]
    both = sum(1 for x, y in zip(a, b) if x["arrived"] and y["arrived"])
    return {"actual": _summary(a), "alternative": _summary(b), "both_arrived": both}


def for_household(table: dict, story: dict, futures: int = FUTURES) -> list[dict]:
    """The counterfactuals for one household: when it left (or that it stayed), and its shutters."""
    seat = story["seat"]
    point = decision_point(table, seat)
    if point is None:
        return []
    base = hold_others(point["state"], table["state"], seat)
    clock = point["clock"]
    out = []
    actual_leave = story["left_minute"]
    if story["stayed"] or actual_leave is None:
        alt = clock
        stay_outcomes = {"futures": futures, "arrived": 0, "mean_arrival_hour": None,
                         "mean_cash": None, "mean_damage": None}
        result = {"actual": stay_outcomes,
                  "alternative": _summary([play_future(base, seat, household_policy(story, leave_minute=alt), k)
                                           for k in range(futures)])}
        out.append({"decision": "leave", "actual_hour": None, "alternative_hour": round(alt / 60, 1), **result,
                    "sentence": _leave_sentence(None, alt, result)})
    else:
        if actual_leave - clock >= 180:
            alt = clock
        else:
            alt = min(actual_leave + 12 * 60, 40 * 60)
        # Both decisions share the "as played" branch: same policy, same futures.
        as_played = [play_future(base, seat, household_policy(story, leave_minute=actual_leave), k)
                     for k in range(futures)]
        result = compare(base, seat, None, household_policy(story, leave_minute=alt), futures, as_played)
        out.append({"decision": "leave", "actual_hour": round(actual_leave / 60, 1),
                    "alternative_hour": round(alt / 60, 1), **result,
                    "sentence": _leave_sentence(actual_leave, alt, result)})
        result = compare(base, seat, None,
                         household_policy(story, leave_minute=actual_leave, home=not story["secured"]),
                         futures, as_played)
        out.append({"decision": "secure_home", "actual": result["actual"], "alternative": result["alternative"],
                    "secured": story["secured"], "both_arrived": result["both_arrived"],
                    "sentence": _home_sentence(story["secured"], result)})
    return out


def _leave_sentence(actual, alt, result):
    a, b = result["actual"], result["alternative"]
    n = b["futures"]
    if actual is None:
        return (f"Had your household left at hour {alt / 60:.0f} instead of staying home, it would have "
                f"reached safety before the tropical-storm winds in {b['arrived']} of {n} futures.")
    verb = "earlier" if alt < actual else "later"
    line = (f"Had you left at hour {alt / 60:.0f} instead of hour {actual / 60:.0f}, your household would have "
            f"arrived before the winds in {b['arrived']} of {n} futures, against {a['arrived']} of {n} "
            f"leaving at hour {actual / 60:.0f}")
    if a["mean_arrival_hour"] is not None and b["mean_arrival_hour"] is not None:
        line += f" (on average arriving at hour {b['mean_arrival_hour']:.0f} rather than {a['mean_arrival_hour']:.0f})"
    return line + f"; leaving {verb} is the only thing that changed."


def _home_sentence(secured, result):
    a, b = result["actual"], result["alternative"]
    n = a["futures"]
    if secured:
        return (f"Putting up shutters cost time: without them your household would have arrived in time in "
                f"{b['arrived']} of {n} futures (with them: {a['arrived']}), and the home would have taken on "
                f"average ${b['mean_damage']:,} of damage instead of ${a['mean_damage']:,}.")
    return (f"Had you secured your home before leaving, the house would have taken on average "
            f"${b['mean_damage']:,} of damage instead of ${a['mean_damage']:,}, and your household would have "
            f"arrived in time in {b['arrived']} of {n} futures (as you played: {a['arrived']}).")
