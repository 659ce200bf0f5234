"""Stormfury debrief analysis from the move log: pure functions over plain data (no Django).

The input is one dict per table, as ``scoring.selectors.table_records`` builds it (final state,
move log, seat holders). A team's story is read from the events its moves caused:

* what the team spent: ``fortified`` (tokens on a space), ``dammed`` (a road end), ``evacuated``
  (people moved out of a city), each stamped with the round it was played in;
* where the forecast pointed: the ``forecast`` event's cards, turned into each city's chance of a
  hit with the engine's own ``forecast_outlook`` from where the storm stood that round;
* where the storm went and what it did: the storm's history in the final state, and the
  ``held`` / ``destroyed`` / ``people_hit`` / ``road_flooded`` / ``dam_held`` events.

Population damage is "people not yet evacuated", in the game's own words. The policy bot's
result on the same storm and deck (``games.services.policy_results``) is passed in by the caller
and always shown beside the team's, never as a contest.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from scenarios.stormfury import rules as sf
from scenarios.words import gettext as _
from scenarios.words import gettext_noop, ngettext

DAMAGE_TYPES = [
    ("infrastructure", gettext_noop("Infrastructure")),
    ("population", gettext_noop("People not yet evacuated")),
    ("roads", gettext_noop("Roads")),
]
LIKELY = 0.5  # a forecast "likely hit": at least even odds
UNLIKELY = 0.2
#: the knowledge-base facts each part of a team report draws on, best first
TOPIC_FACTS = {
    "forecast": ["forecast-cone", "rapid-intensification", "landfall-decay", "track-errors-shrinking"],
    "held": ["mitigation-pays", "fortified-roofs-sally", "charley-building-code"],
    "infrastructure": ["maria-aftermath", "cat4-damage", "harvey-rain"],
    "people": ["what-kills-1963-2012", "inland-flooding-1970-1999", "clearance-time", "katrina-left-behind"],
    "roads": ["turn-around-dont-drown", "flood-deaths-on-foot-or-driving", "harvey-rain", "floyd-inland-flooding"],
    "evacuate": ["clearance-time", "what-kills-1963-2012", "katrina-left-behind", "shelter-last-resort"],
    "fortify": ["mitigation-pays", "fortified-roofs-sally"],
}


def city_name(cid: str) -> str:
    return sf.CITIES[cid]["name"] if cid in sf.CITIES else cid


def space_name(sid: str) -> str:
    return sf.SPACES[sid]["name"] if sid in sf.SPACES else sid


def road_name(rid: str) -> str:
    return sf.ROADS[rid]["name"] if rid in sf.ROADS else rid


def table_flags(table: dict) -> dict:
    """How a table's game ended: finished by play, by the teacher's bots, or cut short."""
    state, moves = table["state"], table["moves"]
    humans = {seat for seat, holder in table["holders"].items() if holder}
    ended = state.get("ended")
    return {
        "finished": ended in ("dissipated", "turn_cap"),
        "ended_early": ended == "ended_now",
        "unfinished": ended not in ("dissipated", "turn_cap"),
        "bot_finished": any(str(m.get("action_id", "")).startswith("finish:") for m in moves),
        "stand_in_moves": sum(1 for m in moves if m["seat"] in humans and m["actor"] in ("bot", "timer")),
    }


def _bot_team(bot_results: list[dict] | None, stopped_after: int | None = None) -> dict | None:
    """The policy bot's result on the same storm; for a team stopped after ``stopped_after`` storm
    moves, also its damage after as many moves (``damage_at_stop``), the fair comparison."""
    if not bot_results:
        return None
    team = dict(bot_results[0]["breakdown"]["team"])
    if stopped_after is not None:
        track = team.get("score_track") or []
        team["damage_at_stop"] = track[min(stopped_after, len(track)) - 1] if stopped_after and track else 0
        team["stopped_after"] = stopped_after
    spent = Counter()
    for row in bot_results:
        spent.update(row["breakdown"]["contributions"])
    team["spent"] = {k: spent.get(k, 0) for k in ("fortifications", "dams", "evacuated")}
    return team


def team_story(table: dict, bot_results: list[dict] | None = None) -> dict:
    """One team's game: what it spent where, against the forecast and the storm, and the outcome."""
    state = table["state"]
    history = {h["round"]: h for h in state["storm"]["history"]}
    rounds: dict[int, dict] = {}
    actions: list[dict] = []
    humans = {seat for seat, holder in table["holders"].items() if holder}
    current = 0
    caught: Counter = Counter()
    for move in table["moves"]:
        by_bot = move["seat"] not in humans or move["actor"] in ("bot", "timer")
        for event in move["events"]:
            kind = event["type"]
            if kind == "forecast":
                current = event["round"]
                rounds[current] = {
                    "round": current,
                    "cards": list(event["cards"]),
                    "deck": event["deck"],
                    "hit_cities": [],
                    "people_hit": 0,
                    "held": [],
                    "destroyed": [],
                    "flooded": [],
                    "dam_held": [],
                    "spent": [],
                }
            elif kind in ("fortified", "dammed", "evacuated"):
                if kind == "fortified":
                    space = event["space"]
                    row = {
                        "kind": "fortify",
                        "city": sf.SPACES[space]["city"],
                        "space": space,
                        "amount": event["tokens"],
                        "people": sf.SPACES[space]["kind"] == "population",
                        "text": ngettext(
                            "%(n)s fortification on %(place)s", "%(n)s fortifications on %(place)s", event["tokens"]
                        )
                        % {"n": event["tokens"], "place": space_name(space)},
                    }
                elif kind == "dammed":
                    row = {
                        "kind": "dam",
                        "city": event["city"],
                        "road": event["road"],
                        "amount": 1,
                        "sealed": event["sealed"],
                        "text": (
                            _("dam at the %(city)s end of %(road)s (road sealed)")
                            if event["sealed"]
                            else _("dam at the %(city)s end of %(road)s")
                        )
                        % {"city": city_name(event["city"]), "road": road_name(event["road"])},
                    }
                else:
                    row = {
                        "kind": "evacuate",
                        "city": event["city"],
                        "amount": event["people"],
                        "text": _("evacuated %(n)s from %(city)s")
                        % {"n": event["people"], "city": city_name(event["city"])},
                    }
                row.update(round=current, seat=event["seat"], by_bot=by_bot)
                actions.append(row)
                if current in rounds:
                    rounds[current]["spent"].append(row)
            elif current in rounds:
                here = rounds[current]
                if kind in ("held", "destroyed", "people_hit", "spared"):
                    if event["city"] not in here["hit_cities"]:
                        here["hit_cities"].append(event["city"])
                    if kind == "held":
                        here["held"].append(event["space"])
                    elif kind == "destroyed":
                        here["destroyed"].append(event["space"])
                    elif kind == "people_hit":
                        here["people_hit"] += event["damage"]
                        caught[event["city"]] += event["damage"]
                elif kind == "road_flooded":
                    here["flooded"].append(event["road"])
                elif kind == "dam_held":
                    here["dam_held"].append(event["road"])
    for number, here in rounds.items():
        move = history.get(number)
        if move is None:  # the game stopped before this round's storm
            here.update(
                played=False,
                start=None,
                end=None,
                category=None,
                risk={},
                road_risk={},
                likely=[],
                likely_hit=[],
                surprises=[],
                threats=[],
                hit_names=[],
            )
            continue
        outlook = sf.forecast_outlook(
            tuple(move["from"]), move["category"], tuple(here["cards"]), state["options"].get("edition", 1)
        )
        here.update(
            played=True,
            start=move["from"],
            end=move["to"],
            category=move["category"],
            after=move["after"],
            risk=outlook["city_risk"],
            road_risk=outlook["road_risk"],
            likely=[c for c, p in outlook["city_risk"].items() if p >= LIKELY],
            in_reach=tuple(move["to"]) in {tuple(h) for h in outlook["reach"]},
        )
        here["likely_hit"] = [c for c in here["likely"] if c in here["hit_cities"]]
        here["threats"] = [
            f"{city_name(c)} {round(100 * p)}%"
            for c, p in sorted(outlook["city_risk"].items(), key=lambda item: -item[1])
            if p >= UNLIKELY
        ]
        here["surprises"] = [c for c in here["hit_cities"] if here["risk"].get(c, 0) < UNLIKELY]
    for here in rounds.values():
        here["hit_names"] = [city_name(c) for c in here["hit_cities"]]
    hit_from: dict[str, int] = {}
    for number in sorted(rounds):
        for cid in rounds[number]["hit_cities"]:
            hit_from.setdefault(cid, number)
        for rid in rounds[number]["flooded"] + rounds[number]["dam_held"]:
            hit_from.setdefault(rid, number)
    for row in actions:
        here = rounds.get(row["round"], {})
        target = row.get("road") if row["kind"] == "dam" else row["city"]
        risks = here.get("road_risk" if row["kind"] == "dam" else "risk", {})
        row["risk"] = round(risks.get(target, 0.0), 2)
        first = hit_from.get(target)
        row["hit"] = first is not None and first >= row["round"]
        row["hit_this_round"] = first == row["round"] or (
            row["kind"] != "dam" and row["city"] in here.get("hit_cities", [])
        )
    team = _team_result(state)
    weights = [row["amount"] for row in actions]
    total = sum(weights) or 1
    spending = {
        "actions": len(actions),
        "units": sum(weights),
        "fortify_people": sum(r["amount"] for r in actions if r["kind"] == "fortify" and r["people"]),
        "fortify_infrastructure": sum(r["amount"] for r in actions if r["kind"] == "fortify" and not r["people"]),
        "dams": sum(1 for r in actions if r["kind"] == "dam"),
        "sealed": sorted({r["road"] for r in actions if r["kind"] == "dam" and r["sealed"]}),
        "evacuated": sum(r["amount"] for r in actions if r["kind"] == "evacuate"),
        "in_storm_path": round(100 * sum(r["amount"] for r in actions if r["hit"]) / total),
        "where_likely": round(100 * sum(r["amount"] for r in actions if r["risk"] >= LIKELY) / total),
        "by_bot": sum(1 for r in actions if r["by_bot"]),
    }
    by_city: dict[str, dict] = defaultdict(lambda: {"fortify": 0, "dam": 0, "evacuate": 0})
    for row in actions:
        by_city[row["city"]][row["kind"]] += row["amount"]
    played = [r for r in rounds.values() if r["played"]]
    max_risk = {c: max((r["risk"].get(c, 0) for r in played), default=0) for c in sf.CITY_IDS}
    cities = []
    for cid in sf.CITY_IDS:
        spent = by_city.get(cid, {"fortify": 0, "dam": 0, "evacuate": 0})
        hit = cid in hit_from
        if sum(spent.values()) or hit or max_risk[cid] >= UNLIKELY:
            cities.append(
                {
                    "city": cid,
                    "name": city_name(cid),
                    **spent,
                    "units": sum(spent.values()),
                    "max_risk": round(max_risk[cid], 2),
                    "hit": hit,
                    "hit_round": hit_from.get(cid),
                    "damage": state["damage_by_city"].get(cid, 0),
                    "people_left": state["population"].get(cid, 0),
                }
            )
    held = Counter(s for r in played for s in r["held"])
    lost = [
        {
            "space": s,
            "name": space_name(s),
            "type": sf.SPACES[s].get("type"),
            "city": city_name(sf.SPACES[s]["city"]),
            "round": next((r["round"] for r in played if s in r["destroyed"]), None),
        }
        for s in state["destroyed"]
    ]
    people_hit = [{"city": city_name(c), "people": n, "left": state["population"][c]} for c, n in caught.items()]
    flooded = [{"road": rid, "name": road_name(rid), "round": hit_from.get(rid)} for rid in state["flooded"]]
    cut_off = [city_name(c) for c in sf.CITY_IDS if all(rid in state["flooded"] for rid, _other in sf.ROADS_AT[c])]
    escape = {
        "open": len(sf.ROAD_IDS) - len(state["flooded"]),
        "total": len(sf.ROAD_IDS),
        "flooded": flooded,
        "held": [road_name(r) for r in sorted({r for x in played for r in x["dam_held"]})],
        "sealed": [road_name(r) for r in spending["sealed"]],
        "cut_off": cut_off,
    }
    forecast = {
        "rounds": len(played),
        "likely": sum(len(r["likely"]) for r in played),
        "likely_hit": sum(len(r["likely_hit"]) for r in played),
        "surprises": sum(len(r["surprises"]) for r in played),
        "hits": sum(len(r["hit_cities"]) for r in played),
        "in_reach": sum(1 for r in played if r.get("in_reach")),
    }
    seats = []
    for player in state["players"]:
        holder = table["holders"].get(player["seat"])
        role = sf.ROLES.get(player["role"] or "", {})
        seats.append(
            {
                "seat": player["seat"],
                "name": holder["name"] if holder else None,
                "role": role.get("name", player["role"] or "no role"),
                "human": bool(holder),
                **{k: player["stats"][k] for k in ("fortifications", "dams", "evacuated", "trades")},
            }
        )
    flags = table_flags(table)
    stopped_after = len(state["storm"]["history"]) if flags["unfinished"] else None
    return {
        "table": table["table"],
        "game": table["game"],
        "flags": flags,
        "team": team,
        "bot": _bot_team(bot_results, stopped_after),
        "stopped_after": stopped_after,
        "rounds": [rounds[n] for n in sorted(rounds)],
        "actions": actions,
        "spending": spending,
        "cities": cities,
        "held": [
            {"space": s, "name": space_name(s), "city": city_name(sf.SPACES[s]["city"]), "times": n}
            for s, n in held.items()
        ],
        "lost": lost,
        "people_hit": people_hit,
        "escape": escape,
        "forecast": forecast,
        "seats": seats,
        "track": [dict(h) for h in state["storm"]["history"]],
        "names": [s["name"] for s in seats if s["name"]],
    }


