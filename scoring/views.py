"""Debrief pages. Teachers reach only their own sessions (404 otherwise); a student reaches only
their own reports, through a signed link that expires."""

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from classroom import ratelimit
from classroom.models import Session
from scoring import jobs, panels, services
from scoring.models import ClassPrint, DebriefSettings, Report
from scoring.reports import language_of, panels_html


def _own_session(request, pk) -> Session:
    return get_object_or_404(Session, pk=pk, teacher=request.user)


def _own_report(request, pk) -> Report:
    return get_object_or_404(
        Report.objects.select_related("session", "seat__table", "seat__participant"),
        pk=pk,
        session__teacher=request.user,
    )


@login_required
def session_debrief(request, pk):
    """The projector page: this class beside real figures, from the move log, at once."""
    session = _own_session(request, pk)
    template, context = services.debrief_page(session, audience="student")
    return render(
        request,
        template,
        {
            **context,
            "head_panels": panels.html("debrief_head", session=session, request=request),
            "panels": panels.html("debrief", session=session),
        },
    )


@login_required
def session_reports(request, pk):
    session = _own_session(request, pk)
    return render(
        request,
        "scoring/reports.html",
        {
            "session": session,
            "status": services.job_status(session),
            "settings": DebriefSettings.of(session),
        },
    )


@login_required
@never_cache
def session_status(request, pk):
    return JsonResponse(services.job_status(_own_session(request, pk)))


@login_required
@require_POST
def session_settings(request, pk):
    session = _own_session(request, pk)
    services.update_settings(session=session, research_opt_in=request.POST.get("research_opt_in") == "on")
    return redirect("scoring:session_reports", pk=session.pk)


@login_required
@require_POST
def session_rebuild(request, pk):
    """Write every report again (after changing the settings, for example)."""
    session = _own_session(request, pk)
    if session.status != Session.Status.ENDED:
        raise Http404
    if not jobs.request_rebuild(session=session):
        messages.info(
            request,
            _(
                "The reports are being written already, or were rebuilt many times in the "
                "last hour. Wait for them to finish, then try again."
            ),
        )
    return redirect("scoring:session_reports", pk=session.pk)


