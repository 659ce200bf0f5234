"""Debrief analysis from the move log: pure functions over plain data (no Django, no database).

The input is one dict per table, as ``scoring.selectors.table_records`` builds it::

    {"table": 3, "game": 17, "finished": True, "state": <final engine state>,
     "moves": [{"seq", "seat", "actor", "action_id", "action", "events"}, ...],
     "holders": {0: {"participant": 5, "name": "Kid0"}, 1: None, ...}}   # None = a bot's seat

Everything the class debrief page and the reports say about what students did comes from here,
so the page (built in the request, in well under a second) and the Celery reports agree.
"""

from __future__ import annotations

from collections import Counter

from scenarios.evacuation import rules as evac
from scenarios.words import SAY, english, gettext_noop, ngettext, number, said
from scenarios.words import gettext as _

WATCH_HOUR, WARNING_HOUR, WINDS_HOUR = 0, 12, 48
RED_FROM_HOUR = 16
DEPARTURE_BINS = [(0, 6), (6, 12), (12, 18), (18, 24), (24, 30), (30, 36), (36, 42), (42, 48)]
DESTINATION_LABELS = {
    "relative": gettext_noop("Relative's home"),
    "hotel": gettext_noop("Hotel"),
    "shelter": gettext_noop("Public shelter"),
}
# What each activity's time went to, as a report lists it.
ACTIVITY_LABELS = {
    "bank": gettext_noop("bank"),
    "home_supplies": gettext_noop("home supply store"),
    "friends": gettext_noop("picking up friends"),
    "buy_fuel": gettext_noop("buying fuel"),
    "buy_supplies": gettext_noop("buying supplies"),
    "secure_home": gettext_noop("securing the home"),
    "wait": gettext_noop("waiting"),
    "tow": gettext_noop("tow truck"),
    "lost_turn": gettext_noop("lost turns"),
}
# How a household's game ended (rules.results' "outcome"): words a template translates.
OUTCOMES = (
    gettext_noop("evacuated"),
    gettext_noop("stayed home"),
    gettext_noop("game ended early"),
    gettext_noop("caught on the road"),
)
ACTIVITY_EVENTS = {
    "withdrew": ("bank", "cash"),
    "bought_home_supplies": ("home_supplies", "secure_home"),
    "picked_up_friends": ("friends", "friends"),
    "bought_fuel": ("buy_fuel", "fuel"),
    "bought_supplies": ("buy_supplies", "supplies"),
    "home_secured": ("secure_home", "secure_home"),
    "waited": ("wait", "leave_time"),
    "towed": ("tow", "fuel"),
    "lost_turn": ("lost_turn", None),
}


def hour(minute) -> float | None:
    return None if minute is None else round(minute / 60, 1)


def reason_text(about: str, choice: str | None) -> str | None:
    if choice is None:
        return None
    if choice == "skip":
        return _("skipped")
    return evac.REASONS[about]["choices"].get(choice, choice)


def reason_answerers(moves: list[dict]) -> dict:
    """Who gave each of a seat's one-tap reasons, from its moves: ``student``, ``bot`` (the seat
    handed to a bot, or finished by bots) or ``timer`` (a bot standing in for an idle student)."""
    by = {}
    for move in moves:
        action = move.get("action") or {}
        if action.get("type") == "reason":
            by[action.get("about")] = move["actor"]
    return by


def table_flags(table: dict) -> dict:
    """How a table's game ended: finished by play, by the teacher's bots, or cut short."""
    state = table["state"]
    moves = table["moves"]
    ended_early = bool(state.get("ended"))
    finished = evac.finished(state)
    bot_finished = any(str(m.get("action_id", "")).startswith("finish:") for m in moves)
    human_seats = {seat for seat, holder in table["holders"].items() if holder}
    stand_ins = sum(1 for m in moves if m["seat"] in human_seats and m["actor"] in ("bot", "timer"))
    return {
        "finished": finished and not ended_early,
        "ended_early": ended_early,
        "unfinished": not finished or ended_early,
        "bot_finished": bot_finished,
        "stand_in_moves": stand_ins,
    }


