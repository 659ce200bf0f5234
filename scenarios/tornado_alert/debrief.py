"""Tornado Alert!'s debrief part: where the class's storm photos were taken from, how much of
their score came from places the Weather Service calls dangerous, what the tornado and lightning
struck, beside what really keeps people safe in tornadoes. The question the game is built on:
would you take that photo?"""

from __future__ import annotations

from scenarios.audience import verified
from scenarios.debrief import Citations, early_finish
from scenarios.words import gettext, gettext_noop

from . import ENGINE, rules, whatif

#: topic -> knowledge-base fact; a page cites only the facts its audience may see (tornado facts
#: only: a hurricane's roof damage or deaths are not this lesson's)
TOPICS = {
    "underground": "tornado-shelter-underground",
    "interior": "tornado-interior-room",
    "vehicles": "tornado-vehicles",
    "debris": "tornado-flying-debris",
    "where_hurt": "tornado-deaths-mobile-homes",
}
#: What the game's winning strategy teaches (RULES.md, "Balance"): the class debrief, the early
#: finisher's panel and the tablet's end screen say it in the class's language.
LESSON = gettext_noop(
    "What the winning strategy teaches: in this game the highest scores go to photos from the most "
    "dangerous places, and a player who keeps a safe place on top scores less. The rule book built it that "
    "way, so the winner is the player who stood where a real tornado is most dangerous. Real life is the "
    "opposite: when a tornado warning comes, go underground, or to a small room in the middle of the lowest "
    "floor of a sturdy building."
)
#: locations where the safety notes say you are sheltered: everything else is a risk
SHELTERED = rules.SAFE
LOCATIONS = rules.LOCATIONS
LOCATION_NAMES = {key: loc["name"] for key, loc in LOCATIONS.items()}


def players(lesson) -> list[dict]:
    """One row per seat: score, rank, photos by place, and what the storm did to them."""
    rows = []
    for table in lesson.tables:
        state = ENGINE.load(table["state"])
        for result in ENGINE.results(state):
            b = result["breakdown"]
            photos = sum(b["locations"].values())
            risky = sum(n for loc, n in b["locations"].items() if loc not in SHELTERED)
            holder = table["holders"].get(result["seat"])
            rows.append(
                {
                    "table": table["table"],
                    "seat": result["seat"],
                    "holder": holder,
                    "score": result["score"],
                    "rank": result["rank"],
                    "photos": photos,
                    "risky": risky,
                    "risky_share": round(100 * risky / photos) if photos else 0,
                    "tornado": b["tornado"],
                    "lightning": b["lightning"],
                    "rover": b["rover"],
                    "races_won": b["races_won"],
                    "races_lost": b["races_lost"],
                    "takes": b["takes"],
                    "rounds": b["rounds"],
                    "locations": b["locations"],
                    "favourite": max(b["locations"], key=b["locations"].get) if b["locations"] else None,
                }
            )
    return rows


def _flags(lesson) -> dict:
    unfinished, by_bots, stand_in = [], [], []
    for table in lesson.tables:
        if table["status"] != "finished":
            unfinished.append(table["table"])
        if any(str(m["action_id"]).startswith("finish:") for m in table["moves"]):
            by_bots.append(table["table"])
        if any(m["actor"] == "timer" and m["action"].get("type") != "settle" for m in table["moves"]):
            stand_in.append(table["table"])
    return {"unfinished_tables": unfinished, "bot_finished_tables": by_bots, "stand_in_tables": stand_in}


def summary(lesson) -> dict:
    rows = players(lesson)
    places = {}
    for row in rows:
        for loc, n in row["locations"].items():
            places[loc] = places.get(loc, 0) + n
    photos = sum(places.values())
    by_place = [
        {
            "id": loc["id"],
            "name": loc["name"],
            "value": loc["value"],
            "count": places.get(loc["id"], 0),
            "share": round(100 * places.get(loc["id"], 0) / photos) if photos else 0,
            "sheltered": loc["id"] in SHELTERED,
        }
        for loc in rules.DECKS[rules.EDITION]["locations"]
    ]
    risky = sum(p["count"] for p in by_place if not p["sheltered"])
    # the safety notes of the places the class photographed most: the tablets' notes, graded
    notes, seen = [], set()
    for place in sorted(by_place, key=lambda p: (p["sheltered"], -p["count"])):
        basis = LOCATIONS[place["id"]]["basis"]
        sourced = basis.get("fact") and basis.get("source") and basis.get("grade")
        if place["count"] and sourced and basis["fact"] not in seen and len(notes) < 3:
            seen.add(basis["fact"])
            # nested as a basis: a reader who may not see the claim loses the whole note, never
            # only its source and grade
            notes.append({"place": place["name"], "basis": basis})
    # a seat the stand-in played is not a student's win (``scenarios.debrief.played_by_stand_in``)
    winners = [r for r in rows if r["rank"] == 1 and not (r["holder"] or {}).get("stand_in")]
    return {
        "players": len(rows),
        "tables": len(lesson.tables),
        "photos": photos,
        "risky": risky,
        "risky_share": round(100 * risky / photos) if photos else 0,
        "places": by_place,
        "tornado": sum(r["tornado"] for r in rows),
        "lightning": sum(r["lightning"] for r in rows),
        "rover": sum(r["rover"] for r in rows),
        "races": sum(r["races_won"] for r in rows),
        "notes": notes,
        "winner_risky_share": round(sum(r["risky_share"] for r in winners) / len(winners)) if winners else 0,
        **_flags(lesson),
    }


