"""Pages and endpoints for teachers and students. Thin: each calls a service or a selector."""
import asyncio
import json
import secrets

import qrcode
import qrcode.image.svg
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from classroom import guesses, selectors, services
from classroom.consumers import MAX_FRAME_BYTES, token_cookie
from classroom.forms import JoinForm, SessionForm, SignUpForm
from classroom.models import Participant, Seat, Session
from games.refusals import Refused
from scenarios import registry

TOKEN_MAX_AGE = 14 * 24 * 3600  # a parked lesson resumes days later on the same tablet
LONG_POLL_SECONDS = 20


def signup(request):
    if request.user.is_authenticated:
        return redirect("classroom:home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        teacher = form.save()
        login(request, teacher, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to Stormwise! Your account is ready."))
        return redirect("classroom:home")
    return render(request, "registration/signup.html", {"form": form})


# --- Teacher ----------------------------------------------------------------------------------------

def _own_session(request, pk) -> Session:
    """The session if it belongs to the signed-in teacher; 404 otherwise (never 403: no leaks)."""
    return get_object_or_404(Session, pk=pk, teacher=request.user)


@login_required
def home(request):
    return render(request, "classroom/home.html", {"sessions": request.user.sessions.all()[:50],
                                                   "retention_days": settings.RETENTION_DAYS})


def _scenario_options():
    return {scenario.key: scenario.options() for scenario in registry.all()}


@login_required
def session_new(request):
    form = SessionForm(request.POST or None, scenario_options=_scenario_options())
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        session = services.create_session(
            teacher=request.user, scenario=data["scenario"], title=data["title"],
            seats_per_table=data["seats_per_table"], fill_with_bots=data["fill_with_bots"],
            turn_timer=data["turn_timer"], turn_seconds=data["turn_seconds"], names=data["names"],
            seed=data["seed"], options=form.engine_options(),
        )
        return redirect(session)
    return render(request, "classroom/session_new.html", {"form": form})


@login_required
def session_detail(request, pk):
    session = _own_session(request, pk)
    return render(request, "classroom/session.html", {
        "session": session, "scenario": registry.get(session.scenario), "dashboard": selectors.dashboard(session),
        "code": services.format_code(session.join_code), "join_url": selectors.join_url(session),
    })


@login_required
def session_dashboard_json(request, pk):
    """The dashboard snapshot over plain HTTP, for networks that block WebSockets."""
    return JsonResponse(selectors.dashboard(_own_session(request, pk)))


@login_required
def session_screen(request, pk):
    session = _own_session(request, pk)
    return render(request, "classroom/screen.html", {
        "session": session, "scenario": registry.get(session.scenario), "code": services.format_code(session.join_code),
        "join_url": selectors.join_url(session), "dashboard": selectors.dashboard(session),
    })


@login_required
def session_qr(request, pk):
    session = _own_session(request, pk)
    image = qrcode.make(selectors.join_url(session), image_factory=qrcode.image.svg.SvgPathImage,
                        box_size=20, border=2)
    return HttpResponse(image.to_string(), content_type="image/svg+xml")


def _participant(session, pk) -> Participant:
    return get_object_or_404(Participant, pk=pk, session=session)


def _seat(session, pk) -> Seat:
    return get_object_or_404(Seat.objects.select_related("table__session"), pk=pk, table__session=session)


COMMANDS = {
    "start": lambda s, p: services.start(session=s),
    "pause": lambda s, p: services.set_paused(session=s, paused=True),
    "park": lambda s, p: services.set_paused(session=s, paused=True, parked=True),
    "resume": lambda s, p: services.set_paused(session=s, paused=False),
    "finish-bots": lambda s, p: services.finish_with_bots(session=s),
    "end-now": lambda s, p: services.end_now(session=s),
    "storm-moves": lambda s, p: services.call_storm(session=s),
    "approve": lambda s, p: services.approve(participant=_participant(s, p.get("participant"))),
    "unapprove": lambda s, p: services.approve(participant=_participant(s, p.get("participant")), approved=False),
    "rename": lambda s, p: services.rename(participant=_participant(s, p.get("participant")), nickname=p.get("nickname", "")),
    "remove": lambda s, p: services.remove(participant=_participant(s, p.get("participant"))),
    "move": lambda s, p: services.move_participant(participant=_participant(s, p.get("participant")),
                                                   table_number=int(p.get("table") or 1)),
    "clear-ask": lambda s, p: services.ask_teacher(participant=_participant(s, p.get("participant")), asking=False),
    "to-bot": lambda s, p: services.hand_to_bot(seat=_seat(s, p.get("seat")), to_bot=True),
    "to-student": lambda s, p: services.hand_to_bot(seat=_seat(s, p.get("seat")), to_bot=False),
    "approve-move": lambda s, p: services.approve_device_move(participant=_participant(s, p.get("participant"))),
}


@login_required
@require_POST
def session_command(request, pk, command):
    """Every teacher button posts here; the answer is JSON for scripts, a redirect for forms."""
    session = _own_session(request, pk)
    handler = COMMANDS.get(command)
    if handler is None:
        raise Http404
    wants_json = "application/json" in request.headers.get("Accept", "")
    try:
        handler(session, request.POST)
    except (services.JoinError, ValueError) as error:
        message = getattr(error, "message", str(error))
        if wants_json:
            return JsonResponse({"ok": False, "message": message}, status=400)
        messages.error(request, message)
    if wants_json:
        session.refresh_from_db()
        return JsonResponse({"ok": True, "status": session.status})
    return redirect(session)


@login_required
@require_http_methods(["GET", "POST"])
def session_delete(request, pk):
    """GET asks once (it cannot be undone); only a POST deletes the session and all in it."""
    session = _own_session(request, pk)
    if request.method == "POST":
        name = str(session)
        services.delete_session(session=session)
        messages.success(request, _("“%(session)s” was deleted with its students' nicknames, games, "
                                    "moves and reports.") % {"session": name})
        return redirect("classroom:home")
    return render(request, "classroom/session_delete.html", {
        "session": session, "students": session.participants.count(), "tables": session.tables.count(),
    })


# --- Student ----------------------------------------------------------------------------------------

DEVICE_COOKIE = "sw_device"


def _secure_cookies(request) -> bool:
    """A device's cookies are Secure whenever the teacher's session cookie is (production), even
    if a proxy forgot to say the request came over HTTPS, and on any HTTPS request."""
    return settings.SESSION_COOKIE_SECURE or request.is_secure()


def _guarded_lookup(request, device, code):
    """The session for a typed code, counting wrong guesses against this device and address."""
    address = request.META.get("REMOTE_ADDR", "")
    guesses.check(device=device, address=address)
    try:
        return services.open_session_for_code(code)
    except services.JoinError as error:
        if error.code == "wrong_code":
            guesses.record_wrong(device=device, address=address)
        raise


@never_cache
def join(request, code=""):
    """The code and nickname form; on success the device keeps a token cookie for the session."""
    form = JoinForm(request.POST or None, initial={"code": code})
    offer_move = False
    device = request.COOKIES.get(DEVICE_COOKIE) or secrets.token_urlsafe(12)
    session = None
    if code and request.method == "GET":
        try:
            session = _guarded_lookup(request, device, code)
        except (services.JoinError, guesses.TooManyGuesses) as error:
            form.add_error("code", error.message)
        else:
            if services.participant_for_token(session, request.COOKIES.get(token_cookie(session.pk))):
                return redirect("classroom:play", session.pk)
    if request.method == "POST" and form.is_valid():
        try:
            session = _guarded_lookup(request, device, form.cleaned_data["code"])
            existing = services.participant_for_token(session, request.COOKIES.get(token_cookie(session.pk)))
            if existing:
                return redirect("classroom:play", session.pk)
            if request.POST.get("move") == "1":
                participant, token = services.request_device_move(session=session,
                                                                  nickname=form.cleaned_data["nickname"])
            else:
                participant, token = services.join(session=session, nickname=form.cleaned_data["nickname"],
                                                   players=form.cleaned_data["players"])
        except guesses.TooManyGuesses as error:
            form.add_error("code", error.message)
        except services.JoinError as error:
            field = "code" if error.code in ("bad_code", "wrong_code", "ended") else "nickname"
            form.add_error(field, error.message)
            offer_move = error.code == "duplicate_nickname" and session.status != Session.Status.LOBBY
        else:
            response = redirect("classroom:play", session.pk)
            response.set_cookie(token_cookie(session.pk), token, max_age=TOKEN_MAX_AGE, httponly=True,
                                samesite="Lax", secure=_secure_cookies(request))
            return response
    generated = session is not None and session.names == Session.Names.GENERATED
    response = render(request, "classroom/join.html", {"form": form, "generated_names": generated,
                                                       "offer_move": offer_move})
    response.set_cookie(DEVICE_COOKIE, device, max_age=TOKEN_MAX_AGE, httponly=True, samesite="Lax",
                        secure=_secure_cookies(request))
    return response


def _device_participant(request, pk):
    session = get_object_or_404(Session, pk=pk)
    return session, services.participant_for_token(session, request.COOKIES.get(token_cookie(session.pk)))


@never_cache
def play(request, pk):
    session, participant = _device_participant(request, pk)
    if participant is None:
        waiting = services.participant_waiting_to_move(session, request.COOKIES.get(token_cookie(session.pk)))
        if waiting is not None:
            return render(request, "classroom/move_waiting.html", {"participant": waiting, "session": session})
        messages.error(request, _("This tablet has not joined that lesson yet. Type the code to join."))
        return redirect("classroom:join")
    scenario = registry.get(session.scenario)
    return render(request, "classroom/play.html", {
        "session": session, "participant": participant, "scenario": scenario,
        "board_url": f"/games/board/{scenario.key}.json?v={scenario.engine.content_hash}",
        "max_frame": MAX_FRAME_BYTES,
    })


@require_POST
def play_act(request, pk):
    """The HTTP fallback of the socket's ``act`` frame: same id, same service, same answer."""
    session, participant = _device_participant(request, pk)
    if participant is None:
        return JsonResponse({"type": "error", "code": "unknown_device",
                             "message": _("This tablet has not joined that lesson.")}, status=403)
    if len(request.body) > MAX_FRAME_BYTES:
        return JsonResponse({"type": "error", "code": "too_big", "message": _("That message is too big.")}, status=413)
    try:
        message = json.loads(request.body)
    except (ValueError, RecursionError):  # deep nesting fits in 4 KB
        return JsonResponse({"type": "error", "code": "bad_frame", "message": _("That message could not be read.")}, status=400)
    if not isinstance(message, dict):
        return HttpResponseBadRequest()
    if message.get("type") == "ask_teacher":
        services.ask_teacher(participant=participant, asking=bool(message.get("asking", True)))
        return JsonResponse({"type": "ok"})
    try:
        return JsonResponse(services.act(participant.pk, message))
    except (OperationalError, InterfaceError):  # the database is briefly out of reach
        return JsonResponse(Refused("unavailable").as_message(message.get("id")), status=503)


def _poll_state(pk, token):
    session = Session.objects.filter(pk=pk).first()
    participant = services.participant_for_token(session, token) if session else None
    if participant is None:
        return None
    services.touch(participant=participant)
    return selectors.device_state(participant)


async def play_poll(request, pk):
    """Long-poll: answers as soon as anything is newer than what the device holds, or after 20 s."""
    token = request.COOKIES.get(token_cookie(pk))
    since = request.GET.get("since", "")
    waited = 0.0
    while True:
        state = await sync_to_async(_poll_state)(pk, token)
        if state is None:
            return JsonResponse({"type": "error", "code": "unknown_device"}, status=403)
        if state["stamp"] != since or waited >= LONG_POLL_SECONDS:
            return JsonResponse(state)
        await asyncio.sleep(0.5)
        waited += 0.5


def board(request, scenario):
    if scenario not in registry.keys():
        raise Http404
    response = JsonResponse(registry.engine(scenario).board())
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


def check(request):
    """A teacher tests a device before class: WebSocket, HTTP fallback, screen size."""
    return render(request, "classroom/check.html")
