"""Celery entry point for the gradebook: one score per task, passed its row's id.

A score the platform does not take is tried again later (``LTI_SCORE_RETRIES`` times, waiting
longer each time); the row keeps the reason, and after the last try it says "failed" on the
teacher's page, where the teacher can send it again. Sending the same score twice is harmless
(the platform keeps the latest), so a worker lost mid-task simply sends it again.
"""

from celery import shared_task
from django.conf import settings
from django.db.models import F


@shared_task(name="lti.send_score", bind=True, max_retries=None)
def send_score_task(self, post_id: int) -> str:
    from lti import services
    from lti.models import ScorePost

    post = ScorePost.objects.filter(pk=post_id).select_related("student__lesson__deployment__registration").first()
    if post is None or post.status == ScorePost.Status.SENT:
        return "gone" if post is None else "sent"
    try:
        services.send_score(post)
    except services.PLATFORM_FAILURES as error:
        attempts = post.attempts + 1
        last = attempts > settings.LTI_SCORE_RETRIES
        ScorePost.objects.filter(pk=post.pk).update(
            attempts=F("attempts") + 1,
            error=services.describe_failure(error),
            status=ScorePost.Status.FAILED if last else ScorePost.Status.PENDING,
        )
        if last:
            return "failed"
        raise self.retry(countdown=settings.LTI_SCORE_RETRY_SECONDS * 2 ** (attempts - 1), exc=error) from error
    ScorePost.objects.filter(pk=post.pk).update(status=ScorePost.Status.SENT, attempts=F("attempts") + 1, error="")
    return "sent"
