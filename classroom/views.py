"""Pages and endpoints for teachers and students. Thin: each calls a service or a selector."""

import functools
import hashlib
import json

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from classroom import accounts, frames, guesses, languages, polls, ratelimit, selectors, services
from classroom.consumers import act_limit, frame_limit, token_cookie
from classroom.forms import JoinForm, SessionForm, SignUpForm
from classroom.frames import MAX_FRAME_BYTES
from classroom.models import Participant, Seat, Session
from classroom.timers import device_more_time
from games import broadcast
from games.refusals import Refused
from scenarios import registry
from scenarios.audience import Audience

TOKEN_MAX_AGE = 14 * 24 * 3600  # a parked lesson resumes days later on the same tablet


def _too_many(request, seconds):
    minutes = max(1, round(seconds / 60))
    return render(request, "registration/throttled.html", {"minutes": minutes}, status=429)


def signup(request):
    """Sign-up by e-mail link; the same answer whether or not the address has an account."""
    if request.user.is_authenticated:
        return redirect("classroom:home")
    if settings.TEACHER_SIGNUP == "closed":
        return render(request, "registration/signup.html", {"closed": True})
    form = SignUpForm(request.POST or None)
    if request.method == "POST":
        address = accounts.client_address(request)
        email = request.POST.get("email", "")
        wait = accounts.seconds_to_wait("signup", address=address, account=email)
        if wait:
            return _too_many(request, wait)
        if form.is_valid():
            accounts.count_attempt("signup", address=address, account=form.cleaned_data["email"])
            accounts.request_signup(email=form.cleaned_data["email"], request=request)
            return render(request, "registration/signup_sent.html", {"email": form.cleaned_data["email"]})
    return render(request, "registration/signup.html", {"form": form})


class SignUpConfirmView(auth_views.PasswordResetConfirmView):
    """The link of the sign-up e-mail: choose a password, and the account is ready."""

    template_name = "registration/signup_confirm.html"
    post_reset_login = True
    post_reset_login_backend = "classroom.accounts.NoPublishedPasswordBackend"
    success_url = reverse_lazy("classroom:home")

    def form_valid(self, form):
        form.user.is_active = True
        response = super().form_valid(form)
        messages.success(self.request, _("Welcome to Stormwise! Your account is ready."))
        return response


class ThrottledLoginView(auth_views.LoginView):
    """Sign-in, refused for a while after too many wrong passwords: the backend counts and
    refuses (classroom.accounts); this page says how long to wait."""

    def post(self, request, *args, **kwargs):
        account = request.POST.get("username", "")
        action, address = accounts.signin_limits(request, account)
        wait = accounts.seconds_to_wait(action, address=address, account=account)
        if wait:
            return _too_many(request, wait)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        response = super().form_valid(form)
        # this browser is the teacher's from now on: others' wrong passwords never lock it out
        response.set_cookie(
            accounts.TRUSTED_COOKIE,
            accounts.trusted_device(form.get_user().email),
            max_age=accounts.TRUSTED_DAYS * 86400,
            httponly=True,
            samesite="Lax",
            secure=_secure_cookies(self.request),
        )
        return response


class ThrottledPasswordResetView(auth_views.PasswordResetView):
    """Password reset e-mails, limited per address and per account, and apart for the teacher's
    own browser (classroom.accounts)."""

    form_class = accounts.PasswordResetForm

    def post(self, request, *args, **kwargs):
        email = request.POST.get("email", "")
        action, address = accounts.reset_limits(request, email)
        wait = accounts.seconds_to_wait(action, address=address, account=email)
        if wait:
            return _too_many(request, wait)
        accounts.count_attempt(action, address=address, account=email)
        return super().post(request, *args, **kwargs)


# --- Teacher ----------------------------------------------------------------------------------------


def _own_session(request, pk) -> Session:
    """The session if it belongs to the signed-in teacher; 404 otherwise (never 403: no leaks)."""
    return get_object_or_404(Session, pk=pk, teacher=request.user)


@login_required
def home(request):
    return render(
        request,
        "classroom/home.html",
        {"sessions": request.user.sessions.all()[:50], "retention_days": settings.RETENTION_DAYS},
    )


def _scenario_options():
    return {scenario.key: scenario.options() for scenario in registry.all()}


