"""Writing the reports: a student's (or the class packet) page, charts and PDF from the move log.

Each function returns ``(html, pdf_bytes, data)``; ``services.build_report`` stores all three at
once. The HTML is a complete document with its stylesheet inline and charts as SVG data URIs,
so the web page and the PDF are the same document.
"""
from __future__ import annotations

import base64
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone

from scoring import analysis, charts, counterfactuals
from scoring.services import DebriefSettings, matching_facts, shown_facts, table_records


@lru_cache(maxsize=1)
def _stylesheet() -> str:
    """The report half of debrief.css (the projector half has screen media queries WeasyPrint ignores)."""
    text = (Path(settings.BASE_DIR) / "static" / "css" / "debrief.css").read_text(encoding="utf-8")
    return text[text.index("/* Report documents"):]


def _data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


@lru_cache(maxsize=1)
def _print_setup():
    """One font configuration and one parsed report stylesheet per worker process, shared by
    every PDF it prints (each PDF otherwise set up fontconfig and parsed the CSS again)."""
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()
    return fonts, CSS(string=_stylesheet(), font_config=fonts)


def pdf_of(html: str) -> bytes:
    """The PDF of a report page (WeasyPrint; fonts from the system, nothing fetched).

    The page carries the report stylesheet inline (so it stands alone on the web); for print
    the inline copy is dropped and the worker's parsed copy used instead.
    """
    from weasyprint import HTML

    fonts, stylesheet = _print_setup()
    inline = f"<style>{_stylesheet()}</style>"
    if inline in html:
        return HTML(string=html.replace(inline, "", 1), base_url=str(settings.BASE_DIR)).write_pdf(
            stylesheets=[stylesheet], font_config=fonts)
    return HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf(font_config=fonts)


class Citations:
    """Numbers each fact the first time a report cites it, for a reference list at the end."""

    def __init__(self):
        self.facts = []

    def cite(self, fact) -> dict:
        """The fact and its number; ``repeat`` once it has been stated in full earlier."""
        repeat = fact in self.facts
        if not repeat:
            self.facts.append(fact)
        return {"fact": fact, "n": self.facts.index(fact) + 1, "repeat": repeat}


def student_report(session, seat, *, progress=lambda percent, step: None):
    """One household's report: decisions beside facts, points and safety, counterfactuals."""
    tables = table_records(session)
    table = next(t for t in tables if t["table"] == seat.table.number)
    story = analysis.seat_story(table, seat.number)
    story["flags"] = analysis.table_flags(table)
    summary = analysis.class_summary(tables)
    facts = shown_facts(session, "student")
    cites = Citations()
    for step in story["timeline"]:
        step["facts"] = [cites.cite(f) for f in matching_facts(step["tags"], facts)]
    outcome_tags = {"evacuated": ["destination", story["destination"] or ""], "stayed home": ["stay"],
                    "caught on the road": ["traffic"], "game ended early": ["leave_time"]}[story["outcome"]]
    outcome_facts = [cites.cite(f) for f in matching_facts(outcome_tags, facts)]
    progress(30, "Re-running futures from the decision point")
    items = counterfactuals.for_household(table, story, counterfactuals.FUTURES)
    progress(70, "Drawing charts")
    chart_urls = {"timeline": _data_uri(charts.decision_timeline(story)),
                  "departures": _data_uri(charts.departures(summary["departures"], story["left_hour"]))}
    if items:
        chart_urls["counterfactual"] = _data_uri(charts.counterfactual(items))
    holder = seat.participant
    context = {
        "session": session, "story": story, "name": holder.nickname if holder else "", "table": seat.table.number,
        "seat": seat.number + 1, "counterfactuals": items, "charts": chart_urls,
        "outcome_facts": outcome_facts, "citations": cites.facts, "summary": summary,
        "css": _stylesheet(), "generated": timezone.now(),
        "futures": items[0]["alternative"]["futures"] if items else counterfactuals.FUTURES,
        "first_futures": counterfactuals.FIRST_FUTURES, "all_futures": counterfactuals.FUTURES,
        "settings": DebriefSettings.of(session),
    }
    html = render_to_string("scoring/student_report.html", context)
    progress(85, "Printing the PDF")
    pdf = pdf_of(html)
    data = {"seat": seat.number, "table": seat.table.number, "left_hour": story["left_hour"],
            "outcome": story["outcome"], "score": story["score"],
            "counterfactuals": [{k: v for k, v in item.items() if k != "sentence"} | {"sentence": item["sentence"]}
                                for item in items],
            "facts": [f.key for f in cites.facts]}
    return html, pdf, data