def _team_result(state: dict) -> dict:
    """The team's damage in the engine's own result shape (the same for every seat)."""
    by_type: dict[str, int] = {}
    for sid in state["destroyed"]:
        by_type[sf.SPACES[sid]["type"]] = by_type.get(sf.SPACES[sid]["type"], 0) + 1
    return {
        "damage_total": state["damage"]["total"],
        "damage_by_type": {k: state["damage"][k] for k in ("infrastructure", "population", "roads")},
        "infrastructure_lost": by_type,
        "people_not_evacuated": sum(state["population"].values()),
        "flooded_roads": list(state["flooded"]),
        "rounds": state["round"],
        "ended": state["ended"],
    }


def share(part: float, whole: float) -> float:
    return round(100 * part / whole, 1) if whole else 0.0


def class_summary(stories: list[dict]) -> dict:
    """The class beside itself: every team's damage by type, spending, roads, and the questions."""
    teams = [s for s in stories if s["names"]]
    damage = {key: sum(s["team"]["damage_by_type"][key] for s in teams) for key, _label in DAMAGE_TYPES}
    total = sum(damage.values())
    rows = []
    for story in teams:
        team, bot = story["team"], story["bot"]
        rows.append(
            {
                "table": story["table"],
                "names": story["names"],
                "flags": story["flags"],
                "total": team["damage_total"],
                **team["damage_by_type"],
                # a stopped team beside the bot after as many storm moves, not its whole storm
                "bot_total": (bot.get("damage_at_stop", bot["damage_total"])) if bot else None,
                "stopped_after": story["stopped_after"],
                "bot": bot["damage_by_type"] if bot else None,
                "evacuated": story["spending"]["evacuated"],
                "fortify_people": story["spending"]["fortify_people"],
                "fortify_infrastructure": story["spending"]["fortify_infrastructure"],
                "dams": story["spending"]["dams"],
                "sealed": len(story["spending"]["sealed"]),
                "open_roads": story["escape"]["open"],
                "in_storm_path": story["spending"]["in_storm_path"],
                "people_left": story["team"]["people_not_evacuated"],
            }
        )
    top = max((r["total"] for r in rows), default=0) or 1
    for row in rows:
        row["widths"] = {key: round(100 * row[key] / top) for key, _label in DAMAGE_TYPES}
    forecast = Counter()
    for story in teams:
        forecast.update(story["forecast"])
    summary = {
        "teams": len(rows),
        "rows": rows,
        "damage": damage,
        "damage_total": total,
        "damage_share": {key: share(value, total) for key, value in damage.items()},
        "labels": dict(DAMAGE_TYPES),
        "evacuated": sum(r["evacuated"] for r in rows),
        "fortify_people": sum(r["fortify_people"] for r in rows),
        "fortify_infrastructure": sum(r["fortify_infrastructure"] for r in rows),
        "dams": sum(r["dams"] for r in rows),
        "sealed": sum(r["sealed"] for r in rows),
        "roads_total": len(sf.ROAD_IDS),
        "forecast": dict(forecast),
        "spread": (min(r["total"] for r in rows), max(r["total"] for r in rows)) if rows else (0, 0),
        "unfinished_tables": [r["table"] for r in rows if r["flags"]["unfinished"]],
        "bot_finished_tables": [r["table"] for r in rows if r["flags"]["bot_finished"]],
        "stand_in_tables": [r["table"] for r in rows if r["flags"]["stand_in_moves"]],
        "mean_in_storm_path": round(sum(r["in_storm_path"] for r in rows) / len(rows)) if rows else 0,
    }
    summary["questions"] = discussion_questions(summary)
    return summary