def _scenario_presets():
    return {scenario.key: scenario.presets for scenario in registry.all()}


@login_required
def session_new(request):
    form = SessionForm(request.POST or None, scenario_options=_scenario_options(), scenario_presets=_scenario_presets())
    if request.method == "POST" and form.is_valid():
        try:
            session = services.create_session(teacher=request.user, **form.session_fields())
        except services.SessionQuotaReached as error:
            form.add_error(None, error.message)
        else:
            return redirect(session)
    return render(request, "classroom/session_new.html", {"form": form})


@login_required
def session_detail(request, pk):
    session = _own_session(request, pk)
    return render(
        request,
        "classroom/session.html",
        {
            "session": session,
            "scenario": registry.get(session.scenario),
            "dashboard": selectors.dashboard(session),
            "board_url": board_url_in(session, languages.current()),
            "code": services.format_code(session.join_code),
            "join_url": selectors.join_url(session),
            "classroom_share_url": selectors.classroom_share_url(session),
        },
    )


@login_required
@never_cache
def session_dashboard_json(request, pk):
    """The dashboard snapshot over plain HTTP, for networks that block WebSockets."""
    session = _own_session(request, pk)
    return JsonResponse(selectors.dashboard(session))


@login_required
def session_screen(request, pk):
    session = _own_session(request, pk)
    return render(
        request,
        "classroom/screen.html",
        {
            "session": session,
            "scenario": registry.get(session.scenario),
            "code": services.format_code(session.join_code),
            "board_url": board_url_in(session, languages.current()),
            "join_url": selectors.join_url(session),
            "dashboard": selectors.dashboard(session),
            "projector_words": selectors.projector_words(session),
        },
    )


@login_required
def session_qr(request, pk):
    session = _own_session(request, pk)
    image = qrcode.make(selectors.join_url(session), image_factory=qrcode.image.svg.SvgPathImage, box_size=20, border=2)
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
    "approve": lambda s, p: services.approve(
        participant=_participant(s, p.get("participant")), seat=_seat(s, p["seat"]) if p.get("seat") else None
    ),
    "late-seat": lambda s, p: services.seat_late(
        participant=_participant(s, p.get("participant")), seat=_seat(s, p.get("seat"))
    ),
    "approve-all": lambda s, p: services.approve_all(session=s),
    "late-tables": lambda s, p: services.open_late_tables(session=s),
    "unapprove": lambda s, p: services.approve(participant=_participant(s, p.get("participant")), approved=False),
    "rename": lambda s, p: services.rename(
        participant=_participant(s, p.get("participant")), nickname=p.get("nickname", "")
    ),
    "remove": lambda s, p: services.remove(participant=_participant(s, p.get("participant"))),
    "remove-many": lambda s, p: services.remove_many(session=s, participant_ids=p.getlist("participant")),
    "ban": lambda s, p: services.ban(participant=_participant(s, p.get("participant"))),
    "move": lambda s, p: services.move_participant(
        participant=_participant(s, p.get("participant")), table_number=int(p.get("table") or 1)
    ),
    "clear-ask": lambda s, p: services.ask_teacher(participant=_participant(s, p.get("participant")), asking=False),
    "to-bot": lambda s, p: services.hand_to_bot(seat=_seat(s, p.get("seat")), to_bot=True),
    "to-student": lambda s, p: services.hand_to_bot(seat=_seat(s, p.get("seat")), to_bot=False),
    "allow": lambda s, p: services.set_allowance(seat=_seat(s, p.get("seat")), ms=p.get("ms")),
    "approve-move": lambda s, p: services.approve_device_move(
        participant=_participant(s, p.get("participant")), seen_both=p.get("seen_both") == "1"
    ),
    "refuse-move": lambda s, p: services.refuse_device_move(participant=_participant(s, p.get("participant"))),
    "lock-joining": lambda s, p: services.set_joining_locked(session=s, locked=True),
    "unlock-joining": lambda s, p: services.set_joining_locked(session=s, locked=False),
    "set-cap": lambda s, p: services.set_max_participants(session=s, most=p.get("max_participants")),
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
    if command in ("finish-bots", "end-now"):  # the class packet is written in the teacher's language
        Session.objects.filter(pk=session.pk).update(language=languages.current())
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
        messages.success(
            request,
            _("“%(session)s” was deleted with its students' nicknames, games, moves and reports.") % {"session": name},
        )
        return redirect("classroom:home")
    return render(
        request,
        "classroom/session_delete.html",
        {
            "session": session,
            "students": session.participants.count(),
            "tables": session.tables.count(),
        },
    )