@login_required
@never_cache
def export_csv(request, pk):
    session = _own_session(request, pk)
    response = HttpResponse(services.export_csv(session), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="stormwise-session-{session.pk}-moves.csv"'
    return response


@login_required
@never_cache
def export_json(request, pk):
    session = _own_session(request, pk)
    response = HttpResponse(
        json.dumps(services.export_data(session), indent=1, default=str), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="stormwise-session-{session.pk}.json"'
    return response


@login_required
@never_cache
def report_page(request, report):
    report = _own_report(request, report)
    if not report.html:
        raise Http404("This report has not been written yet.")
    return HttpResponse(panels.inject(report.html, panels_html(report.session, report.seat)))


def _pdf_response(request, report: Report, name: str) -> HttpResponse:
    if not report.pdf and report.status == Report.Status.DONE:  # written: printed now it is asked for
        jobs.ask_for_pdf(report=report)
        response = render(request, "scoring/printing.html", status=503)
        response["Retry-After"] = "5"
        return response
    if not report.pdf:
        raise Http404("This report has not been written yet.")
    response = HttpResponse(bytes(report.pdf), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    return response


@login_required
@never_cache
def report_pdf(request, report):
    report = _own_report(request, report)
    return _pdf_response(request, report, f"stormwise-report-{report.pk}")


@login_required
@never_cache
def class_pdf(request, pk, kind):
    """One PDF of the whole class (every summary, every full report, or every family plan),
    printed by the worker the first time the teacher asks; "almost ready" until then."""
    session = _own_session(request, pk)
    if kind not in ClassPrint.Kind.values or session.status != Session.Status.ENDED:
        raise Http404
    printed = services.class_print(session, kind)
    if printed is None:
        jobs.ask_for_class_pdf(session=session, kind=kind)
        response = render(request, "scoring/printing.html", {"whole_class": True}, status=503)
        response["Retry-After"] = "5"
        return response
    response = HttpResponse(bytes(printed.pdf), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="stormwise-class-{session.pk}-{kind}.pdf"'
    return response


@login_required
@require_POST
def report_retry(request, report):
    report = _own_report(request, report)
    queued = jobs.request_retry(report=report)
    if "application/json" in request.headers.get("Accept", ""):
        return JsonResponse({"ok": queued})
    if not queued:
        messages.info(
            request,
            _(
                "This report is being written already, or was retried many times in the "
                "last hour. Wait for it to finish, then try again."
            ),
        )
    return redirect("scoring:session_reports", pk=report.session_id)


def _student_reports(request, token):
    """The participant a report link names and their reports; (None, []) for a forged or expired
    link, and for the lesson's own tablet (it holds the lesson's cookie) once
    ``DEVICE_REPORT_HOURS`` have passed: the next child on a shared tablet must not find the
    last one's report in the browser's history. At home the link works on."""
    from classroom.consumers import token_cookie

    participant = services.participant_for_link(token)
    if participant is None:
        return None, []
    if token_cookie(participant.session_id) in request.COOKIES and not services.device_may_open_report(
        participant.session
    ):
        return None, []
    return participant, services.student_reports(participant)


@never_cache
def student_report(request, token):
    """A student's own report(s); a forged or expired link is refused (410 Gone, said plainly)."""
    participant, reports = _student_reports(request, token)
    if participant is None:
        return render(request, "scoring/link_expired.html", status=410)
    wanted = request.GET.get("r")
    chosen = (
        next((r for r in reports if str(r.pk) == wanted), None)
        if wanted
        else (reports[0] if len(reports) == 1 else None)
    )
    if chosen is not None and chosen.html:
        # what is added to the stored page speaks its language, whatever the browser asks for
        with translation.override(language_of(chosen.html) or translation.get_language()):
            link = format_html(
                '<a class="pdf-link" href="{}.pdf">{}</a>', chosen.pk, _("Download this report as a PDF")
            )
            added = panels.html("student_report", participant=participant, token=token)
        return HttpResponse(panels.inject(chosen.html.replace("<!--pdf-link-->", link), added))
    return render(
        request,
        "scoring/student_waiting.html",
        {"participant": participant, "reports": reports, "all_ready": reports and all(r.html for r in reports)},
    )


@never_cache
def student_report_pdf(request, token, report):
    participant, reports = _student_reports(request, token)
    if participant is None:
        return render(request, "scoring/link_expired.html", status=410)
    mine = next((r for r in reports if r.pk == report), None)
    if mine is None:
        raise Http404
    # only a PDF that is there counts: "almost ready" (its page refreshing) prints at most once a
    # minute (``jobs.PDF_ASK_SECONDS``) and asks nothing of the limit
    if mine.pdf and not ratelimit.hit(f"report-pdf:{participant.pk}", ratelimit.PDFS_PER_MINUTE["device"], 60):
        return render(request, "registration/throttled.html", {"minutes": 1}, status=429)
    return _pdf_response(request, mine, "my-stormwise-report")


@never_cache
def my_report(request, pk):
    """From a student's device at the end of the game: on to their own signed report link.

    The device's cookie names the participant (as on the play page); a device that never joined
    this lesson gets a 404, and so does one asking more than ``DEVICE_REPORT_HOURS`` after the
    lesson ended (the next child on a shared tablet).
    """
    from classroom.consumers import token_cookie
    from classroom.services import participant_for_token

    session = get_object_or_404(Session, pk=pk)
    participant = participant_for_token(session, request.COOKIES.get(token_cookie(session.pk)))
    if participant is None or not services.device_may_open_report(session):
        raise Http404
    return redirect(services.student_report_url(participant))
