"""Hurricane Approaching!'s debrief part (``scenarios.debrief.Debrief``): the projector page, each
household's report with its counterfactual futures, the class packet and the export's rows."""

from __future__ import annotations

from scenarios.audience import verified
from scenarios.debrief import EARLY_FUTURES, Citations, data_uri, early_finish
from scenarios.words import gettext_noop

from . import analysis, charts, counterfactuals, rules

#: facts picked first when several speak to a decision
FACT_PRIORITY = [
    "destinations-florida-2004",
    "when-households-leave-ike",
    "watch-warning-lead-times",
    "mitigation-pays",
    "fortified-roofs-sally",
    "shelter-last-resort",
    "water-per-day",
    "katrina-contraflow",
    "rita-evacuation-deaths",
    "what-kills-1963-2012",
]


def matching_facts(tags, facts, limit=2) -> list:
    """The facts that speak to a decision's tags, best first (tag order, then a fixed priority)."""
    picked = []
    for tag in tags:
        for fact in sorted(facts, key=lambda f: (FACT_PRIORITY.index(f.key) if f.key in FACT_PRIORITY else 99, f.key)):
            if tag in fact.decisions and fact not in picked:
                picked.append(fact)
                break
    for fact in facts:
        if len(picked) >= limit:
            break
        if fact not in picked and set(tags) & set(fact.decisions):
            picked.append(fact)
    return picked[:limit]


#: What the game's winning strategy teaches (RULES.md, "Balance"): the class debrief says it
#: in the class's language (``templates/scoring/debrief_base.html``).
TEACHES = gettext_noop(
    "What the winning strategy teaches: in this game the most points go to households that fill the "
    "tank, leave early and go to family or friends inland, and a household that waits for the last "
    "minute loses almost every game. The same habits help in a real evacuation: decide before the "
    "warning, leave with a full tank, and go to a place you know."
)