# --- Student ----------------------------------------------------------------------------------------

DEVICE_COOKIE = guesses.DEVICE_COOKIE


def _secure_cookies(request) -> bool:
    """A device's cookies are Secure whenever the teacher's session cookie is (production), even
    if a proxy forgot to say the request came over HTTPS, and on any HTTPS request."""
    return settings.SESSION_COOKIE_SECURE or request.is_secure()


def _guarded_lookup(request, device, age, code):
    """The session for a code typed into the form; misses count against this device and address."""
    address = request.META.get("REMOTE_ADDR", "")
    guesses.check(device=device, age=age, address=address)
    try:
        return services.open_session_for_code(code)
    except services.JoinError as error:
        if error.code == "wrong_code":
            guesses.record_miss(device=device, address=address)
        raise


def _quiet_lookup(code) -> Session | None:
    """The session a QR link names, if any; nothing is counted and nothing is said, so the link
    of an ended lesson, a typo or a hostile page's requests only fill in the form."""
    try:
        return services.open_session_for_code(code)
    except services.JoinError:
        return None


@never_cache
def join(request, code=""):
    """The code and nickname form; on success the device keeps a token cookie for the session."""
    form = JoinForm(request.POST or None, initial={"code": code[:20]})
    offer_move = False
    device, age, device_cookie = guesses.device_id(request.COOKIES.get(DEVICE_COOKIE))
    session = None
    if code and request.method == "GET":
        found = _quiet_lookup(code)  # not kept: the page must look the same for any code
        if found and services.participant_for_token(found, request.COOKIES.get(token_cookie(found.pk))):
            return redirect("classroom:play", found.pk)
    if request.method == "POST" and form.is_valid():
        try:
            session = _guarded_lookup(request, device, age, form.cleaned_data["code"])
            existing = services.participant_for_token(session, request.COOKIES.get(token_cookie(session.pk)))
            if existing:
                return redirect("classroom:play", session.pk)
            if request.POST.get("move") == "1":
                participant, token = services.request_device_move(
                    session=session,
                    nickname=form.cleaned_data["nickname"],
                    device_token=request.COOKIES.get(token_cookie(session.pk)),
                )
            else:
                pace = {"device_hash": guesses.device_hash(device), "address": request.META.get("REMOTE_ADDR", "")}
                ratelimit.check_join_pace(**pace)
                participant, token = services.join(
                    session=session,
                    nickname=form.cleaned_data["nickname"],
                    players=form.cleaned_data["players"],
                    language=languages.current(),
                    device_hash=pace["device_hash"],
                    admit=lambda: ratelimit.take_join_pace(**pace),
                )
        except (guesses.TooManyGuesses, ratelimit.TooFast) as error:
            form.add_error("code", error.message)
        except services.JoinError as error:
            field = (
                "code"
                if error.code in ("bad_code", "wrong_code", "ended", "joining_locked", "session_full", "banned")
                else "nickname"
            )
            form.add_error(field, error.message)
            offer_move = error.code == "duplicate_nickname" and session.status != Session.Status.LOBBY
        else:
            response = redirect("classroom:play", session.pk)
            response.set_cookie(
                token_cookie(session.pk),
                token,
                max_age=TOKEN_MAX_AGE,
                httponly=True,
                samesite="Lax",
                secure=_secure_cookies(request),
            )
            return response
    generated = session is not None and session.names == Session.Names.GENERATED
    response = render(
        request, "classroom/join.html", {"form": form, "generated_names": generated, "offer_move": offer_move}
    )
    response.set_cookie(
        DEVICE_COOKIE,
        device_cookie,
        max_age=TOKEN_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=_secure_cookies(request),
    )
    return response


