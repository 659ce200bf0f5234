"""Race to the shelter's debrief part: who reached the shelter, beside when households really
leave and what they should carry."""

from __future__ import annotations

from scenarios.debrief import Citations, early_finish

from . import ENGINE

TOPICS = {"timing": "when-households-leave-ike", "warning": "watch-warning-lead-times", "supplies": "water-per-day"}


def households(lesson) -> list[dict]:
    rows = []
    for table in lesson.tables:
        state = ENGINE.load(table["state"])
        for result in ENGINE.results(state):
            holder = table["holders"].get(result["seat"])
            rows.append(
                {
                    "table": table["table"],
                    "seat": result["seat"],
                    "holder": holder,
                    "score": result["score"],
                    **result["breakdown"],
                }
            )
    return rows


def summary(lesson) -> dict:
    rows = households(lesson)
    return {
        "households": len(rows),
        "tables": len(lesson.tables),
        "safe": sum(1 for r in rows if r["safe"]),
        "supplies": sum(r["supplies"] for r in rows),
    }


def cited(lesson, audience):
    facts = {f.key: f for f in lesson.facts(audience)}
    cites = Citations()
    return {topic: cites.cite(facts[key]) for topic, key in TOPICS.items() if key in facts}, cites


class ShelterRaceDebrief:
    teaches = "What the winning strategy teaches: in this race the household that leaves first reaches the shelter."
    data_dictionary = {
        "decisions.safe": "Whether the household reached the shelter before the storm.",
        "decisions.supplies": "Supplies it packed.",
    }

    def page(self, lesson, audience):
        facts, cites = cited(lesson, audience)
        return "scenarios/shelter_race/debrief.html", {
            "summary": summary(lesson),
            "cited": facts,
            "citations": cites.facts,
        }

    def report(self, lesson, table, seat, name, progress):
        progress(40, "Reading the race")
        mine = next(r for r in households(lesson) if r["table"] == table["table"] and r["seat"] == seat)
        facts, cites = cited(lesson, "student")
        context = {
            "name": name,
            "mine": mine,
            "table": table["table"],
            "seat": seat + 1,
            "cited": facts,
            "citations": cites.facts,
        }
        return (
            "scenarios/shelter_race/student_report.html",
            context,
            {"safe": mine["safe"], "score": mine["score"], "facts": [f.key for f in cites.facts]},
        )

    def early(self, lesson, table, seat):
        mine = next(r for r in households(lesson) if r["table"] == table["table"] and r["seat"] == seat)
        careful = next(r for r in lesson.policy_results(table) if r["seat"] == seat)["breakdown"]
        whatif = (
            f"Played carefully on the same race, your household would have packed {careful['supplies']} "
            f"supplies (you packed {mine['supplies']})."
        )
        questions = ["When did your household set off, and why then?", "What would you pack first, and why?"]
        facts, _cites = cited(lesson, "student")
        return early_finish([whatif], questions, [c["fact"] for c in facts.values()])

    def packet(self, lesson, progress):
        facts, cites = cited(lesson, "student")
        context = {
            "summary": summary(lesson),
            "homes": households(lesson),
            "cited": facts,
            "citations": cites.facts,
            "teacher_only": [],
        }
        return "scenarios/shelter_race/class_packet.html", context, {"households": len(context["homes"])}

    def decisions(self, lesson, seat_ids, named):
        rows = []
        for row in households(lesson):
            out = {
                "seat_id": seat_ids.get((row["table"], row["seat"])),
                "table": row["table"],
                "seat": row["seat"],
                "safe": row["safe"],
                "supplies": row["supplies"],
                "score": row["score"],
            }
            if named:
                out["nickname"] = row["holder"]["name"] if row["holder"] else ""
            rows.append(out)
        return rows


DEBRIEF = ShelterRaceDebrief()
