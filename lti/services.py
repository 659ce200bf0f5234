"""What a launch does in Stormwise: the teacher's account an instructor launches into, the lesson
deep linking creates, the seat a learner takes, and the scores that go back to the gradebook.

Only the platform's opaque user id (``sub``) is read from a launch about its person."""

import secrets

import requests
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from lti_tool.models import LtiDeployment
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.exception import LtiException
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem
from pylti1p3.names_roles import NamesRolesProvisioningService
from pylti1p3.service_connector import ServiceConnector

from classroom import services as classroom
from classroom.models import Participant, Session, Teacher
from games.models import Game
from lessons import knowledge
from lti.models import LtiLesson, LtiStudent, LtiTeacher, ScorePost
from lti.tool import Refused

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
INSTRUCTOR_ROLES = ("#Instructor", "#Administrator", "#ContentDeveloper", "#TeachingAssistant")
LEARNER_ROLES = ("#Learner",)
#: the custom parameter of a deep-linked activity that names its lesson
SESSION_PARAM = "stormwise_session"
#: a score's most, as the gradebook sees it
SCORE_MAXIMUM = 100


def is_instructor(body) -> bool:
    return any(role.endswith(INSTRUCTOR_ROLES) for role in body.get(CLAIM + "roles", []))


def is_learner(body) -> bool:
    return any(role.endswith(LEARNER_ROLES) for role in body.get(CLAIM + "roles", []))


def deployment_of(launch) -> LtiDeployment:
    """The registered deployment a launch came from (a launch taken up again from the cache, in
    deep linking's second step, is looked up again)."""
    conf = launch.get_tool_conf()
    if conf.deployment is None:
        conf.deployment = LtiDeployment.objects.get(
            registration=conf.registration,
            deployment_id=launch.get_launch_data()[CLAIM + "deployment_id"],
            is_active=True,
        )
    return conf.deployment


def teacher_for(deployment: LtiDeployment, sub: str) -> Teacher:
    """The teacher account of this deployment's user ``sub``, made on their first launch. It has
    no password (it is signed in only by launches) and an address of its own that says nothing
    about the person (the platform's e-mail is never read)."""
    found = LtiTeacher.objects.filter(deployment=deployment, sub=sub).select_related("teacher").first()
    if found:
        return found.teacher
    try:
        with transaction.atomic():
            teacher = Teacher(email=f"lti-{secrets.token_hex(12)}@lti.invalid")
            teacher.set_unusable_password()
            teacher.save()
            LtiTeacher.objects.create(deployment=deployment, sub=sub, teacher=teacher)
            return teacher
    except IntegrityError:  # the same person's two launches at once: the other one made it
        return LtiTeacher.objects.get(deployment=deployment, sub=sub).teacher


def known_teacher(deployment: LtiDeployment, sub: str) -> Teacher | None:
    """The teacher account this deployment's user ``sub`` already has, if any (nothing is made)."""
    found = LtiTeacher.objects.filter(deployment=deployment, sub=sub).select_related("teacher").first()
    return found.teacher if found else None


def lesson_of(launch) -> LtiLesson:
    """The lesson a resource-link launch opens, checked to belong to the launch's deployment."""
    custom = launch.get_launch_data().get(CLAIM + "custom") or {}
    lesson = LtiLesson.objects.filter(session_id=_int(custom.get(SESSION_PARAM))).select_related("session").first()
    if lesson is None:
        raise Refused("no_lesson")
    if lesson.deployment_id != deployment_of(launch).pk:
        raise Refused("other_deployment")
    return lesson


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def note_services(lesson: LtiLesson, launch) -> None:
    """Remember where the platform takes this lesson's scores and lists its course's members
    (each launch carries them; only their addresses are kept)."""
    body = launch.get_launch_data()
    ags = body.get(AGS_CLAIM) or {}
    nrps = body.get(NRPS_CLAIM) or {}
    fields = {
        "lineitem_url": ags.get("lineitem", "") or lesson.lineitem_url,
        "lineitems_url": ags.get("lineitems", "") or lesson.lineitems_url,
        "ags_scopes": ags.get("scope", []) or lesson.ags_scopes,
        "memberships_url": nrps.get("context_memberships_url", "") or lesson.memberships_url,
    }
    if any(getattr(lesson, k) != v for k, v in fields.items()):
        LtiLesson.objects.filter(pk=lesson.pk).update(**fields)