def _device_participant(request, pk):
    """The session and the participant this device's cookie names in it: None once the lesson
    ended ``DEVICE_REPORT_HOURS`` ago, so the next child on a shared tablet never lands in the
    last one's game."""
    session = get_object_or_404(Session, pk=pk)
    if services.long_over(session):
        return session, None
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
    languages.follow_device(participant)  # the picker on this page changed the tablet's language
    scenario = registry.get(session.scenario)
    return render(
        request,
        "classroom/play.html",
        {
            "session": session,
            "participant": participant,
            "scenario": scenario,
            "board_url": board_url_in(session, participant.language),
            "max_frame": MAX_FRAME_BYTES,
        },
    )


def _refusal(refusal: Refused, action_id=None) -> JsonResponse:
    """A refusal as the HTTP fallback answers it: the socket's message, with its HTTP status."""
    return JsonResponse(refusal.as_message(action_id), status=refusal.http_status)


def _too_fast(action_id=None) -> JsonResponse:
    return _refusal(Refused("too_fast"), action_id)


def play_act(request, pk):
    """The HTTP fallback of the socket's ``act`` frame: same front door (``frames.parse_frame``),
    same service, same answer, and the same limits per device as the socket."""
    if frames.declared_too_big(request.META.get("CONTENT_LENGTH")):  # before the body is read
        return _refusal(Refused("too_big"))
    session, participant = _device_participant(request, pk)
    if participant is None:
        return _refusal(Refused("unknown_device"))
    if not ratelimit.hit(*frame_limit(participant.pk)):
        return _too_fast()
    try:
        message = frames.parse_frame(request.body)
    except Refused as refusal:
        return _refusal(refusal)
    if message["type"] == "ask_teacher":
        answer = services.device_asks_teacher(participant.pk, bool(message.get("asking", True)))
        return JsonResponse(answer, status=429 if answer.get("code") == "too_fast" else 200)
    if message.get("type") == "more_time":
        return JsonResponse(device_more_time(participant.pk, message.get("seat")))
    if message.get("type") == "move":
        return JsonResponse(services.device_answers_move(participant.pk, message.get("allow") is True))
    if not ratelimit.hit(*act_limit(participant.pk)):
        return _too_fast(message.get("id"))
    try:
        answer, batch = services.act(participant.pk, message)
    except (OperationalError, InterfaceError):  # the database is briefly out of reach
        return _refusal(Refused("unavailable"), message.get("id"))
    broadcast.push_after_commit(batch)
    return JsonResponse(answer)


async def play_poll(request, pk):
    """Long-poll (classroom.polls): answers as soon as the device's screen differs from the one
        it holds (``since``), or after 20 s. A device's polls past a few open were answered already
    (``polls.OpenPolls``, in front of Django)."""
    try:
        state = await polls.poll(pk, request.COOKIES.get(token_cookie(pk)), request.GET.get("since", ""))
    except polls.UnknownDevice:
        return _refusal(Refused("unknown_device"))
    except polls.TooFast:
        response = _too_fast()
        response["Retry-After"] = str(polls.RETRY_AFTER_SECONDS)
        return response
    return JsonResponse(state)


@functools.cache
def board_url(scenario):
    """The static board's address, versioned by the board itself: browsers keep it for good, and
    fetch it again when the content or the way the engine lays out its board changes."""
    raw = json.dumps(registry.engine(scenario).board(), sort_keys=True, separators=(",", ":"))
    return f"/games/board/{scenario}.json?v={hashlib.sha256(raw.encode()).hexdigest()[:16]}"


def board_url_in(session, language):
    """The session's board address, with its content words in language (the tablet's, or on
    the teacher's dashboard and projector the teacher's: their summaries name places from the
    board) and only the real-world claims the session's students may see (``for``)."""
    url = f"{board_url(session.scenario)}&for={session.audience.key}"
    return url if language == settings.LANGUAGE_CODE else f"{url}&lang={language}"


def board(request, scenario):
    if scenario not in registry.keys():
        raise Http404
    # the board's claims for the class's audience and its content words in the tablet's
    # language (each its own address, so cached apart)
    reader = Audience.from_key(request.GET.get("for"))
    language = languages.supported(request.GET.get("lang"))
    shown = reader.redact(registry.engine(scenario).board())
    response = JsonResponse(languages.translate_content(shown, scenario, language))
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


def check(request):
    """A teacher tests a device before class: WebSocket, HTTP fallback, screen size."""
    return render(request, "classroom/check.html")