def class_packet(session, *, progress=lambda percent, step: None):
    """The printable class packet: distributions, spread between tables, questions, households."""
    tables = table_records(session)
    summary = analysis.class_summary(tables)
    facts = {f.key: f for f in shown_facts(session, "student")}
    real = facts.get("destinations-florida-2004")
    if real:
        for row in summary["destinations"]:
            row["real"] = real.values.get(row["key"])
        summary["questions"] = analysis.discussion_questions(summary, real.values["relative"])
    cites = Citations()
    names = {"destinations": "destinations-florida-2004", "timing": "when-households-leave-ike",
             "shelter": "shelter-last-resort"}
    cited = {name: cites.cite(facts[key]) for name, key in names.items() if key in facts}
    progress(40, "Drawing charts")
    chart_urls = {"departures": _data_uri(charts.departures(summary["departures"], None)),
                  "destinations": _data_uri(charts.destinations(summary["destinations"],
                                                                "Florida 2004 [%d]" % cited["destinations"]["n"]
                                                                if real else None))}
    teacher_only = [f for f in shown_facts(session, "teacher") if not f.verified]
    homes = analysis.households(tables)
    context = {"session": session, "summary": summary, "charts": chart_urls, "cited": cited,
               "citations": cites.facts, "homes": homes, "teacher_only": teacher_only,
               "css": _stylesheet(), "generated": timezone.now(), "settings": DebriefSettings.of(session)}
    html = render_to_string("scoring/class_packet.html", context)
    progress(80, "Printing the PDF")
    pdf = pdf_of(html)
    return html, pdf, {"households": summary["households"], "questions": summary["questions"]}


# --- Stormfury ----------------------------------------------------------------------------------

def team_stories(session, tables=None) -> list[dict]:
    """Every table's team story, each with the policy bot's result on the same storm and deck."""
    from games.services import policy_results
    from games.models import Game

    from scoring import stormfury

    tables = tables if tables is not None else table_records(session)
    games = Game.objects.in_bulk([t["game"] for t in tables])
    return [stormfury.team_story(t, policy_results(games[t["game"]])) for t in tables]


def team_report(session, seat, *, progress=lambda percent, step: None):
    """One Stormfury team's report: spending against forecast and storm, what held and was lost,
    escape routes, evacuate-or-fortify, each beside facts, and the policy bot side by side."""
    from scoring import stormfury

    tables = table_records(session)
    table = next(t for t in tables if t["table"] == seat.table.number)
    progress(20, "Replaying the policy bot on the same storm")
    story = team_stories(session, [table])[0]
    facts = {f.key: f for f in shown_facts(session, "student")}
    cites = Citations()
    cited = {topic: [cites.cite(f) for f in stormfury.facts_for(topic, facts)]
             for topic in ("forecast", "held", "infrastructure", "people", "roads", "evacuate")}
    progress(50, "Drawing charts")
    chart_urls = {"map": _data_uri(charts.storm_map(story)),
                  "spending": _data_uri(charts.spending_vs_forecast(story["cities"])),
                  "damage": _data_uri(charts.damage_side_by_side(story["team"], story["bot"]))}
    context = {"session": session, "story": story, "table": seat.table.number, "charts": chart_urls,
               "cited": cited, "citations": cites.facts, "css": _stylesheet(), "generated": timezone.now(),
               "settings": DebriefSettings.of(session), "labels": dict(stormfury.DAMAGE_TYPES),
               "likely": int(stormfury.LIKELY * 100)}
    html = render_to_string("scoring/team_report.html", context)
    progress(80, "Printing the PDF")
    pdf = pdf_of(html)
    data = {"table": seat.table.number, "names": story["names"], "damage": story["team"]["damage_total"],
            "damage_by_type": story["team"]["damage_by_type"],
            "policy_bot": story["bot"]["damage_total"] if story["bot"] else None,
            "spending": {k: v for k, v in story["spending"].items() if k != "sealed"},
            "facts": [f.key for f in cites.facts]}
    return html, pdf, data


def team_packet(session, *, progress=lambda percent, step: None):
    """The Stormfury class packet: damage by team beside the bot, spread, questions, facts."""
    from scoring import stormfury

    summary = stormfury.class_summary(team_stories(session))
    facts = {f.key: f for f in shown_facts(session, "student")}
    cites = Citations()
    cited = {topic: [cites.cite(f) for f in stormfury.facts_for(topic, facts)]
             for topic in ("people", "forecast", "roads", "held")}
    progress(40, "Drawing charts")
    chart_urls = {"damage": _data_uri(charts.class_damage(summary["rows"]))}
    teacher_only = [f for f in shown_facts(session, "teacher") if not f.verified]
    context = {"session": session, "summary": summary, "charts": chart_urls, "cited": cited,
               "citations": cites.facts, "teacher_only": teacher_only, "css": _stylesheet(),
               "generated": timezone.now(), "settings": DebriefSettings.of(session)}
    html = render_to_string("scoring/team_packet.html", context)
    progress(80, "Printing the PDF")
    pdf = pdf_of(html)
    return html, pdf, {"teams": summary["teams"], "questions": summary["questions"]}
