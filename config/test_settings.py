"""Test settings: the real services on their standard local ports, overridable by environment."""

import os
import secrets
from urllib.parse import urlsplit, urlunsplit

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/stormwise")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")
# ``make test`` runs the suite in several processes (pytest-xdist's gw0, gw1 …, at most six). Each
# has its own test database (pytest-django names it test_stormwise_gw0 …) and, here, its own Redis
# database (broker, channel layer, cache) and media folder, so no process sees another's tasks or
# frames. A run in one process takes the seventh, so that a test run beside ``make test`` never
# shares its first process's Celery queue (its worker would take that process's print jobs). Each
# is counted from the first Redis address the run was given, kept in the environment, so the
# programs a test starts with these settings land on their process's database again.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
_redis = urlsplit(os.environ.setdefault("STORMWISE_TEST_REDIS_BASE", os.environ["REDIS_URL"]))
_db = int(_redis.path.strip("/") or 0) + (int(WORKER.removeprefix("gw")) if WORKER else 6)
os.environ["REDIS_URL"] = urlunsplit(_redis._replace(path=f"/{_db}"))
# A key of this run's own, in the environment so that the servers and workers the tests start
# share it; no key written in the repository may sign anything (config/install.py).
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(48))
os.environ.setdefault("DEBUG", "0")

from config.settings import *  # noqa: E402,F401,F403

SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
ALLOWED_HOSTS = ["*"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MEDIA_ROOT = BASE_DIR / ".test-media" / (WORKER or "main")  # noqa: F405
BOT_STEP_SECONDS = 0.05
KEEPER_STEP_SECONDS = 0.05  # a test that needs a seat kept longer sets it
# Counters in the cache (join guesses, sign-in throttling) start afresh each run, though Redis
# keeps the last run's for their window.
CACHES["default"]["KEY_PREFIX"] = os.environ.setdefault("TEST_CACHE_PREFIX", "test-" + secrets.token_hex(4))  # noqa: F405
RATE_LIMIT_PREFIX = "limits-" + CACHES["default"]["KEY_PREFIX"]  # noqa: F405
TEACHER_SIGNUP = "open"  # the suite signs teachers up; the closed default: tests/test_install.py
STORMWISE_SCENARIOS = [*STORMWISE_SCENARIOS, "tests.shelter_race"]  # noqa: F405 - a fixture scenario
# The test process's own threads (a test's workers, its in-process servers and loops) each keep a
# connection for as long as they live, which would leave a served process's pool of 12 waiting;
# here each has its own, as without the pool. The servers a test starts (tests/served.py) are
# served processes, pool included.
DATABASES["default"].get("OPTIONS", {}).pop("pool", None)  # noqa: F405
# Each transactional test's flush deletes rows instead of truncating tables (tests/db/postgresql).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    DATABASES["default"]["ENGINE"] = "tests.db.postgresql"  # noqa: F405