def discussion_questions(summary: dict) -> list[dict]:
    """Three questions about what this class did, most striking first (salience, then asked)."""
    rows = summary["rows"]
    if not rows:
        return []
    n = len(rows)
    candidates = []
    people = summary["damage"]["population"]
    if people:
        candidates.append(
            (
                share(people, summary["damage_total"]) + 10,
                "people",
                ngettext(
                    "People not yet evacuated took %(people)s of the %(total)s damage our %(n)s team "
                    "suffered. In real hurricanes rising water, not wind, is the greatest danger to people. "
                    "What made moving people out hard, and what would have made it easier?",
                    "People not yet evacuated took %(people)s of the %(total)s damage our %(n)s teams "
                    "suffered. In real hurricanes rising water, not wind, is the greatest danger to people. "
                    "What made moving people out hard, and what would have made it easier?",
                    n,
                )
                % {"people": people, "total": summary["damage_total"], "n": n},
            )
        )
    roads = summary["damage"]["roads"]
    if roads:
        candidates.append(
            (
                share(roads, n * summary["roads_total"]) * 1.5,
                "roads",
                _(
                    "Teams lost %(roads)s roads to flooding in all (out of %(total)s each); roads sealed with dams "
                    "at both ends: %(sealed)s. Which roads were escape routes, and when should a city's last road "
                    "out be protected?"
                )
                % {"roads": roads, "total": summary["roads_total"], "sealed": summary["sealed"]},
            )
        )
    forecast = summary["forecast"]
    if forecast.get("likely"):
        missed = forecast["likely"] - forecast.get("likely_hit", 0)
        candidates.append(
            (
                share(missed, forecast["likely"]) + share(forecast.get("surprises", 0), forecast.get("hits") or 1),
                "forecast",
                _(
                    "The forecast gave %(likely)s city-turns at least even odds of a hit; the storm hit %(hit)s of "
                    "them, and %(surprises)s hits came where the forecast said under 20%%. Real storms leave the "
                    "forecast cone about one time in three. How should a team spend when the forecast is uncertain?"
                )
                % {
                    "likely": forecast["likely"],
                    "hit": forecast.get("likely_hit", 0),
                    "surprises": forecast.get("surprises", 0),
                },
            )
        )
    choice = summary["evacuated"] + summary["fortify_people"]
    if choice:
        candidates.append(
            (
                abs(share(summary["evacuated"], choice) - 50) / 2 + 20,
                "evacuate",
                _(
                    "Our class evacuated %(evacuated)s people and put %(fortified)s fortifications on "
                    "neighborhoods instead. When is it better to move people out than to protect them where they "
                    "are?"
                )
                % {"evacuated": summary["evacuated"], "fortified": summary["fortify_people"]},
            )
        )
    low, high = summary["spread"]
    if n > 1 and high > low:
        candidates.append(
            (
                share(high - low, high) * 0.8,
                "spread",
                _(
                    "Every table faced the same kind of storm, yet damage ran from %(low)s to %(high)s. "
                    "What did the teams with less damage do differently, and when did they do it?"
                )
                % {"low": low, "high": high},
            )
        )
    candidates.append(
        (
            (100 - summary["mean_in_storm_path"]) * 0.6,
            "spending",
            _(
                "On average %(share)s%% of a team's resources went to places the storm then reached. Was the "
                "rest wasted, or was it still worth spending?"
            )
            % {"share": summary["mean_in_storm_path"]},
        )
    )
    candidates.sort(key=lambda c: -c[0])
    return [{"topic": topic, "text": text} for _salience, topic, text in candidates[:3]]


def facts_for(topic: str, facts: dict, limit: int = 2) -> list:
    """The knowledge-base facts a part of the report draws on, among those this page may show."""
    return [facts[key] for key in TOPIC_FACTS.get(topic, []) if key in facts][:limit]
