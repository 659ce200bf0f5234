"""Bermuda Triangle's debrief part (``scenarios.debrief.Debrief``): freight collected and lost,
how often each fleet sailed into the cone, the same fleet replayed keeping out of the cone, and
what keeps real ships out of a hurricane's way, cited."""

from __future__ import annotations

from scenarios.audience import verified
from scenarios.debrief import Citations, early_finish
from scenarios.words import gettext, gettext_noop, money

from . import analysis

#: the facts the pages cite, in the order they are told
TOPICS = (
    "mariners-1-2-3-rule",
    "tropical-storm-force-radius",
    "forecast-cone",
    "track-errors-shrinking",
    "el-faro-joaquin",
)


def cited(lesson, audience):
    facts = {f.key: f for f in lesson.facts(audience)}
    cites = Citations()
    return [cites.cite(facts[key]) for key in TOPICS if key in facts], cites


#: What the game's winning strategy teaches (RULES.md, "Balance"): the class debrief says it
#: in the class's language (``templates/scoring/debrief_base.html``).
TEACHES = gettext_noop(
    "What the winning strategy teaches: in this game the captain who keeps every ship out of the "
    "cone and its margin wins more often than one who sails for the quickest cargo, because a storm "
    "often leaves its forecast line and its winds reach far beyond its centre. Real mariners plan "
    "around the whole danger area, not the line."
)


class BermudaDebrief:
    teaches = TEACHES
    data_dictionary = {
        "decisions.freight": "Freight the fleet held at the end (thousands of dollars, banked and aboard).",
        "decisions.lost_freight": "Freight lost with ships the cloud caught (thousands of dollars).",
        "decisions.ships_lost": "Ships the cloud caught (of four).",
        "decisions.into_cone": "Moves that ended on a space the cloud could sweep at the next spin.",
        "decisions.cone_avoidable": "Of those, moves where another move that turn was less exposed.",
        "decisions.clear_lost_freight": "Freight the same fleet lost in a replay keeping out of the cone.",
    }

    def page(self, lesson, audience):
        stories = [analysis.table_story(t) for t in lesson.tables]
        facts, cites = cited(lesson, audience)
        return "scenarios/bermuda/debrief.html", {
            "summary": analysis.class_summary(stories),
            "stories": stories,
            "cited": facts,
            "citations": cites.facts,
        }

    def report(self, lesson, table, seat, name, progress):
        progress(30, gettext_noop("Replaying the fleet outside the cone"))
        story = analysis.table_story(table)
        mine = next(r for r in story["fleets"] if r["seat"] == seat)
        facts, cites = cited(lesson, "student")
        context = {
            "name": name,
            "mine": mine,
            "story": story,
            "table": table["table"],
            "cited": facts,
            "citations": cites.facts,
        }
        data = {
            "freight": mine["freight"],
            "lost_freight": mine["lost_freight"],
            "ships_lost": mine["ships_lost"],
            "into_cone": mine["into_cone"],
            "clear": mine["clear"],
            "facts": [f.key for f in cites.facts],
        }
        return "scenarios/bermuda/student_report.html", context, data

    def packet(self, lesson, progress):
        progress(30, gettext_noop("Replaying every fleet outside the cone"))
        stories = [analysis.table_story(t) for t in lesson.tables]
        facts, cites = cited(lesson, "student")
        teacher_only = [f for f in lesson.facts("teacher") if not verified(f)]
        context = {
            "summary": analysis.class_summary(stories),
            "stories": stories,
            "cited": facts,
            "citations": cites.facts,
            "teacher_only": teacher_only,
        }
        return "scenarios/bermuda/class_packet.html", context, {"fleets": sum(len(s["fleets"]) for s in stories)}

    def early(self, lesson, table, seat):
        """A fleet whose table has finished while others still sail: the same fleet sailed
        again keeping out of the cone, questions about the table's voyage, and the facts."""
        story = analysis.table_story(table)
        mine = next(r for r in story["fleets"] if r["seat"] == seat)
        comparison = gettext(
            "We sailed your fleet again with the same dice and the same cloud, making your own moves except where "
            "you sailed into the danger area when a clearer move was open; there it took the best freight among "
            "the clearest moves. It would hold %(freight)s, and lose %(lost)s of freight and %(ships)s ships."
        ) % {
            "freight": money(mine["clear"]["freight_usd"]),
            "lost": money(mine["clear"]["lost_usd"]),
            "ships": mine["clear"]["ships_lost"],
        }
        held = gettext("Your fleet holds %(freight)s of freight and lost %(lost)s with %(ships)s ships.") % {
            "freight": money(mine["freight_usd"]),
            "lost": money(mine["lost_usd"]),
            "ships": mine["ships_lost"],
        }
        questions = [
            gettext(
                "When did your table sail into the cone although a clearer move was open? What made the risk look worth it?"
            ),
            gettext("Real captains keep far outside a storm's forecast cone. Why is the cone wider days ahead?"),
            gettext("What would you tell a captain who wants to sail just ahead of a hurricane to save a day?"),
        ]
        facts, _cites = cited(lesson, "student")
        return early_finish([held, comparison], questions, [c["fact"] for c in facts][:2])

    def decisions(self, lesson, seat_ids, named):
        rows = []
        for table in lesson.tables:
            story = analysis.table_story(table)
            for r in story["fleets"]:
                row = {
                    "seat_id": seat_ids.get((table["table"], r["seat"])),
                    "table": table["table"],
                    "seat": r["seat"],
                    "freight": r["freight"],
                    "lost_freight": r["lost_freight"],
                    "ships_lost": r["ships_lost"],
                    "moves": r["moves"],
                    "into_cone": r["into_cone"],
                    "cone_avoidable": r["cone_avoidable"],
                    "clear_lost_freight": r["clear"]["lost_freight"],
                    "rank": r["rank"],
                }
                if named:
                    row["nickname"] = r["name"] or ""
                rows.append(row)
        return rows


DEBRIEF = BermudaDebrief()
