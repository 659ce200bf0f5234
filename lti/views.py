"""The tool's pages: its key set and configuration for the platform's admin, the OIDC login and
the launch (the platform posts them, so they carry no CSRF token: the state cookie and the
signed, single-use id_token stand in for it), and the pages a launch leads to."""

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST
from lti_tool.models import Key

from classroom import languages
from classroom import services as classroom
from classroom.consumers import token_cookie
from classroom.models import Session
from classroom.views import TOKEN_MAX_AGE
from lti import jobs, services, tool
from lti.forms import LessonForm, NicknameForm
from lti.framing import framed_by_platforms
from lti.models import LtiLesson, ScorePost
from scenarios import registry
from scoring.services import student_report_url

#: the Django session's keys between a launch and the page it leads to
DEEP_LINK_KEY, LEARNER_KEY = "lti-deep-link", "lti-learner"


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _url(request, name):
    return request.build_absolute_uri(reverse(name))


def jwks(request):
    """The tool's public keys, for the platform to check what the tool signs."""
    tool.signing_key()
    return JsonResponse(Key.objects.as_jwks())


def configuration(request):
    """The URLs and settings an LMS's admin types in to register Stormwise."""
    return render(
        request,
        "lti/configuration.html",
        {
            "login_url": _url(request, "lti:login"),
            "launch_url": _url(request, "lti:launch"),
            "jwks_url": _url(request, "lti:jwks"),
            "domain": request.get_host(),
        },
    )


def _refused(request, refused: tool.Refused):
    return render(request, "lti/refused.html", {"reason": refused.message}, status=403)


@csrf_exempt
@framed_by_platforms
@never_cache
@require_http_methods(["GET", "POST"])
def oidc_login(request):
    params = request.POST if request.method == "POST" else request.GET
    try:
        return tool.login_redirect(request, params)
    except tool.Refused as refused:
        return _refused(request, refused)


@csrf_exempt
@framed_by_platforms
@never_cache
@require_POST
def launch(request):
    """A launch from the course: deep linking (a teacher adds the activity), or the activity
    opened by its teacher (their dashboard) or a student (a seat, with a nickname they choose)."""
    try:
        message = tool.launch_from(request)
        body = message.get_launch_data()
        deployment = services.deployment_of(message)
        sub = body["sub"]
        if body[services.CLAIM + "message_type"] == tool.DEEP_LINKING:
            if not services.is_instructor(body):
                raise tool.Refused("role")
            login(request, services.teacher_for(deployment, sub))
            request.session[DEEP_LINK_KEY] = message.get_launch_id()
            return redirect("lti:deep_link")
        lesson = services.lesson_of(message)
        if services.is_instructor(body):
            teacher = services.known_teacher(deployment, sub)
            if teacher is None or lesson.session.teacher_id != teacher.pk:
                raise tool.Refused("owner")
            services.note_services(lesson, message)
            login(request, teacher)
            return redirect(lesson.session)
        if not services.is_learner(body):
            raise tool.Refused("role")
        services.note_services(lesson, message)
        return _learner_arrives(request, lesson, sub)
    except tool.Refused as refused:
        return _refused(request, refused)


def _learner_arrives(request, lesson: LtiLesson, sub: str):
    student = services.student_for(lesson, sub)
    if student is None:
        request.session[LEARNER_KEY] = {"lesson": lesson.pk, "sub": sub}
        return redirect("lti:nickname")
    if lesson.session.status == Session.Status.ENDED:
        return redirect(student_report_url(student.participant))
    return _seated(request, lesson.session, services.new_device_token(student))


def _seated(request, session, token):
    response = redirect("classroom:play", session.pk)
    response.set_cookie(
        token_cookie(session.pk),
        token,
        max_age=TOKEN_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE or request.is_secure(),
    )
    return response


@framed_by_platforms
@never_cache
def nickname(request):
    """A learner's first launch of a lesson: the nickname the class will see (the platform's name
    for them is never read)."""
    pending = request.session.get(LEARNER_KEY)
    lesson = pending and LtiLesson.objects.filter(pk=pending["lesson"]).select_related("session").first()
    if not lesson:
        return _refused(request, tool.Refused("lost"))
    form = NicknameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            participant, token = services.seat_learner(
                lesson=lesson, sub=pending["sub"], nickname=form.cleaned_data["nickname"], language=languages.current()
            )
        except classroom.JoinError as error:
            form.add_error("nickname", error.message)
        else:
            del request.session[LEARNER_KEY]
            return _seated(request, lesson.session, token)
    return render(request, "lti/nickname.html", {"form": form, "session": lesson.session})


@framed_by_platforms
@never_cache
def deep_link(request):
    """A teacher adding the activity to their course: a new lesson, and its link sent back. The
    launch signed the teacher in; without that sign-in (a browser that keeps no cookie inside the
    course's frame) the page says so where it is framed, rather than sending to a sign-in page
    that may not be framed."""
    launch_id = request.session.get(DEEP_LINK_KEY)
    if not launch_id or not request.user.is_authenticated:
        return _refused(request, tool.Refused("lost"))
    try:
        message = tool.launch_again(request, launch_id)
    except tool.Refused as refused:
        return _refused(request, refused)
    form = LessonForm(
        request.POST or None,
        scenario_options={s.key: s.options() for s in registry.all()},
        scenario_presets={s.key: s.presets for s in registry.all()},
    )
    if request.method == "POST" and form.is_valid():
        try:
            lesson = services.create_lesson(
                launch=message,
                teacher=request.user,
                passback=form.cleaned_data["passback"],
                **form.session_fields(),
            )
        except classroom.SessionQuotaReached as error:
            form.add_error(None, error.message)
        else:
            del request.session[DEEP_LINK_KEY]
            jwt, return_url = services.deep_link_response(message, lesson, _url(request, "lti:launch"))
            response = render(request, "lti/deep_link_return.html", {"jwt": jwt, "return_url": return_url})
            # the one form that posts away from Stormwise: to the course's own deep-linking return
            response._csp_update = {"form-action": [origin_of(return_url)]}
            return response
    return render(request, "lti/deep_link.html", {"form": form})


@login_required
@never_cache
def scores(request, pk):
    """What went back to the course's gradebook, student by student; the teacher may send again
    what the platform did not take."""
    session = get_object_or_404(Session, pk=pk, teacher=request.user)
    lesson = get_object_or_404(LtiLesson, session=session)
    if request.method == "POST":
        sent = jobs.send_again(lesson)
        messages.success(
            request,
            ngettext("%(count)d score is being sent again.", "%(count)d scores are being sent again.", sent)
            % {"count": sent},
        )
        return redirect("lti:scores", pk=pk)
    posts = services.scores_of(session)
    return render(
        request,
        "lti/scores.html",
        {
            "session": session,
            "lesson": lesson,
            "posts": posts,
            "failed": [p for p in posts if p.status == ScorePost.Status.FAILED],
        },
    )


@login_required
@never_cache
def roster(request, pk):
    """Who from the course has not opened the lesson yet, asked of the platform now, shown and
    forgotten (``services.not_joined``)."""
    session = get_object_or_404(Session, pk=pk, teacher=request.user)
    lesson = get_object_or_404(LtiLesson, session=session)
    context = {"session": session, "names": [], "unnamed": 0, "error": ""}
    try:
        context["names"], context["unnamed"] = services.not_joined(lesson)
    except services.RosterUnavailable as error:
        context["error"] = error.message
    return render(request, "lti/roster.html", context)