def seat_story(table: dict, seat: int, results: list[dict] | None = None) -> dict:
    """One household's decisions, in game-clock order, with the tags that pick matching facts."""
    state = table["state"]
    s = state["seats"][seat]
    results = results if results is not None else evac.results(state)
    row = next(r for r in results if r["seat"] == seat)
    safety, points = row["breakdown"]["safety"], row["breakdown"]["points"]
    moves = [m for m in table["moves"] if m["seat"] == seat]
    actors = Counter(m["actor"] for m in moves)
    timeline, left_minute, waits_at_home, activities = [], None, 0, Counter()
    for move in moves:
        by_bot = move["actor"] in ("bot", "timer")
        for event in move["events"]:
            if event.get("seat") != seat:
                continue
            kind = event["type"]
            minute = event.get("minute", 0)
            if kind == "left_home":
                left_minute = minute
                tags = ["leave_time"] + (["traffic"] if minute >= RED_FROM_HOUR * 60 else [])
                timeline.append(_step(minute, "leave", _leave_text(minute), tags, by_bot))
            elif kind == "waited" and left_minute is None:
                waits_at_home += 1
            elif kind == "destination":
                dest = event["destination"]
                timeline.append(
                    _step(
                        minute,
                        "destination",
                        _("Chose: %(place)s") % {"place": _(DESTINATION_LABELS[dest])},
                        ["destination", dest],
                        by_bot,
                    )
                )
            elif kind in ACTIVITY_EVENTS and kind != "waited":
                activity, tag = ACTIVITY_EVENTS[kind]
                cost = evac.MINUTES.get(activity, 0)
                activities[activity] += cost
                timeline.append(_step(minute, kind, evac.say(event), [tag] if tag else [], by_bot, cost_minutes=cost))
            elif kind == "arrived":
                timeline.append(
                    _step(minute, "arrived", evac.say(event), ["destination", event["destination"]], by_bot)
                )
            elif kind in ("stayed_home", "out_of_time", "card", "sent_home", "supplies_short", "out_of_fuel"):
                tags = {
                    "stayed_home": ["stay", "leave_or_stay"],
                    "out_of_time": ["traffic", "leave_time"],
                    "supplies_short": ["supplies"],
                    "out_of_fuel": ["fuel"],
                }.get(kind, [])
                line = evac.say(event)
                if kind == "card":
                    card = evac.CARDS[event["card"]]
                    line = said(gettext_noop("Chance: %(title)s. %(text)s"), title=card["title"], text=card["text"])
                timeline.append(_step(minute, kind, line, tags, by_bot))
    if waits_at_home:
        activities["wait"] = waits_at_home * evac.MINUTES["wait"]
    answered_by = reason_answerers(moves)
    reasons = {about: reason_text(about, s["reasons"].get(about)) for about in ("leave", "destination")}
    # Only what the student tapped is theirs: a bot standing in answers too, and says so.
    own = {about: reasons[about] if answered_by.get(about) == "student" else None for about in reasons}
    by_bot = {about: reasons[about] for about in reasons if reasons[about] and answered_by.get(about) != "student"}
    return {
        "seat": seat,
        "table": table["table"],
        "game": table["game"],
        "holder": table["holders"].get(seat),
        "left_hour": hour(left_minute),
        "left_minute": left_minute,
        "stayed": s["status"] == "stayed",
        "status": s["status"],
        "outcome": safety["outcome"],
        "destination": safety["destination"] if safety["destination"] != "none" else None,
        "destination_label": DESTINATION_LABELS.get(safety["destination"]),
        "chosen_destination": s["destination"],
        "arrived_hour": safety["arrived_hour"],
        "secured": s["secured"],
        "friends": s["friends"],
        "fuel": s["fuel"],
        "supplies": s["supplies"],
        "cash": s["cash"],
        "short_on_arrival": s["short"],
        "withdrawn": s["withdrawn"],
        "points": points,
        "cash_breakdown": row["breakdown"]["cash"],
        "score": row["score"],
        "rank": row["rank"],
        "safety": safety,
        "activity_minutes": dict(activities),
        "activity_time": [(ACTIVITY_LABELS.get(k, k), v) for k, v in activities.items()],
        "reasons": own,
        "reasons_by_bot": by_bot,
        "reason_keys": dict(s["reasons"]),
        "reason_by": {about: answered_by.get(about) for about in ("leave", "destination")},
        "timeline": sorted(timeline, key=lambda step: step["minute"]),
        "moves": {"student": actors.get("student", 0), "bot": actors.get("bot", 0) + actors.get("timer", 0)},
    }


def _step(minute, kind, text, tags, by_bot, cost_minutes=0):
    """One step of a household's timeline; ``text`` is a sentence or what one says (``said``):
    then the English is its text and the report writes it in the reader's language."""
    step = {
        "minute": minute,
        "hour": hour(minute),
        "kind": kind,
        "text": text,
        "tags": tags,
        "by_bot": by_bot,
        "cost_minutes": cost_minutes,
    }
    if isinstance(text, dict):
        step["text"], step[SAY] = english(text["template"], text["params"]), text
    return step


