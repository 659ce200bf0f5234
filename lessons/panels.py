"""The lesson kit's panels on scoring's pages (``scoring.panels``): the after-check's controls at
the head of the class debrief, the knowledge check's gain on the class debrief and the class
packet once the after-check has closed (before, they would give its answers away), a student's
own before/after and family-plan link in their report, the answers in the research export only
under the session's opt-in, and the class's family plans for the teacher's class PDF."""

from django.template.loader import render_to_string

from lessons import knowledge
from scoring import panels


def debrief_head(*, session, request=None, **_):
    """ "Open the after-check" / "Close the after-check" where the teacher stands at the end of
    play; nothing once it has closed (the results below say the rest)."""
    progress = knowledge.after_progress(session)
    if progress is None or progress["state"] == "closed":
        return ""
    return render_to_string(
        "lessons/_after_check.html", {"session": session, "progress": progress, "back": "debrief"}, request=request
    )


def debrief(*, session, **_):
    if not knowledge.answers_shown(session):
        return ""  # the after-check has not closed: no question or answer on the class's screen
    results = knowledge.class_results(session)
    if not results or not (results["before_n"] or results["after_n"]):
        return ""  # the check was on but nobody answered: nothing to show
    return render_to_string("lessons/_class_results.html", {"results": results, "session": session})


def student_report(*, participant, token="", **_):
    results = knowledge.student_results(participant)
    if not results and not token:
        return ""
    return render_to_string(
        "lessons/_student_results.html", {"results": results, "token": token, "participant": participant}
    )


def export(*, session):
    from scoring.models import DebriefSettings

    if not DebriefSettings.of(session).research_opt_in:
        return {}
    return {"knowledge_check": knowledge.export_rows(session), "data_dictionary": knowledge.EXPORT_DICTIONARY}


def family_plans(*, session, **_):
    """Every playing student's family plan as one printable document, each on its own pages,
    headed by nickname and table and written in that student's language."""
    from django.utils import translation

    from classroom import regions
    from lessons import services

    parts = []
    for seat, plan in services.family_plans(session):
        with translation.override(seat.participant.language):
            parts.append(
                {
                    "language": seat.participant.language,
                    "html": render_to_string(
                        "lessons/_class_plan_part.html",
                        {"plan": plan, "name": seat.participant.nickname, "table": seat.table.number},
                    ),
                }
            )
    return render_to_string(
        "lessons/print_class_plans.html",
        {"parts": parts, "session": session, "paper": regions.of(session).paper},
    )


def register():
    panels.register("debrief_head", debrief_head)
    panels.register("debrief", debrief)
    panels.register("packet", debrief)
    panels.register("student_report", student_report)
    panels.register("export", export)
    panels.register("family_plans", family_plans)