def create_lesson(*, launch, teacher: Teacher, passback: str, **session_fields) -> LtiLesson:
    """Deep linking: a new session for the teacher, linked to the launch's deployment."""
    with transaction.atomic():
        session = classroom.create_session(teacher=teacher, **session_fields)
        return LtiLesson.objects.create(session=session, deployment=deployment_of(launch), passback=passback)


def deep_link_response(launch, lesson: LtiLesson, launch_url: str) -> tuple[str, str]:
    """The signed answer to the platform's deep-linking request (and where to post it): one LTI
    resource link that opens ``lesson``, with a gradebook column when scores go back."""
    session = lesson.session
    resource = (
        DeepLinkResource()
        .set_url(launch_url)
        .set_title(str(session))
        .set_custom_params({SESSION_PARAM: str(session.pk)})
    )
    if lesson.passback != LtiLesson.Passback.NONE:
        resource.set_lineitem(
            LineItem()
            .set_score_maximum(SCORE_MAXIMUM)
            .set_label(str(session))
            .set_resource_id(f"stormwise-session-{session.pk}")
        )
    deep_link = launch.get_deep_link()
    return deep_link.get_response_jwt([resource]), launch.get_launch_data()[
        "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
    ]["deep_link_return_url"]


def student_for(lesson: LtiLesson, sub: str) -> LtiStudent | None:
    return LtiStudent.objects.filter(lesson=lesson, sub=sub).select_related("participant").first()


def seat_learner(*, lesson: LtiLesson, sub: str, nickname: str, language: str | None = None) -> tuple[Participant, str]:
    """Seat a learner of the course in the lesson with the nickname they chose (the classroom's
    own join, with its checks); returns the participant and the device token for the cookie."""
    with transaction.atomic():
        participant, token = classroom.join(session=lesson.session, nickname=nickname, language=language)
        LtiStudent.objects.create(lesson=lesson, sub=sub, participant=participant)
    return participant, token


def new_device_token(student: LtiStudent) -> str:
    """A learner launching again (from another device, or after the cookie went): the platform
    vouched for them, so this browser becomes their device."""
    token = secrets.token_urlsafe(24)
    Participant.objects.filter(pk=student.participant_id).update(token_hash=classroom.hash_token(token))
    return token


# --- Scores back to the gradebook -------------------------------------------------------------------


def completed(participant: Participant) -> bool:
    """The student's table played its game to the end."""
    return Game.objects.filter(table__seats__participant=participant, status=Game.Status.FINISHED).exists()


def after_check_score(participant: Participant) -> float | None:
    """The share of the after-check the student got right (0-100); None if not answered."""
    results = knowledge.student_results(participant)
    if not results or not results["after_n"]:
        return None
    return round(SCORE_MAXIMUM * results["after"] / results["after_n"], 1)


def plan_scores(lesson: LtiLesson) -> list[ScorePost]:
    """Write each learner's score to send (replacing one not yet taken); returns those to send."""
    if lesson.passback == LtiLesson.Passback.NONE:
        return []
    return [plan_score(student) for student in lesson.students.select_related("participant", "lesson")]


def plan_score(student: LtiStudent) -> ScorePost:
    """Write one learner's score to send: completion (100 or 0), or the after-check's share right
    once answered (completion, not final, until then)."""
    done = completed(student.participant)
    score, final = (SCORE_MAXIMUM if done else 0), True
    if student.lesson.passback == LtiLesson.Passback.AFTER_CHECK:
        after = after_check_score(student.participant)
        score, final = (after, True) if after is not None else (score, False)
    post, _created = ScorePost.objects.update_or_create(
        student=student,
        kind="score",
        defaults={
            "score_given": score,
            "score_maximum": SCORE_MAXIMUM,
            "final": final,
            "status": ScorePost.Status.PENDING,
            "attempts": 0,
            "error": "",
        },
    )
    return post