def _leave_text(minute):
    h = minute / 60
    at = {"hour": number(h, 1)}
    if h < WARNING_HOUR:
        return _("Left home at hour %(hour)s, before the hurricane warning") % at
    if h < RED_FROM_HOUR:
        return _("Left home at hour %(hour)s, after the warning, before the peak traffic") % at
    if h < 30:
        return _("Left home at hour %(hour)s, in the peak traffic") % at
    return _("Left home at hour %(hour)s, %(left)s hours before the tropical-storm winds") % {
        **at,
        "left": f"{WINDS_HOUR - h:.0f}",
    }


def households(tables: list[dict]) -> list[dict]:
    """Every human-held seat's story, with its table's flags, in table and seat order."""
    out = []
    for table in tables:
        flags = table_flags(table)
        results = evac.results(table["state"])
        for seat, holder in sorted(table["holders"].items()):
            if holder:
                story = seat_story(table, seat, results)
                story["flags"] = flags
                out.append(story)
    return out


def share(part: int, whole: int) -> float:
    return round(100 * part / whole, 1) if whole else 0.0


def class_summary(tables: list[dict]) -> dict:
    """The class beside itself: departures, destinations, homes secured, reasons and tables."""
    homes = households(tables)
    n = len(homes)
    left = [h for h in homes if h["left_hour"] is not None]
    evacuated = [h for h in homes if h["outcome"] == "evacuated"]
    bins = [
        {"label": f"{a}-{b}", "from": a, "to": b, "count": sum(1 for h in left if a <= h["left_hour"] < b)}
        for a, b in DEPARTURE_BINS
    ]
    bins.append({"label": "never", "from": None, "to": None, "count": n - len(left)})
    dest_counts = Counter(h["destination"] for h in evacuated)
    destinations = [
        {
            "key": key,
            "label": DESTINATION_LABELS[key],
            "count": dest_counts.get(key, 0),
            "share": share(dest_counts.get(key, 0), len(evacuated)),
        }
        for key in DESTINATION_LABELS
    ]
    reasons = {}
    for about in ("leave", "destination"):
        # The class's answers are the students' own; a bot's are counted apart, never as theirs.
        given = [h for h in homes if h["reason_keys"].get(about)]
        tally = Counter(h["reason_keys"][about] for h in given if h["reason_by"].get(about) == "student")
        reasons[about] = {
            "question": evac.REASONS[about]["question"],
            "answers": [
                {"key": k, "text": reason_text(about, k), "count": tally.get(k, 0)}
                for k in list(evac.REASONS[about]["choices"]) + ["skip"]
            ],
            "answered": sum(tally.values()),
            "by_bot": len(given) - sum(tally.values()),
        }
    outcomes = Counter(h["outcome"] for h in homes)
    by_table = []
    for table in tables:
        mine = [h for h in homes if h["table"] == table["table"]]
        if not mine:
            continue
        hours = [h["left_hour"] for h in mine if h["left_hour"] is not None]
        by_table.append(
            {
                "table": table["table"],
                "households": len(mine),
                "flags": table_flags(table),
                "evacuated": sum(1 for h in mine if h["outcome"] == "evacuated"),
                "mean_left_hour": round(sum(hours) / len(hours), 1) if hours else None,
                "mean_score": round(sum(h["score"] for h in mine) / len(mine), 1),
                "secured": sum(1 for h in mine if h["secured"]),
            }
        )
    summary = {
        "households": n,
        "tables": len(by_table),
        "left": len(left),
        "left_before_warning": sum(1 for h in left if h["left_hour"] < WARNING_HOUR),
        "left_in_peak": sum(1 for h in left if RED_FROM_HOUR <= h["left_hour"] < 30),
        "median_left_hour": _median([h["left_hour"] for h in left]),
        "departures": bins,
        "destinations": destinations,
        "evacuated": len(evacuated),
        "stayed": outcomes.get("stayed home", 0),
        "caught": outcomes.get("caught on the road", 0),
        "ended_early": outcomes.get("game ended early", 0),
        "secured": sum(1 for h in homes if h["secured"]),
        "friends": sum(1 for h in homes if h["friends"]),
        "short_on_arrival": sum(1 for h in evacuated if h["short_on_arrival"]),
        "reasons": reasons,
        "by_table": by_table,
        "unfinished_tables": [t["table"] for t in by_table if t["flags"]["unfinished"]],
        "bot_finished_tables": [t["table"] for t in by_table if t["flags"]["bot_finished"]],
        "stand_in_tables": [t["table"] for t in by_table if t["flags"]["stand_in_moves"]],
    }
    summary["questions"] = discussion_questions(summary)
    return summary


