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

How many futures
----------------
Each branch first plays futures 0-39. If every comparison of the household is already clear -
in each branch every future ended the same way (all arrived before the winds, or none did) and
the paired damage gap is nil or at least four standard errors from zero - more futures could not
change what the sentence says, and the household's report states "of 40". Otherwise every
branch goes on to futures 40-99 and the report states "of 100". In the 32-household benchmark
class 19 households stop at 40 and 13 play all 100.

Reported per household, as the household's outcome in each branch: arrived before the winds,
hour of arrival, cash at the end, home damage. Never as "a bot did better than you".
"""

from __future__ import annotations

import pickle
from bisect import bisect_right

from scenarios.base import draw
from scenarios.evacuation import bots, rules
from scenarios.evacuation.moves import _finish
from scenarios.words import gettext as _
from scenarios.words import money

FUTURES = 100
#: futures played first; the rest only if a comparison is not yet clear (``_paired_clear``)
FIRST_FUTURES = 40
MAX_STEPS = 400


def _copy(state):
    # pickle copies these plain JSON-like dicts about twice as fast as a JSON round trip
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


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
    # the rules edition the game was played under: a state stored before the half-tank points
    # (rules edition 1) has no such option and replays without them
    options = {**table["options"], "half_tank": table["state"]["options"].get("half_tank", "off")}
    for move, state in replay(table["seed"], len(table["state"]["seats"]), options, table["moves"]):
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
    return bots.make_policy(
        "counterfactual",
        bank=bank - bank % rules.MONEY["bank_step"],
        home=story["secured"] if home is None else home,
        friends=story["friends"],
        fuel=True,
        supplies=True,
        leave_minute=leave_minute,
        destinations=order,
    )


def play_future(base: dict, seat: int, policy, k: int) -> dict:
    """Play the seat to the end with ``policy`` on future ``k``; its outcome."""
    state = _copy(base)
    state["seed"] = draw(base["seed"], "counterfactual", seat, k) >> 1
    s = state["seats"][seat]
    for _step in range(MAX_STEPS):
        if s["status"] != "playing" and not s["prompt"]:
            break
        rules.apply(state, seat, policy(state, seat))
    if not state["done"]:
        _finish(state, [])
    row = next(r for r in rules.results(state) if r["seat"] == seat)
    return {
        "arrived": s["status"] == "arrived",
        "arrived_hour": row["breakdown"]["safety"]["arrived_hour"],
        "cash": row["breakdown"]["cash"]["total"],
        "damage": row["breakdown"]["cash"]["home_damage"],
        "score": row["score"],
        "outcome": row["breakdown"]["safety"]["outcome"],
    }


def _summary(outcomes):
    n = len(outcomes)
    arrived = [o for o in outcomes if o["arrived"]]
    return {
        "futures": n,
        "arrived": len(arrived),
        "mean_arrival_hour": round(sum(o["arrived_hour"] for o in arrived) / len(arrived), 1) if arrived else None,
        "mean_cash": round(sum(o["cash"] for o in outcomes) / n) if n else 0,
        "mean_damage": round(sum(o["damage"] for o in outcomes) / n) if n else 0,
    }


def compare(base, seat, policy_a, policy_b, futures, a=None, b=None):
    """Paired futures: the same resampled luck on both branches (``a``, ``b``: already played)."""
    a = a if a is not None else [play_future(base, seat, policy_a, k) for k in range(futures)]
    b = b if b is not None else [play_future(base, seat, policy_b, k) for k in range(futures)]
    both = sum(1 for x, y in zip(a, b) if x["arrived"] and y["arrived"])
    return {"actual": _summary(a), "alternative": _summary(b), "both_arrived": both}


def _paired_clear(a: list[dict], b: list[dict], damage: bool) -> bool:
    """Whether more futures could still change what the sentence says: every future of each
    branch ended the same way (all arrived, or none), and, if damage is reported, the paired gap
    in damage is either nil or at least four standard errors from zero."""
    for branch in (a, b):
        arrived = sum(1 for o in branch if o["arrived"])
        if 0 < arrived < len(branch):
            return False
    if not damage:
        return True
    gaps = [y["damage"] - x["damage"] for x, y in zip(a, b)]
    n = len(gaps)
    mean = sum(gaps) / n
    spread = (sum((g - mean) ** 2 for g in gaps) / (n - 1)) ** 0.5 if n > 1 else 0.0
    return spread == 0 or abs(mean) >= 4 * spread / n**0.5


def for_household(table: dict, story: dict, futures: int = FUTURES, first: int = FIRST_FUTURES) -> list[dict]:
    """The counterfactuals for one household: when it left (or that it stayed), and its shutters.

    Futures are played in two steps: the first ``first`` of every branch, then - unless every
    comparison is already clear (``_paired_clear``) - the rest up to ``futures``. Every branch
    of a household always uses the same futures 0..n-1, so the pairs stay paired.
    """
    seat = story["seat"]
    point = decision_point(table, seat)
    if point is None:
        return []
    base = hold_others(point["state"], table["state"], seat)
    clock = point["clock"]
    actual_leave = story["left_minute"]
    stayed = story["stayed"] or actual_leave is None
    if stayed:
        alt = clock
        policies = {"leave": household_policy(story, leave_minute=alt)}
    else:
        alt = clock if actual_leave - clock >= 180 else min(actual_leave + 12 * 60, 40 * 60)
        # Both decisions share the "as played" branch: same policy, same futures.
        policies = {
            "as_played": household_policy(story, leave_minute=actual_leave),
            "leave": household_policy(story, leave_minute=alt),
            "secure_home": household_policy(story, leave_minute=actual_leave, home=not story["secured"]),
        }
    runs = {
        name: [play_future(base, seat, policy, k) for k in range(min(first, futures))]
        for name, policy in policies.items()
    }
    if stayed:
        clear = _paired_clear(runs["leave"], runs["leave"], damage=False)
    else:
        clear = _paired_clear(runs["as_played"], runs["leave"], damage=False) and _paired_clear(
            runs["as_played"], runs["secure_home"], damage=True
        )
    if not clear:
        for name, policy in policies.items():
            runs[name] += [play_future(base, seat, policy, k) for k in range(len(runs[name]), futures)]
    out = []
    if stayed:
        n = len(runs["leave"])
        stay_outcomes = {"futures": n, "arrived": 0, "mean_arrival_hour": None, "mean_cash": None, "mean_damage": None}
        result = {"actual": stay_outcomes, "alternative": _summary(runs["leave"])}
        out.append(
            {
                "decision": "leave",
                "actual_hour": None,
                "alternative_hour": round(alt / 60, 1),
                **result,
                "sentence": _leave_sentence(None, alt, result),
            }
        )
        return out
    result = compare(base, seat, None, None, 0, runs["as_played"], runs["leave"])
    out.append(
        {
            "decision": "leave",
            "actual_hour": round(actual_leave / 60, 1),
            "alternative_hour": round(alt / 60, 1),
            **result,
            "sentence": _leave_sentence(actual_leave, alt, result),
        }
    )
    result = compare(base, seat, None, None, 0, runs["as_played"], runs["secure_home"])
    out.append(
        {
            "decision": "secure_home",
            "actual": result["actual"],
            "alternative": result["alternative"],
            "secured": story["secured"],
            "both_arrived": result["both_arrived"],
            "sentence": _home_sentence(story["secured"], result),
        }
    )
    return out


def for_class(reports: list[dict]) -> dict | None:
    """The class's what-if replays for the projector: every household's re-runs as its report
    stored them (``for_household``), summed over the class. Rows: households that could have
    left earlier, later, and those whose home could have been secured (or not): each the share of
    their futures that arrived before the winds as played and with the one change, and the home's
    average damage. None before any report with replays is written."""
    items = [item for data in reports for item in data.get("counterfactuals") or ()]
    if not items:
        return None

    def share(rows, side):
        futures = sum(r[side]["futures"] for r in rows)
        return round(100 * sum(r[side]["arrived"] for r in rows) / futures) if futures else 0

    def damage(rows, side):
        known = [r[side]["mean_damage"] for r in rows if r[side].get("mean_damage") is not None]
        return money(sum(known) / len(known)) if known else "—"

    def row(key, rows):
        return {
            "key": key,
            "households": len(rows),
            "as_played": share(rows, "actual"),
            "changed": share(rows, "alternative"),
            "damage_as_played": damage(rows, "actual"),
            "damage_changed": damage(rows, "alternative"),
        }

    leave = [i for i in items if i["decision"] == "leave"]
    earlier = [i for i in leave if i["actual_hour"] is None or i["alternative_hour"] < i["actual_hour"]]
    later = [i for i in leave if i not in earlier]
    home = [i for i in items if i["decision"] == "secure_home"]
    rows = [
        row(key, group)
        for key, group in (
            ("earlier", earlier),
            ("later", later),
            ("secure", [i for i in home if not i["secured"]]),
            ("unsecure", [i for i in home if i["secured"]]),
        )
        if group
    ]
    return {"households": sum(1 for data in reports if data.get("counterfactuals")), "rows": rows}


def _leave_sentence(actual, alt, result):
    a, b = result["actual"], result["alternative"]
    n = b["futures"]
    if actual is None:
        return _(
            "Had your household left at hour %(alt)s instead of staying home, it would have reached "
            "safety before the tropical-storm winds in %(arrived)s of %(n)s futures."
        ) % {"alt": f"{alt / 60:.0f}", "arrived": b["arrived"], "n": n}
    at = {
        "alt": f"{alt / 60:.0f}",
        "actual": f"{actual / 60:.0f}",
        "arrived": b["arrived"],
        "as_played": a["arrived"],
        "n": n,
    }
    if a["mean_arrival_hour"] is not None and b["mean_arrival_hour"] is not None:
        at.update(then=f"{b['mean_arrival_hour']:.0f}", now=f"{a['mean_arrival_hour']:.0f}")
        if alt < actual:
            return (
                _(
                    "Had you left at hour %(alt)s instead of hour %(actual)s, your household would have arrived "
                    "before the winds in %(arrived)s of %(n)s futures, against %(as_played)s of %(n)s leaving at "
                    "hour %(actual)s (on average arriving at hour %(then)s rather than %(now)s); leaving earlier "
                    "is the only thing that changed."
                )
                % at
            )
        return (
            _(
                "Had you left at hour %(alt)s instead of hour %(actual)s, your household would have arrived "
                "before the winds in %(arrived)s of %(n)s futures, against %(as_played)s of %(n)s leaving at "
                "hour %(actual)s (on average arriving at hour %(then)s rather than %(now)s); leaving later "
                "is the only thing that changed."
            )
            % at
        )
    if alt < actual:
        return (
            _(
                "Had you left at hour %(alt)s instead of hour %(actual)s, your household would have arrived "
                "before the winds in %(arrived)s of %(n)s futures, against %(as_played)s of %(n)s leaving at "
                "hour %(actual)s; leaving earlier is the only thing that changed."
            )
            % at
        )
    return (
        _(
            "Had you left at hour %(alt)s instead of hour %(actual)s, your household would have arrived "
            "before the winds in %(arrived)s of %(n)s futures, against %(as_played)s of %(n)s leaving at "
            "hour %(actual)s; leaving later is the only thing that changed."
        )
        % at
    )


def _home_sentence(secured, result):
    a, b = result["actual"], result["alternative"]
    at = {
        "n": a["futures"],
        "arrived": b["arrived"],
        "as_played": a["arrived"],
        "damage": money(b["mean_damage"]),
        "damage_as_played": money(a["mean_damage"]),
    }
    if secured:
        return (
            _(
                "Putting up shutters cost time: without them your household would have arrived in time in "
                "%(arrived)s of %(n)s futures (with them: %(as_played)s), and the home would have taken on "
                "average %(damage)s of damage instead of %(damage_as_played)s."
            )
            % at
        )
    return (
        _(
            "Had you secured your home before leaving, the house would have taken on average "
            "%(damage)s of damage instead of %(damage_as_played)s, and your household would have "
            "arrived in time in %(arrived)s of %(n)s futures (as you played: %(as_played)s)."
        )
        % at
    )
