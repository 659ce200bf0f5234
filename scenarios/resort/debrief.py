"""Hurricane (the resort game)'s debrief part (``scenarios.debrief.Debrief``): the storm named
with its real track beside the lines the game read, what each option cost and saved on this
storm and across every real storm in the deck (the same resorts re-run with other choices),
how well the class plotted the storm, and cited facts on codes, seawalls, insurance and plans."""

from __future__ import annotations

from scenarios.audience import verified
from scenarios.debrief import Citations, data_uri, early_finish
from scenarios.words import gettext as _
from scenarios.words import gettext_noop, money

from . import ENGINE, analysis, charts

#: which knowledge-base facts speak to which part of the game, in the order they are cited
TOPICS = {
    "options": ("mitigation-pays",),
    "reinforce": ("fortified-roofs-sally", "charley-building-code"),
    "seawall": ("galveston-seawall", "seawall-alicia"),
    "insurance": ("flood-insurance-take-up", "harvey-flood-insurance"),
    "plan": ("household-emergency-plan",),
    "kit": ("water-per-day", "kit-three-days"),
    "scale": ("saffir-simpson", "cat4-damage"),
    "tracking": ("forecast-cone", "track-errors-shrinking"),
}


def cited(lesson, audience):
    """Each topic's facts this audience may see, numbered in one reference list."""
    facts = {f.key: f for f in lesson.facts(audience)}
    cites = Citations()
    return {topic: [cites.cite(facts[k]) for k in keys if k in facts] for topic, keys in TOPICS.items()}, cites


def questions(summary) -> list[dict]:
    out = [
        {"text": _("Which of your resorts did the storm reach, and which options would you buy again for them?")},
        {
            "text": _(
                "Was buying every option for every resort worth its price? Where is protection worth it, and where is it not?"
            )
        },
        {
            "text": _(
                "Why do forecasters give a storm's position as latitude and longitude? What went wrong when someone plotted it on the wrong square?"
            )
        },
    ]
    if summary["damage"] and summary["saved"]:
        out.insert(
            1,
            {
                "text": _(
                    "Options saved the class money on this storm. Would they have saved as much on a storm that missed you?"
                )
            },
        )
    return out


def storm_chart(table) -> str:
    state = table["state"]
    return data_uri(
        charts.track_map(
            ENGINE.program(state),
            state["line"],
            {"legend": _("Dashed line: the storm's real track. Numbered dots: the program lines read in the game.")},
        )
    )


#: What the game's winning strategy teaches (RULES.md, "Balance"): the class debrief says it
#: in the class's language (``templates/scoring/debrief_base.html``).
TEACHES = gettext_noop(
    "What the winning strategy teaches: in this game the owner who protects each resort (a plan and "
    "kit, a seawall, stronger buildings) ends richest more often than one who never protects, "
    "because across many storms the measures cost less than the damage they avoid. Insurance moves a"
    " loss for a price; the measures that make the loss smaller are what pays."
)