def _median(values):
    values = sorted(v for v in values if v is not None)
    if not values:
        return None
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else round((values[mid - 1] + values[mid]) / 2, 1)


def discussion_questions(summary: dict, real_relative_share: float = 65.2) -> list[dict]:
    """Three questions about what this class did, most striking first.

    Each candidate gets a salience (how far the class sits from real behaviour or from safety);
    the three highest are asked. ``real_relative_share`` is the Florida 2004 figure (the page
    cites it beside the question).
    """
    n = summary["households"] or 1
    candidates = []
    late = summary["left"] - summary["left_before_warning"]
    if late:  # a class where nobody waited has nothing to say about waiting
        candidates.append(
            (
                share(late, n),
                "leave_time",
                ngettext(
                    "%(late)s of %(households)s household left after the hurricane warning at hour 12. "
                    "Real households mostly leave between the watch and the warning. What made waiting feel "
                    "safe, and what did it cost on the road?",
                    "%(late)s of %(households)s households left after the hurricane warning at hour 12. "
                    "Real households mostly leave between the watch and the warning. What made waiting feel "
                    "safe, and what did it cost on the road?",
                    summary["households"],
                )
                % {"late": late, "households": summary["households"]},
            )
        )
    rel = next(d for d in summary["destinations"] if d["key"] == "relative")
    if summary["evacuated"]:
        gap = abs(rel["share"] - real_relative_share)
        candidates.append(
            (
                gap,
                "destination",
                _(
                    "%(ours)s%% of our evacuated households went to a relative; in Florida in 2004 about "
                    "%(real)s%% of evacuees did. Why might real families choose relatives so often "
                    "- and who has no relative to go to?"
                )
                % {"ours": f"{rel['share']:.0f}", "real": f"{real_relative_share:.0f}"},
            )
        )
        shelter = next(d for d in summary["destinations"] if d["key"] == "shelter")
        if shelter["count"]:
            candidates.append(
                (
                    shelter["share"] * 1.5,
                    "shelter",
                    ngettext(
                        "%(n)s household chose the public shelter. It scores fewest points here; "
                        "in real life it is often the only choice for people with no money or nobody to stay "
                        "with. Is a shelter a bad choice, or a last resort?",
                        "%(n)s households chose the public shelter. It scores fewest points here; "
                        "in real life it is often the only choice for people with no money or nobody to stay "
                        "with. Is a shelter a bad choice, or a last resort?",
                        shelter["count"],
                    )
                    % {"n": shelter["count"]},
                )
            )
    unsafe = summary["caught"] + summary["stayed"]
    if unsafe:
        candidates.append(
            (
                share(unsafe, n) * 2,
                "unsafe",
                _(
                    "Households still on the road when the winds arrived: %(caught)s. Households that stayed "
                    "home: %(stayed)s. What would you tell a family that is still deciding at hour 30?"
                )
                % {"caught": summary["caught"], "stayed": summary["stayed"]},
            )
        )
    candidates.append(
        (
            100 - share(summary["secured"], n),
            "secure_home",
            ngettext(
                "%(secured)s of %(households)s household put up shutters before leaving. "
                "It cost hours of game time. When is an hour spent protecting a house worth it?",
                "%(secured)s of %(households)s households put up shutters before leaving. "
                "It cost hours of game time. When is an hour spent protecting a house worth it?",
                summary["households"],
            )
            % {"secured": summary["secured"], "households": summary["households"]},
        )
    )
    top_reason = max(summary["reasons"]["leave"]["answers"], key=lambda a: a["count"], default=None)
    if top_reason and top_reason["count"] and top_reason["key"] != "skip":
        candidates.append(
            (
                share(top_reason["count"], n) * 0.6,
                "reasons",
                ngettext(
                    "The most common reason for leaving was “%(reason)s” (%(n)s household). "
                    "What other signs could a family watch for?",
                    "The most common reason for leaving was “%(reason)s” (%(n)s households). "
                    "What other signs could a family watch for?",
                    top_reason["count"],
                )
                % {"reason": top_reason["text"], "n": top_reason["count"]},
            )
        )
    candidates.sort(key=lambda c: -c[0])
    return [{"topic": topic, "text": text} for _salience, topic, text in candidates[:3]]