class EvacuationDebrief:
    teaches = TEACHES
    data_dictionary = {
        "decisions.left_hour": "Game hour the household left home (empty if it never left).",
        "decisions.destination": "Where it arrived (relative, hotel, shelter) or empty.",
        "decisions.outcome": "evacuated, stayed home, caught on the road, or game ended early.",
        "decisions.reason_leave / reason_destination": "The one-tap reason key given, 'skip', or empty.",
        "decisions.reason_leave_by / reason_destination_by": "Who gave that reason: student, bot (the seat handed to a bot or finished by bots) or timer (a bot standing in for an idle student); empty if none was given.",
        "decisions.score": "Points under the session's scoring options; safety fields are reported beside them.",
    }

    def page(self, lesson, audience):
        """The projector page: this class beside the real figures, built from the move log now."""
        summary = analysis.class_summary(lesson.tables)
        facts = {f.key: f for f in lesson.facts(audience)}
        real_dest = facts.get("destinations-florida-2004")
        comparisons = {
            "destinations": real_dest,
            "timing": facts.get("when-households-leave-ike"),
            "lead_times": facts.get("watch-warning-lead-times"),
            "unsafe": facts.get("rita-evacuation-deaths")
            or facts.get("what-kills-1963-2012")
            or facts.get("cat4-damage"),
            "shelter": facts.get("shelter-last-resort"),
        }
        if real_dest:
            for row in summary["destinations"]:
                row["real"] = real_dest.values.get(row["key"])
            summary["questions"] = analysis.discussion_questions(summary, real_dest.values["relative"])
        citations = list(dict.fromkeys(f for f in comparisons.values() if f))
        cite = {name: citations.index(f) + 1 for name, f in comparisons.items() if f}
        written, reports = lesson.report_data()
        return "scenarios/evacuation/debrief.html", {
            "summary": summary,
            # the class's what-if replays: the same re-runs as the students' reports, summed
            "whatif": counterfactuals.for_class(written),
            "whatif_written": len(written),
            "whatif_reports": reports,
            "facts": comparisons,
            "cite": cite,
            "citations": citations,
        }

    def report(self, lesson, table, seat, name, progress):
        """One household's report: decisions beside facts, points and safety, counterfactuals."""
        story = analysis.seat_story(table, seat)
        story["flags"] = analysis.table_flags(table)
        summary = analysis.class_summary(lesson.tables)
        facts = lesson.facts("student")
        cites = Citations()
        for step in story["timeline"]:
            step["facts"] = [cites.cite(f) for f in matching_facts(step["tags"], facts)]
        outcome_tags = {
            "evacuated": ["destination", story["destination"] or ""],
            "stayed home": ["stay"],
            "caught on the road": ["traffic"],
            "game ended early": ["leave_time"],
        }[story["outcome"]]
        outcome_facts = [cites.cite(f) for f in matching_facts(outcome_tags, facts)]
        progress(30, gettext_noop("Re-running futures from the decision point"))
        items = counterfactuals.for_household(table, story, counterfactuals.FUTURES)
        progress(70, gettext_noop("Drawing charts"))
        chart_urls = {
            "timeline": data_uri(charts.decision_timeline(story)),
            "departures": data_uri(charts.departures(summary["departures"], story["left_hour"])),
        }
        if items:
            chart_urls["counterfactual"] = data_uri(charts.counterfactual(items))
        context = {
            "story": story,
            "name": name,
            "table": table["table"],
            "seat": seat + 1,
            "counterfactuals": items,
            "charts": chart_urls,
            "outcome_facts": outcome_facts,
            "citations": cites.facts,
            "summary": summary,
            "futures": items[0]["alternative"]["futures"] if items else counterfactuals.FUTURES,
            "first_futures": counterfactuals.FIRST_FUTURES,
            "all_futures": counterfactuals.FUTURES,
        }
        data = {
            "seat": seat,
            "table": table["table"],
            "left_hour": story["left_hour"],
            "outcome": story["outcome"],
            "score": story["score"],
            "counterfactuals": [
                {k: v for k, v in item.items() if k != "sentence"} | {"sentence": item["sentence"]} for item in items
            ],
            "facts": [f.key for f in cites.facts],
        }
        return "scenarios/evacuation/student_report.html", context, data

    def packet(self, lesson, progress):
        """The printable class packet: distributions, spread between tables, questions, households."""
        summary = analysis.class_summary(lesson.tables)
        facts = {f.key: f for f in lesson.facts("student")}
        real = facts.get("destinations-florida-2004")
        if real:
            for row in summary["destinations"]:
                row["real"] = real.values.get(row["key"])
            summary["questions"] = analysis.discussion_questions(summary, real.values["relative"])
        cites = Citations()
        names = {
            "destinations": "destinations-florida-2004",
            "timing": "when-households-leave-ike",
            "shelter": "shelter-last-resort",
        }
        cited = {name: cites.cite(facts[key]) for name, key in names.items() if key in facts}
        progress(40, gettext_noop("Drawing charts"))
        chart_urls = {
            "departures": data_uri(charts.departures(summary["departures"], None)),
            "destinations": data_uri(
                charts.destinations(
                    summary["destinations"], "Florida 2004 [%d]" % cited["destinations"]["n"] if real else None
                )
            ),
        }
        teacher_only = [f for f in lesson.facts("teacher") if not verified(f)]
        homes = analysis.households(lesson.tables)
        context = {
            "summary": summary,
            "charts": chart_urls,
            "cited": cited,
            "citations": cites.facts,
            "homes": homes,
            "teacher_only": teacher_only,
        }
        return (
            "scenarios/evacuation/class_packet.html",
            context,
            {"households": summary["households"], "questions": summary["questions"]},
        )

    def early(self, lesson, table, seat):
        """A household home for the storm or arrived while others still drive: its own
        counterfactual futures (fewer than the report's, the tablet waits), the table's questions
        and the facts its outcome speaks to."""
        story = analysis.seat_story(table, seat)
        items = counterfactuals.for_household(table, story, EARLY_FUTURES, EARLY_FUTURES)
        facts = lesson.facts("student")
        real = next((f for f in facts if f.key == "destinations-florida-2004"), None)
        # the table's questions count the households whose game is over, not those still driving
        done = set(table["holders"]) - set(rules.to_act(table["state"]))
        summary = analysis.class_summary(
            [{**table, "holders": {s: h for s, h in table["holders"].items() if s in done}}]
        )
        questions = analysis.discussion_questions(summary, real.values["relative"]) if real else summary["questions"]
        tags = ["leave_time"] + (["stay"] if story["stayed"] else ["destination", story["destination"] or ""])
        return early_finish([item["sentence"] for item in items], questions, matching_facts(tags, facts))

    def decisions(self, lesson, seat_ids, named):
        rows = []
        for story in analysis.households(lesson.tables):
            row = {
                "seat_id": seat_ids.get((story["table"], story["seat"])),
                "table": story["table"],
                "seat": story["seat"],
                "left_hour": story["left_hour"],
                "destination": story["destination"],
                "outcome": story["outcome"],
                "secured": story["secured"],
                "friends": story["friends"],
                "fuel": story["fuel"],
                "supplies": story["supplies"],
                "score": story["score"],
                "reason_leave": story["reason_keys"].get("leave"),
                "reason_destination": story["reason_keys"].get("destination"),
                "reason_leave_by": story["reason_by"]["leave"],
                "reason_destination_by": story["reason_by"]["destination"],
                "unfinished": story["flags"]["unfinished"],
                "bot_finished": story["flags"]["bot_finished"],
            }
            if named:
                row["nickname"] = story["holder"]["name"]
            rows.append(row)
        return rows


DEBRIEF = EvacuationDebrief()