class ResortDebrief:
    teaches = TEACHES
    data_dictionary = {
        "decisions.storm": "The real storm (HURDAT2 name) whose program the table played.",
        "decisions.resorts": "Resorts the seat owned at the end.",
        "decisions.options_held": "Preparedness options held on those resorts at the end (0-5 each).",
        "decisions.most_options": "The most options the seat held on one resort at the end (0-5; a resort with n options holds the first n of kit, plan, seawall, reinforcement, insurance). The family plan reads it.",
        "decisions.options_bought": "Options the seat paid for during the game.",
        "decisions.spent_on_options": "Play dollars spent on options.",
        "decisions.damage": "Play dollars of storm damage the seat paid.",
        "decisions.saved_by_options": "Damage the options it held at each hit avoided.",
        "decisions.deck_none / deck_as_held": "Average damage over every storm in the deck for the final resorts, with no options and with the options held.",
        "decisions.exact_plots / plots": "Storm positions the seat plotted exactly, of those it plotted.",
        "decisions.worth": "Final score: cash plus resort values.",
    }

    def page(self, lesson, audience):
        summary = analysis.class_summary(lesson.tables)
        summary["questions"] = questions(summary)
        facts, cites = cited(lesson, audience)
        first = {}
        for table in lesson.tables:  # one chart per storm the class met
            first.setdefault(table["state"]["program"], table)
        charts_ = [{"storm": ENGINE.program(t["state"])["name"], "src": storm_chart(t)} for t in first.values()]
        return "scenarios/resort/debrief.html", {
            "summary": summary,
            "cited": facts,
            "citations": cites.facts,
            "charts": charts_,
        }

    def report(self, lesson, table, seat, name, progress):
        progress(30, gettext_noop("Re-running your resorts through every storm"))
        story = analysis.seat_rows([table])[seat]
        facts, cites = cited(lesson, "student")
        progress(60, gettext_noop("Drawing the storm's track"))
        program = ENGINE.program(table["state"])
        context = {
            "name": name,
            "story": story,
            "table": table["table"],
            "seat": seat + 1,
            "cited": facts,
            "citations": cites.facts,
            "chart": storm_chart(table),
            "storm": program,
            "lines": analysis.storm_lines(table["state"]),
            "flags": analysis.table_flags(table),
            "deck_size": len(analysis.PROGRAMS),
        }
        data = {
            "storm": program["key"],
            "worth": story["worth"],
            "damage": story["storm_damage"],
            "saved": story["storm_saved"],
            "spent": story["spent"],
            "exact": story["exact"],
            "facts": [f.key for f in cites.facts],
        }
        return "scenarios/resort/student_report.html", context, data

    def packet(self, lesson, progress):
        summary = analysis.class_summary(lesson.tables)
        summary["questions"] = questions(summary)
        facts, cites = cited(lesson, "student")
        progress(40, gettext_noop("Listing every resort owner"))
        teacher_only = [f for f in lesson.facts("teacher") if not verified(f)]
        context = {
            "summary": summary,
            "rows": analysis.seat_rows(lesson.tables),
            "cited": facts,
            "citations": cites.facts,
            "teacher_only": teacher_only,
        }
        return "scenarios/resort/class_packet.html", context, {"seats": summary["seats"], "tables": summary["tables"]}

    def early(self, lesson, table, seat):
        """A player whose table has finished while others still play: their resorts run again
        through this storm with no options and with all five, the class questions about the
        table, and the facts about the options."""
        state = table["state"]
        story = analysis.seat_story(state, seat)
        comparison = _(
            "Your resorts took %(damage)s of damage from this storm. With no options from when you bought them: "
            "%(none)s. With all five options: %(all)s."
        ) % {
            "damage": money(story["storm_damage"]),
            "none": money(story["storm_none"]),
            "all": money(story["storm_all"]),
        }
        table_summary = analysis.class_summary([table])
        facts, _cites = cited(lesson, "student")
        return early_finish(
            [comparison],
            questions(table_summary),
            [c["fact"] for cites in facts.values() for c in cites][:2],
        )

    def decisions(self, lesson, seat_ids, named):
        rows = []
        for row in analysis.seat_rows(lesson.tables):
            out = {
                "seat_id": seat_ids.get((row["table"], row["seat"])),
                "table": row["table"],
                "seat": row["seat"],
                "storm": row["storm"],
                "resorts": [r["id"] for r in row["resorts"]],
                "options_held": sum(r["options"] for r in row["resorts"]),
                "most_options": max((r["options"] for r in row["resorts"]), default=0),
                "options_bought": row["options_bought"],
                "spent_on_options": row["spent"],
                "damage": row["storm_damage"],
                "saved_by_options": row["storm_saved"],
                "deck_none": row["deck_none"],
                "deck_as_held": row["deck_as_held"],
                "exact_plots": row["exact"],
                "plots": row["tracked"],
                "worth": row["worth"],
            }
            if named:
                out["nickname"] = row["holder"]["name"] if row["holder"] else ""
            rows.append(out)
        return rows


DEBRIEF = ResortDebrief()
