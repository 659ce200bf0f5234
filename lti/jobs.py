"""When scores go to the gradebook: a lesson's end, the teacher's "send again", and the embedded
server's start (its background thread lost what was queued when it stopped)."""

from django.conf import settings
from django.db import transaction

from lti import services
from lti.models import LtiLesson, ScorePost
from lti.tasks import send_score_task
from scoring.queue import enqueue


def pass_back_when_ended(sender, session_id, **_kwargs) -> int:
    """``classroom.signals.session_ended``: each learner's score, written then sent."""
    lesson = LtiLesson.objects.filter(session_id=session_id).first()
    return send_scores(lesson) if lesson else 0


def send_scores(lesson: LtiLesson) -> int:
    with transaction.atomic():
        posts = services.plan_scores(lesson)
        for post in posts:
            enqueue(send_score_task, post.pk)
    return len(posts)


def score_after_check(sender, participant_id, phase, **_kwargs) -> int:
    """``lessons.signals.check_answered``: a student of a lesson that sends the after-check's
    score answered it, after the lesson ended: their final score goes now."""
    from lessons.models import CheckAnswer

    if phase != CheckAnswer.Phase.AFTER:
        return 0
    lesson = LtiLesson.objects.filter(
        students__participant_id=participant_id, passback=LtiLesson.Passback.AFTER_CHECK
    ).first()
    if lesson is None or not ScorePost.objects.filter(student__lesson=lesson).exists():
        return 0  # the lesson has not ended: its end sends every score
    with transaction.atomic():
        post = services.plan_score(lesson.students.get(participant_id=participant_id))
        enqueue(send_score_task, post.pk)
    return 1


def send_again(lesson: LtiLesson) -> int:
    """The teacher asks for the scores the platform did not take to be sent again."""
    with transaction.atomic():
        posts = list(ScorePost.objects.filter(student__lesson=lesson).exclude(status=ScorePost.Status.SENT))
        ScorePost.objects.filter(pk__in=[p.pk for p in posts]).update(status=ScorePost.Status.PENDING, attempts=0)
        for post in posts:
            enqueue(send_score_task, post.pk)
    return len(posts)


def resume_when_serving(sender, **_kwargs) -> int:
    """``classroom.signals.serving``: in embedded mode, queue again the scores still waiting."""
    if settings.TASK_MODE != "thread":
        return 0
    ids = list(ScorePost.objects.filter(status=ScorePost.Status.PENDING).values_list("pk", flat=True))
    with transaction.atomic():
        for pk in ids:
            enqueue(send_score_task, pk)
    return len(ids)
