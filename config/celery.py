"""The Celery app. Workers run `celery -A config worker`; embedded mode never needs one."""

import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("stormwise")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _warm_report_printing(**_):
    """Each worker process loads the report printer as it starts, not in the first report the
    class waits for."""
    from scoring.reports import warm

    warm()
