"""Project Stormfury's debrief part (``scenarios.debrief.Debrief``): per team, not per seat. The
projector page, each team's report beside the policy bot on the same storm, the class packet and
the export's one row per team."""

from __future__ import annotations

from scenarios.audience import verified
from scenarios.debrief import Citations, data_uri, early_finish
from scenarios.words import gettext, gettext_noop

from . import analysis, charts


def team_stories(lesson, tables=None) -> list[dict]:
    """Every table's team story, each with the policy bot's result on the same storm and deck."""
    tables = tables if tables is not None else lesson.tables
    return [analysis.team_story(t, lesson.policy_results(t)) for t in tables]


#: What the game's winning strategy teaches (RULES.md, "Balance"): the class debrief says it
#: in the class's language (``templates/scoring/debrief_base.html``).
TEACHES = gettext_noop(
    "What the winning strategy teaches: in this game the teams that strengthen buildings and move "
    "people away from the water before the storm do the least damage. Nobody can stop the storm; "
    "what is ready before it comes decides what it takes."
)


class StormfuryDebrief:
    teaches = TEACHES
    data_dictionary = {
        "decisions (stormfury)": "One row per team: damage in total and by type (population = people not yet evacuated), roads flooded, what the team evacuated, fortified and dammed.",
    }

    def page(self, lesson, audience):
        """The projector page: teams' damage by type beside real figures, and questions."""
        summary = analysis.class_summary(team_stories(lesson))
        facts = {f.key: f for f in lesson.facts(audience)}
        comparisons = {
            topic: (analysis.facts_for(topic, facts, limit=1) or [None])[0]
            for topic in ("people", "forecast", "roads", "held", "infrastructure")
        }
        citations = list(dict.fromkeys(f for f in comparisons.values() if f))
        cite = {name: citations.index(f) + 1 for name, f in comparisons.items() if f}
        return "scenarios/stormfury/debrief.html", {
            "summary": summary,
            "facts": comparisons,
            "cite": cite,
            "citations": citations,
        }

    def report(self, lesson, table, seat, name, progress):
        """One team's report: spending against forecast and storm, what held and was lost, escape
        routes, evacuate-or-fortify, each beside facts, and the policy bot side by side."""
        progress(20, gettext_noop("Replaying the policy bot on the same storm"))
        story = team_stories(lesson, [table])[0]
        facts = {f.key: f for f in lesson.facts("student")}
        cites = Citations()
        cited = {
            topic: [cites.cite(f) for f in analysis.facts_for(topic, facts)]
            for topic in ("forecast", "held", "infrastructure", "people", "roads", "evacuate")
        }
        progress(50, gettext_noop("Drawing charts"))
        chart_urls = {
            "map": data_uri(charts.storm_map(story)),
            "spending": data_uri(charts.spending_vs_forecast(story["cities"])),
            "damage": data_uri(charts.damage_side_by_side(story["team"], story["bot"])),
        }
        context = {
            "story": story,
            "table": table["table"],
            "charts": chart_urls,
            "cited": cited,
            "citations": cites.facts,
            "labels": dict(analysis.DAMAGE_TYPES),
            "likely": int(analysis.LIKELY * 100),
        }
        data = {
            "table": table["table"],
            "names": story["names"],
            "damage": story["team"]["damage_total"],
            "damage_by_type": story["team"]["damage_by_type"],
            "policy_bot": story["bot"]["damage_total"] if story["bot"] else None,
            "spending": {k: v for k, v in story["spending"].items() if k != "sealed"},
            "facts": [f.key for f in cites.facts],
        }
        return "scenarios/stormfury/team_report.html", context, data

    def packet(self, lesson, progress):
        """The class packet: damage by team beside the bot, spread, questions, facts."""
        summary = analysis.class_summary(team_stories(lesson))
        facts = {f.key: f for f in lesson.facts("student")}
        cites = Citations()
        cited = {
            topic: [cites.cite(f) for f in analysis.facts_for(topic, facts)]
            for topic in ("people", "forecast", "roads", "held")
        }
        progress(40, gettext_noop("Drawing charts"))
        chart_urls = {"damage": data_uri(charts.class_damage(summary["rows"]))}
        teacher_only = [f for f in lesson.facts("teacher") if not verified(f)]
        context = {
            "summary": summary,
            "charts": chart_urls,
            "cited": cited,
            "citations": cites.facts,
            "teacher_only": teacher_only,
        }
        return (
            "scenarios/stormfury/class_packet.html",
            context,
            {"teams": summary["teams"], "questions": summary["questions"]},
        )

    def early(self, lesson, table, seat):
        """A team whose storm has passed while other tables still play: its damage beside the
        policy bot's on the same storm and deck, the questions about the team's game, and the
        facts about people and forecasts."""
        story = team_stories(lesson, [table])[0]
        team, bot = story["team"], story["bot"]
        whatif = []
        if bot:
            whatif.append(
                gettext(
                    "The computer player that filled empty seats played your table's own storm and card deck: its "
                    "damage was %(bot)s. Your team's damage: %(team)s."
                )
                % {"bot": bot.get("damage_at_stop", bot["damage_total"]), "team": team["damage_total"]}
            )
        summary = analysis.class_summary([story])
        facts = {f.key: f for f in lesson.facts("student")}
        shown = [f for topic in ("people", "forecast") for f in analysis.facts_for(topic, facts, limit=1)]
        return early_finish(whatif, summary["questions"], shown)

    def decisions(self, lesson, seat_ids, named):
        rows = []
        for table in lesson.tables:
            story = analysis.team_story(table)
            seats_held = [
                seat_ids.get((table["table"], seat)) for seat, holder in sorted(table["holders"].items()) if holder
            ]
            row = {
                "table": table["table"],
                "seat_ids": seats_held,
                "damage": story["team"]["damage_total"],
                **{f"damage_{key}": value for key, value in story["team"]["damage_by_type"].items()},
                "people_not_evacuated": story["team"]["people_not_evacuated"],
                "flooded_roads": story["team"]["flooded_roads"],
                "evacuated": story["spending"]["evacuated"],
                "fortify_people": story["spending"]["fortify_people"],
                "fortify_infrastructure": story["spending"]["fortify_infrastructure"],
                "dams": story["spending"]["dams"],
                "rounds": story["team"]["rounds"],
                "unfinished": story["flags"]["unfinished"],
                "bot_finished": story["flags"]["bot_finished"],
            }
            if named:
                row["nicknames"] = story["names"]
            rows.append(row)
        return rows


DEBRIEF = StormfuryDebrief()