def cited(lesson, audience):
    facts = {f.key: f for f in lesson.facts(audience)}
    cites = Citations(by_source=True)  # three facts of one Weather Service page are one source
    return {topic: cites.cite(facts[key]) for topic, key in TOPICS.items() if key in facts}, cites


class TornadoAlertDebrief:
    teaches = LESSON
    data_dictionary = {
        "decisions.score": "The seat's worst counted round average after chips (its final score).",
        "decisions.photos": "Location cards the seat took over the game.",
        "decisions.risky": "Of those, cards from places exposed to the storm (all but the storm cellar and the submarine under water; rules edition 1 counted the observatory as sheltered too).",
        "decisions.tornado": "Times the tornado struck the seat's location.",
        "decisions.lightning": "Times lightning struck the seat's location.",
        "decisions.races_won": "Slap races (two or more slaps in the window) the seat won.",
        "decisions.races_lost": "Slap races the seat lost.",
        "decisions.struck_rounds": "Rounds whose result the seat struck (taking a minus chip).",
    }

    def page(self, lesson, audience):
        facts, cites = cited(lesson, audience)
        shown = summary(lesson)
        replays = whatif.what_if(lesson.tables, SHELTERED) if shown["photos"] else None
        return "scenarios/tornado_alert/debrief.html", {
            "summary": shown,
            "cited": facts,
            "citations": cites.facts,
            "whatif": replays,
        }

    def report(self, lesson, table, seat, name, progress):
        progress(40, gettext_noop("Reading the photos"))
        mine = next(r for r in players(lesson) if r["table"] == table["table"] and r["seat"] == seat)
        facts, cites = cited(lesson, "student")
        mine["favourite_name"] = LOCATION_NAMES.get(mine["favourite"], "")
        basis = LOCATIONS[mine["favourite"]]["basis"] if mine["favourite"] else {}
        # a sourced note only, never the game's own reasoning (which has no source or grade)
        mine["basis"] = basis if basis.get("fact") and basis.get("source") and basis.get("grade") else None
        context = {
            "name": name,
            "mine": mine,
            "table": table["table"],
            "seat": seat + 1,
            "cited": facts,
            "citations": cites.facts,
        }
        return (
            "scenarios/tornado_alert/student_report.html",
            context,
            {"score": mine["score"], "risky_share": mine["risky_share"], "facts": [f.key for f in cites.stated]},
        )

    def packet(self, lesson, progress):
        facts, cites = cited(lesson, "student")
        rows = players(lesson)
        progress(50, gettext_noop("Reading every table"))
        teacher_only = [f for f in lesson.facts("teacher") if not verified(f) and f.key in TOPICS.values()]
        context = {
            "summary": summary(lesson),
            "rows": rows,
            "cited": facts,
            "citations": cites.facts,
            "teacher_only": teacher_only,
        }
        return "scenarios/tornado_alert/class_packet.html", context, {"players": len(rows)}

    def early(self, lesson, table, seat):
        """A player whose table has finished while others still play: the same deal played
        carefully from their seat beside their own photos, the debrief page's questions about
        their table, and the safety facts."""
        state = ENGINE.load(table["state"])
        results = ENGINE.results(state)
        mine = whatif.measure([r for r in results if r["seat"] == seat], SHELTERED)
        played_safe = whatif.replay(table["seed"], state["seats"], state["options"], "safe")
        safe = whatif.measure([r for r in played_safe if r["seat"] == seat], SHELTERED)
        comparison = gettext(
            "Played safe on the same cards (taking a pile only when its top photo is from a storm cellar or a "
            "submarine), your seat would have taken %(photos)s photos, %(risky)s of them from places with no "
            "shelter, been struck by the tornado %(tornado)s times and scored %(score)s. You took %(mine)s photos, "
            "%(mine_risky)s from places with no shelter, were struck %(mine_tornado)s times and scored %(mine_score)s."
        ) % {
            "photos": safe["photos"],
            "risky": safe["risky"],
            "tornado": safe["tornado"],
            "score": safe["score"],
            "mine": mine["photos"],
            "mine_risky": mine["risky"],
            "mine_tornado": mine["tornado"],
            "mine_score": mine["score"],
        }
        ours = whatif.measure(results, SHELTERED)
        questions = [gettext("Would you take that photo? Which card in your stack would you never take in real life?")]
        if ours["risky"]:
            questions.append(
                gettext(
                    "%(share)s%% of our photos came from places with no shelter. Why did the game make that feel worth it?"
                )
                % {"share": ours["risky_share"]}
            )
        questions.append(
            gettext(
                "The tornado struck some of us. Where should you be when a tornado warning is issued, at school and at home?"
            )
            if ours["tornado"]
            else gettext(
                "The tornado missed us this time. Where should you be when a tornado warning is issued, at school and at home?"
            )
        )
        facts, _cites = cited(lesson, "student")
        return early_finish([comparison, gettext(LESSON)], questions, [c["fact"] for c in facts.values()][:2])

    def decisions(self, lesson, seat_ids, named):
        out = []
        for row in players(lesson):
            item = {
                "seat_id": seat_ids.get((row["table"], row["seat"])),
                "table": row["table"],
                "seat": row["seat"],
                "score": row["score"],
                "photos": row["photos"],
                "risky": row["risky"],
                "tornado": row["tornado"],
                "lightning": row["lightning"],
                "races_won": row["races_won"],
                "races_lost": row["races_lost"],
                "struck_rounds": sum(1 for r in row["rounds"] if r["struck"]),
            }
            if named:
                item["nickname"] = row["holder"]["name"] if row["holder"] else ""
            out.append(item)
        return out


DEBRIEF = TornadoAlertDebrief()
