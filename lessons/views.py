"""Lesson-kit pages. Teachers reach the guides and printables of every installed scenario and the
kit of their own sessions only (404 otherwise); a student reaches the check and family plan of
the lesson their device joined (its cookie), or their plan through their signed report link."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from classroom import guesses, ratelimit, regions
from classroom.models import Session
from lessons import knowledge, meanwhile, printing, services
from lessons.models import CheckAnswer, KnowledgeCheck
from scenarios import registry
from scenarios.audience import Audience


def _scenario(key):
    if key not in registry.keys():
        raise Http404
    return registry.get(key)


def _own_session(request, pk) -> Session:
    return get_object_or_404(Session, pk=pk, teacher=request.user)


def _pdf(pdf: bytes, name: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    return response


# --- Teacher: guides and printables ------------------------------------------------------------------


@login_required
def guide(request, scenario):
    scenario = _scenario(scenario)
    session = _chosen_session(request)
    return render(
        request,
        "lessons/guide.html",
        {**services.guide_context(scenario, session), "session_pk": session.pk if session else None},
    )


def _session_param(request) -> int | None:
    """The session id of ``?session=``, if it holds one: a link whose value is no session id
    (``abc``, ``²``, a number past any id) opens the page as it is without one, never a server
    error."""
    raw = request.GET.get("session", "")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 18):
        return None
    return int(raw)


def _chosen_session(request) -> Session | None:
    """The teacher's own session named by ``?session=`` (its region sets the paper), if any."""
    pk = _session_param(request)
    return Session.objects.filter(pk=pk, teacher=request.user).first() if pk is not None else None


@login_required
@never_cache
def guide_pdf(request, scenario):
    if not ratelimit.kit_pdf_allowed(request):
        return _too_many_pdfs(request)
    scenario = _scenario(scenario)
    return _pdf(printing.guide_pdf(scenario, _chosen_session(request)), f"stormwise-guide-{scenario.key}")


@login_required
@never_cache
def printables_pdf(request, scenario):
    """Every printable of the scenario, or one (``?only=<key>``), drawn from its content files,
    for the class of ``?session=<id>`` (what its students may see), or else for the gentlest,
    youngest class."""
    if not ratelimit.kit_pdf_allowed(request):
        return _too_many_pdfs(request)
    scenario = _scenario(scenario)
    only = request.GET.get("only")
    chosen = [p for p in scenario.kit.printables if not only or p.key == only]
    if not chosen:
        raise Http404
    session = _chosen_session(request)
    reader = session.audience if session else Audience()
    return _pdf(printing.printables_pdf(scenario, chosen, reader, session), f"stormwise-printables-{scenario.key}")


def _card(scenario):
    card = scenario.how_to_play
    if card is None:
        raise Http404
    return card


def how_to_play(request, scenario):
    """The scenario's one-minute "how to play" card, for a tablet (``?session=<id>`` adds the way
    back to that lesson's game). Open to anyone: it holds the rules, nothing of a class."""
    scenario = _scenario(scenario)
    return render(
        request,
        "lessons/how_to_play.html",
        {"scenario": scenario, "card": _card(scenario), "session_pk": _session_param(request)},
    )


@login_required
@never_cache
def how_to_play_pdf(request, scenario):
    """The card to print, one per table, on the paper of ``?session=<id>``'s region (Letter without)."""
    if not ratelimit.kit_pdf_allowed(request):
        return _too_many_pdfs(request)
    scenario = _scenario(scenario)
    return _pdf(
        printing.how_to_play_pdf(scenario, _card(scenario), _chosen_session(request)),
        f"stormwise-how-to-play-{scenario.key}",
    )


# --- Teacher: a session's kit ------------------------------------------------------------------------


@login_required
@never_cache
def kit(request, pk):
    """The session's lesson kit: guide, printables, handout, knowledge check and family plan."""
    session = _own_session(request, pk)
    scenario = registry.get(session.scenario)
    check = KnowledgeCheck.of(session)
    items = [knowledge.shown(item) for item in session.check_items.select_related("session")]
    return render(
        request,
        "lessons/kit.html",
        {
            "session": session,
            "scenario": scenario,
            "check": check,
            "items": items,
            "results": knowledge.class_results(session),
            "phase": knowledge.phase_open(session),
            "reports_url": reverse("scoring:session_reports", args=[session.pk]),
            "answer_letters": "ABCD",
            "regions": regions.choices(),
        },
    )


#: what the kit page's forms post to ``kit_command``
KIT_COMMANDS = ("check-on", "check-off", "open-after", "close-after", "item", "office", "region")
#: pages other than the kit whose after-check buttons post here, and come back to
BACK_TO = {"session": "classroom:session", "debrief": "scoring:session_debrief"}


@login_required
@require_POST
def kit_command(request, pk, command):
    session = _own_session(request, pk)
    if command not in KIT_COMMANDS:
        raise Http404
    try:
        if command == "check-on":
            knowledge.set_check(session=session, enabled=True)
            messages.success(request, _("The knowledge check is on: students see it on their tablets before play."))
        elif command == "check-off":
            knowledge.set_check(session=session, enabled=False)
        elif command == "open-after":
            knowledge.open_after(session=session)
            messages.success(
                request,
                _("The after-check is open: each student answers the other set of questions, and tablets show it now."),
            )
        elif command == "close-after":
            knowledge.close_after(session=session)
            messages.success(
                request,
                _(
                    "The after-check is closed: answers sent are kept, and the debrief now shows the questions and answers."
                ),
            )
        elif command == "item":
            raw_id = request.POST.get("item")
            knowledge.save_item(
                session=session,
                item_id=int(raw_id) if raw_id and raw_id.isascii() and raw_id.isdigit() else None,
                question=request.POST.get("question", ""),
                choices=request.POST.getlist("choice")[:4],
                answer=request.POST.get("answer"),
                used=request.POST.get("used") == "on",
            )
            messages.success(request, _("Question saved."))
        elif command == "region":
            services.set_region(session=session, region=request.POST.get("region", ""))
            messages.success(request, _("The family plan and printables now follow this region."))
        elif command == "office":
            services.set_local_office(session=session, text=request.POST.get("local_office", ""))
            messages.success(request, _("The family plan now names your local office."))
    except services.CheckError as error:
        messages.error(request, str(error))
    return redirect(BACK_TO.get(request.POST.get("back", ""), "lessons:kit"), pk=session.pk)