#: what a score post may fail with: the platform's refusal (an HTTP error, an access token refused),
#: the platform out of reach, or an answer that is not what the standard says
PLATFORM_FAILURES = (LtiException, requests.RequestException, KeyError, ValueError)


def send_score(post: ScorePost) -> None:
    """Post one score to the platform's line item (pylti1p3 fetches the access token with the
    tool's key). Raises if the platform did not take it."""
    student = post.student
    lesson = student.lesson
    registration = lesson.deployment.registration.to_registration()
    ags = AssignmentsGradesService(
        ServiceConnector(registration),
        {"scope": lesson.ags_scopes, "lineitems": lesson.lineitems_url, "lineitem": lesson.lineitem_url},
    )
    grade = (
        Grade()
        .set_score_given(post.score_given)
        .set_score_maximum(post.score_maximum)
        .set_timestamp(post.updated_at.isoformat())
        .set_activity_progress("Completed" if post.final else "InProgress")
        .set_grading_progress("FullyGraded" if post.final else "Pending")
        .set_user_id(student.sub)
    )
    line_item = None
    if not lesson.lineitem_url:
        line_item = (
            LineItem()
            .set_score_maximum(SCORE_MAXIMUM)
            .set_label(str(lesson.session))
            .set_resource_id(f"stormwise-session-{lesson.session_id}")
        )
    ags.put_grade(grade, line_item)


def describe_failure(error: Exception) -> str:
    response = getattr(error, "response", None)
    if response is not None:
        return _("The platform answered %(status)s.") % {"status": response.status_code}
    return str(error)[:300] or error.__class__.__name__


def scores_of(session: Session) -> list[ScorePost]:
    return list(ScorePost.objects.filter(student__lesson__session=session).select_related("student__participant"))


# --- Who from the course has not joined (Names and Role Provisioning Services) ----------------------


#: how long the teacher waits on the platform for each page of the member list (pylti1p3 sets none)
ROSTER_TIMEOUT_SECONDS = 10


class _Patient(requests.Session):
    """A session whose every request gives up after ``ROSTER_TIMEOUT_SECONDS``."""

    def request(self, *args, **kwargs):
        kwargs.setdefault("timeout", ROSTER_TIMEOUT_SECONDS)
        return super().request(*args, **kwargs)


class RosterUnavailable(Exception):
    """The course's member list could not be fetched; ``message`` says why, for the teacher."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


def not_joined(lesson: LtiLesson) -> tuple[list[str], int]:
    """The course's active learners who have not launched this lesson yet, fetched from the
    platform now (pylti1p3 asks for an access token with the read-only membership scope and
    follows the list's pages). Matched by the platform's user id (``sub``) stored per lesson,
    so per deployment. Returns the names the platform gives, sorted, and how many more it gives
    no name for. Nothing of the list is written anywhere: the caller renders it and forgets it."""
    if not lesson.memberships_url:
        raise RosterUnavailable(_("The course did not offer its member list with this lesson's launches."))
    registration = lesson.deployment.registration.to_registration()
    service = NamesRolesProvisioningService(
        ServiceConnector(registration, requests_session=_Patient()),
        {"context_memberships_url": lesson.memberships_url},
    )
    try:
        members = service.get_members()
    except PLATFORM_FAILURES as error:
        raise RosterUnavailable(
            _("The course's member list could not be fetched: %(why)s") % {"why": describe_failure(error)}
        ) from error
    joined = set(LtiStudent.objects.filter(lesson=lesson).values_list("sub", flat=True))
    names, unnamed = [], 0
    for member in members:
        if member.get("status", "Active") != "Active" or member.get("user_id") in joined:
            continue
        # a context role by its full URI or by its simple name, which LTI 1.3 lets a platform send
        if not any(role.endswith(LEARNER_ROLES) or role == "Learner" for role in member.get("roles", [])):
            continue
        name = member.get("name") or " ".join(
            part for part in (member.get("given_name"), member.get("family_name")) if part
        )
        if name:
            names.append(name)
        else:
            unnamed += 1
    return sorted(names, key=str.casefold), unnamed
