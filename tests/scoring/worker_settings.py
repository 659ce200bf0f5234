"""Settings for the worker subprocess of the killed-worker test: the project's own, except that
Redis hands an unacknowledged message out again after 8 seconds instead of the default hour.

A worker killed with SIGKILL never acknowledges its task (``acks_late``), and never gets to
give it back either; the Redis transport redelivers such a message only once it has been
unacknowledged for ``visibility_timeout``. In production that is an hour unless settings say
otherwise; here it is short so the test sees the redelivery in seconds.
"""

from config.settings import *  # noqa: F401,F403

# ...and sweeps for such messages every 2 s (by default every 10 s, scanning on every 10th sweep).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 8,
    "unacked_restore_interval": 2,
    "unacked_restore_throttle": 1,
}