@login_required
@never_cache
def handout_pdf(request, pk):
    """Join-code slips with the QR code, to cut and put on the tables."""
    if not ratelimit.kit_pdf_allowed(request):
        return _too_many_pdfs(request)
    session = _own_session(request, pk)
    return _pdf(printing.handout_pdf(session), f"stormwise-join-{session.join_code}")


@login_required
@never_cache
def plan_sample(request, pk):
    """The family plan as a student who has not played would get it (the teacher's preview)."""
    session = _own_session(request, pk)
    return render(
        request, "lessons/plan.html", {"plan": services.family_plan_blank(session), "session": session, "preview": True}
    )


# --- Student: the check and the family plan -----------------------------------------------------------


def _device_participant(request, pk):
    from classroom.consumers import token_cookie
    from classroom.services import participant_for_token
    from scoring.services import device_may_open_report

    session = get_object_or_404(Session, pk=pk)
    participant = participant_for_token(session, request.COOKIES.get(token_cookie(session.pk)))
    if participant is None or not device_may_open_report(session):
        raise Http404
    return participant


@never_cache
def student_check(request, pk):
    """The questions open to this student now (before play, or when play has ended), in their own
    order; after the after-check, what changed since the before-check."""
    participant = _device_participant(request, pk)
    phase = knowledge.offered_phase(participant)
    error = ""
    if request.method == "POST":
        sent = request.POST.get("phase", "")
        try:
            right = knowledge.submit_answers(participant=participant, phase=sent, answers=request.POST)
            return render(
                request,
                "lessons/check_done.html",
                {
                    "participant": participant,
                    "phase": sent,
                    "right": right,
                    "results": knowledge.student_results(participant),
                },
            )
        except services.CheckError as err:
            error = str(err)
            # Answers in hand when the game started: let the student fix what was refused.
            if sent == CheckAnswer.Phase.BEFORE and phase is None and _in_hand(participant):
                phase = sent
    done = phase is not None and knowledge.answered(participant, phase)
    items = knowledge.items_for(participant, phase) if phase and not done else []
    if phase and not done and not items:
        phase = None  # the teacher dropped every question: nothing to answer
    if phase and not done:
        knowledge.opened(participant, phase)
    closed = phase is None and knowledge.before_closed(participant)
    # not let in yet: the questions wait for the teacher's approval (the tablet follows it live)
    waiting = phase is None and not participant.approved and knowledge.phase_for(participant) is not None
    return render(
        request,
        "lessons/check.html",
        {
            "participant": participant,
            "session": participant.session,
            "phase": phase,
            "done": done,
            "items": items,
            "closed": closed,
            "waiting": waiting,
            "after_closed": phase is None and knowledge.after_closed(participant),
            "error": error,
            "picked": request.POST if error else {},
            "before": CheckAnswer.Phase.BEFORE,
        },
        status=400 if error else 200,
    )


def _in_hand(participant) -> bool:
    return (
        knowledge.before_closed(participant)
        and not knowledge.answered(participant, "before")
        and knowledge.student(participant).before_opened_at is not None
    )


@never_cache
def student_plan(request, pk):
    participant = _device_participant(request, pk)
    return render(
        request,
        "lessons/plan.html",
        {"plan": services.family_plan(participant), "session": participant.session, "pdf_url": "plan.pdf"},
    )


@never_cache
def student_meanwhile(request, pk):
    """What this device's student does while the others finish (``lessons.meanwhile``), in the
    tablet's language; ``{"early": null}`` while their game goes on."""
    participant = _device_participant(request, pk)
    return JsonResponse({"early": meanwhile.early_finish(participant)})


def _student_pdf_allowed(request, participant) -> bool:
    """Counted per device (its signed cookie; without one, the seat it asks for) and address."""
    return ratelimit.student_pdf_allowed(
        device=guesses.signed_device(request) or f"seat-{participant.pk}", address=request.META.get("REMOTE_ADDR", "")
    )


def _too_many_pdfs(request):
    return render(request, "registration/throttled.html", {"minutes": 1}, status=429)


@never_cache
def student_plan_pdf(request, pk):
    participant = _device_participant(request, pk)
    if not _student_pdf_allowed(request, participant):
        return _too_many_pdfs(request)
    return _pdf(printing.plan_pdf(services.family_plan(participant)), "my-family-plan")


def _linked_participant(token):
    from scoring.services import participant_for_link

    participant = participant_for_link(token)
    if participant is None:
        raise Http404
    return participant


@never_cache
def linked_plan(request, token):
    """The family plan through the student's signed report link (from their report)."""
    participant = _linked_participant(token)
    return render(
        request,
        "lessons/plan.html",
        {"plan": services.family_plan(participant), "session": participant.session, "pdf_url": "plan.pdf"},
    )


@never_cache
def linked_plan_pdf(request, token):
    participant = _linked_participant(token)
    if not _student_pdf_allowed(request, participant):
        return _too_many_pdfs(request)
    return _pdf(printing.plan_pdf(services.family_plan(participant)), "my-family-plan")
