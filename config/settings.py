"""Stormwise settings: everything that differs between machines comes from the environment.

With no environment at all this is the embedded default of `make run`: SQLite, an in-memory
channel layer and Celery tasks run in-process on a background thread. Setting DATABASE_URL and
REDIS_URL switches to the real services (PostgreSQL, Redis channel layer and broker).
"""

import os
from pathlib import Path
from urllib.parse import urlparse

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config import install

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default=False):
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name, default=""):
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Embedded mode (no DATABASE_URL) is a teacher's laptop or a developer's machine. Its SQLite
# file and its own secret key live in DATA_DIR (the project folder unless set; both gitignored).
EMBEDDED = not os.environ.get("DATABASE_URL")
DATA_DIR = Path(os.environ.get("DATA_DIR") or BASE_DIR)

# The address the server listens on: `manage.py serve --host` puts it here before settings load.
HOST = os.environ.get("HOST", "127.0.0.1")
PORT = int(os.environ.get("PORT", "8000"))
LOOPBACK_ONLY = install.is_loopback(HOST)
# Passwords published with Stormwise (config/install.py): never accepted for a teacher.
PUBLISHED_PASSWORDS = install.KNOWN_PASSWORDS

if EMBEDDED and not os.environ.get("SECRET_KEY"):
    SECRET_KEY = install.embedded_secret_key(DATA_DIR)
else:
    SECRET_KEY = os.environ.get("SECRET_KEY", "")
    if problem := install.secret_key_problem(SECRET_KEY):
        raise ImproperlyConfigured(
            f"{problem} Set SECRET_KEY to at least {install.MIN_SECRET_KEY_LENGTH} random characters, e.g. "
            "the output of: python3 -c 'import secrets; print(secrets.token_urlsafe(48))'"
        )

# Every printed or encoded address (join URL, QR code) is built from this.
PUBLIC_BASE_URL = (
    os.environ.get("PUBLIC_BASE_URL")
    or f"http://{'localhost' if LOOPBACK_ONLY else install.served_address(HOST)}:{PORT}"
).rstrip("/")
# The names this server answers to: loopback, the address it serves and the public one.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS") or install.allowed_hosts(
    HOST, urlparse(PUBLIC_BASE_URL).hostname if os.environ.get("PUBLIC_BASE_URL") else None
)
# Django's debug pages show settings, paths and local variables: never to another machine, so
# they are off unless every name this server answers to is loopback (a proxy's public name, a
# LAN address or "*" turns them off), and even then shown only to this machine's own requests
# (config.errors): Django's own DEBUG, which would show them to every request, stays off.
DEBUG_PAGES = env_bool("DEBUG", EMBEDDED) and LOOPBACK_ONLY and all(install.is_loopback(h) for h in ALLOWED_HOSTS)
DEBUG = False
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# Addresses of reverse proxies whose X-Forwarded-For/-Proto headers uvicorn believes; from any
# other address the headers are ignored, so a request cannot choose its own address or scheme.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "classroom",
    "games",
    "scoring",
    "lessons",
    "lti_tool",
    "lti",
]

# The registry line: each installed scenario's package, in the order the new-session form lists
# them (see scenarios/registry.py and README's "Add a scenario").
STORMWISE_SCENARIOS = [
    "scenarios.evacuation",
    "scenarios.stormfury",
    "scenarios.resort",
    "scenarios.tornado_alert",
    "scenarios.bermuda",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "lti.framing.FramedCookiesMiddleware",  # LTI pages framed by a platform: their cookies cross sites
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "classroom.accounts.KeepSignedInMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    [
                        "django.template.loaders.filesystem.Loader",
                        "django.template.loaders.app_directories.Loader",
                        "scenarios.loaders.TemplateLoader",  # each scenario's own templates
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
            "debug": DEBUG_PAGES,  # where in a template an error was, on a debug page
        },
    },
]

# --- Database -----------------------------------------------------------------------------------
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{DATA_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    if not str(DATABASES["default"]["NAME"]).startswith((":memory:", "file:")):
        install.owner_only_database(DATABASES["default"]["NAME"])
    # The embedded server's taps run on a few worker threads; each keeps its SQLite connection
    # rather than opening one (and running the PRAGMAs below) for every tap.
    DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ["CONN_MAX_AGE"]) if "CONN_MAX_AGE" in os.environ else None
    # Many readers and one writer at a time without "database is locked" surprises.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        # secure_delete: a deleted session's rows are overwritten, not left in free pages.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA secure_delete=ON;",
    }
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and int(os.environ.get("DB_POOL_SIZE", "12")):
    # Django's own pool (psycopg_pool): each request's thread borrows a connection and gives it back,
    # and a process never holds more than DB_POOL_SIZE, however many requests a crowd sends at once
    # (each of Django's requests runs on a thread of its own, with a connection of its own). A
    # request past that waits its turn for up to DB_POOL_TIMEOUT seconds, rather than PostgreSQL
    # refusing every process of the district once its max_connections are taken. The pool replaces
    # persistent connections (CONN_MAX_AGE).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": int(os.environ.get("DB_POOL_SIZE", "12")),
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
        "max_idle": 300,
        "max_lifetime": 1800,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channels and Celery --------------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis pub/sub held p99 27 ms at 1,000 sockets where channels-redis's classic layer
            # reached 204 ms (docs/decisions/0009-uvicorn-pubsub-layer.md); the layer speaks to
            # Redis on connections of its own (docs/decisions/0014-redis-layer-own-connections.md).
            "BACKEND": "classroom.fast.redis_layer.RedisPubSubChannelLayer",
            # Pub/sub channels ignore Redis's database number, so the prefix carries it: two
            # sites (or test runs) on one Redis server with different databases never hear
            # each other's games.
            "CONFIG": {
                "hosts": [REDIS_URL],
                "prefix": "stormwise" + (urlparse(REDIS_URL).path.strip("/") or "0"),
            },
        }
    }
else:
    # One process (the embedded server): Channels' in-memory layer, without its scans.
    CHANNEL_LAYERS = {"default": {"BACKEND": "classroom.fast.memory_layer.InMemoryChannelLayer"}}

# "redis" runs tasks on Celery workers; "thread" runs them in this process on one background
# thread (embedded mode: no broker needed, and never in a request or socket thread).
TASK_MODE = os.environ.get("TASK_MODE", "redis" if REDIS_URL else "thread")
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
# A task whose whole worker died (SIGKILL, out of memory, lost machine) is handed out again once
# it has been unacknowledged this long; a dead pool child's task is given back at once
# (reject_on_worker_lost). It must stay well above the longest a healthy worker holds a task
# (one report, well under a minute: with prefetch 1 a worker holds only what it runs), or Redis
# hands running reports to a second worker. No task is scheduled ahead (turn timers are
# deadlines in the database). Workers look for such tasks every restore interval; kombu's
# default throttle scans only every tenth look (100 s), so a killed worker's report stayed
# stuck up to 11 min 40 s rather than the 10 min this setting names.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "600")),
    "unacked_restore_interval": int(os.environ.get("CELERY_UNACKED_RESTORE_INTERVAL", "10")),
    "unacked_restore_throttle": 1,
    # A broker that accepts a connection and then says nothing must not hold a request for ever
    # (scoring.queue also bounds the wait for a pooled connection).
    "socket_timeout": 3,
    "socket_connect_timeout": 3,
}
CELERY_BROKER_CONNECTION_TIMEOUT = 3

# --- Auth -----------------------------------------------------------------------------------------
AUTH_USER_MODEL = "classroom.Teacher"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "classroom:home"
# Refuses every password ever published (the old demo password, the README's) even if an old
# database still holds it.
AUTHENTICATION_BACKENDS = ["classroom.accounts.NoPublishedPasswordBackend"]
# A teacher who leaves a laptop signed in is signed out after a school day without using it;
# classroom.accounts.KeepSignedInMiddleware pushes the expiry on while they work.
SESSION_COOKIE_AGE = int(float(os.environ.get("TEACHER_IDLE_HOURS", "8")) * 3600)
# Who may create a teacher account: "open", "closed", or the e-mail domains allowed
# ("school.example,district.example"). Closed unless the install opens it: a laptop in a
# classroom has its one teacher, and a district opens it to its own domains (an open sign-up
# lets any student make themselves a teacher).
TEACHER_SIGNUP = os.environ.get("TEACHER_SIGNUP", "closed").strip().lower()
# Sign-up and password reset links go out by e-mail; the embedded mode prints them in the terminal.
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if EMBEDDED else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "stormwise@localhost")
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Internationalisation ----------------------------------------------------------------------
LANGUAGE_CODE = "en"
# Each student picks one of these on their tablet (the browser's by default, see
# classroom.languages); a new language is one line here and its catalogues (README, "Add a language").
LANGUAGES = [("en", _("English")), ("es", _("Spanish")), ("nl", _("Dutch"))]


def _scenario_locale_paths(packages):
    """Each scenario keeps its own catalogues in <its folder>/locale, beside its templates."""
    from importlib.util import find_spec

    paths = []
    for package in packages:
        spec = find_spec(package)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            paths.append(Path(folder) / "locale")
    return paths


LOCALE_PATHS = [BASE_DIR / "locale", *_scenario_locale_paths(STORMWISE_SCENARIOS)]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_TZ = True

# --- Static files: every asset comes from our own server ---------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "scenarios.loaders.StaticFinder",  # each scenario's renderer, as scenarios/<key>/...
]
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG_PAGES
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
MEDIA_URL = "media/"

# --- Privacy: sessions' nicknames and move logs are purged after this many days -------------------
RETENTION_DAYS = int(os.environ.get("RETENTION_DAYS", "30"))
# Sessions one teacher account may keep (a month of lessons for every class, many times over).
SESSIONS_PER_TEACHER = int(os.environ.get("SESSIONS_PER_TEACHER", "300"))
# A student's device opens its own report from its cookie for this long after the lesson ends;
# later, the next child on a shared tablet must not (the teacher hands out the report link).
DEVICE_REPORT_HOURS = 4

# --- Learning management systems (LTI 1.3: lti/) ----------------------------------------------------
# A score the course's gradebook did not take is tried again this many times, waiting this many
# seconds and twice as long each time after, before the teacher's gradebook page says so.
LTI_SCORE_RETRIES = int(os.environ.get("LTI_SCORE_RETRIES", "5"))
LTI_SCORE_RETRY_SECONDS = float(os.environ.get("LTI_SCORE_RETRY_SECONDS", "30"))

# --- Request bodies: config.bodylimit refuses a bigger one (413) before it is read ---------------
# The largest form is the teacher's new-session form, well under this.
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024

# --- Production hardening (DEBUG off) -------------------------------------------------------------
# Behind a TLS proxy, uvicorn takes the scheme from X-Forwarded-Proto of TRUSTED_PROXIES only
# (manage.py serve), so Django needs no SECURE_PROXY_SSL_HEADER, which would believe anyone.
if not DEBUG_PAGES and not EMBEDDED:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

# No inline scripts anywhere: pages pass data through json_script or data- attributes.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # a visitor's bad request (an unknown host, any 4xx) is one line, without traceback (config.errors)
    "filters": {"visitors_faults": {"()": "config.errors.VisitorsFaultsWithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["visitors_faults"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# --- Live play ------------------------------------------------------------------------------------
# Bots act on a clock a person can follow; tests shorten it.
BOT_STEP_SECONDS = float(os.environ.get("BOT_STEP_SECONDS", "1.0"))
# A bot keeping a seat for a late arrival in a game whose seats leave it one by one (a household
# that arrives is done) steps at a child's pace, so the seat is still in play when they come.
KEEPER_STEP_SECONDS = float(os.environ.get("KEEPER_STEP_SECONDS", "12.0"))
# How many times faster than real time every clock of a lesson runs (games/clock.py): 1 when
# served; only a test of a whole lesson at a child's pace sets it higher.
LESSON_CLOCK_SPEED = 1.0
# A socket's tap runs on async psycopg when the database is PostgreSQL (games/pgpool.py);
# off, it takes the ORM path on a worker thread like every other change.
LIVE_ASYNC_DB = env_bool("LIVE_ASYNC_DB", True)

# --- Cache: flood holds and what else a process shares; rate limits count in RATE_LIMIT_STORAGE --
# A store the counts cannot be pushed out of: Redis (shared by every process) with real services,
# the database in embedded mode. Django's in-memory cache keeps 300 entries, so 300 misses from
# anywhere would wipe every count.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "stormwise",
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "stormwise_limits",
            # culled only past a million live counts (expired ones go first)
            "OPTIONS": {"MAX_ENTRIES": 1_000_000},
        }
    }
# Every rate limit (classroom.ratelimit): in Redis with real services, shared by every process and
# host; in the one process's memory in embedded mode.
RATE_LIMIT_STORAGE = os.environ.get("RATE_LIMIT_STORAGE") or REDIS_URL or "memory://"
RATE_LIMIT_PREFIX = "stormwise-limits"
# Wrong join codes allowed per ten minutes: per device, per address (a whole class shares one
# school address, so it is generous), and for the whole server.
JOIN_GUESSES = {
    "device": int(os.environ.get("JOIN_GUESSES_DEVICE", "8")),
    "address": int(os.environ.get("JOIN_GUESSES_ADDRESS", "120")),
    "global": int(os.environ.get("JOIN_GUESSES_GLOBAL", "2000")),
}
JOIN_GUESS_WINDOW_SECONDS = 600
# A device past its allowance waits this long, doubling with each further miss, up to the most;
# while an address is over its ceiling a device's code is looked up once it has held its id this long.
JOIN_BACKOFF_SECONDS, JOIN_BACKOFF_MAX_SECONDS = 30, 600
JOIN_SETTLE_SECONDS = float(os.environ.get("JOIN_SETTLE_SECONDS", "5"))
# While an address is over its ceiling, its settled devices' codes are looked up at this pace at
# most, as (burst, then look-ups a second): a class retyping a code gets through, a flood of
# cookies aged beforehand costs the database a few look-ups a second, not one per cookie.
JOIN_CROWDED_LOOKUPS = (5, 2.0)
# Joins that seat a student, as (burst, then joins a second), per device and per address: a class
# of 35 behind one school address gets in over a minute; a script's burst waits (classroom.pace).
JOIN_PACE = {"device": (2, 1 / 30), "address": (20, 1.0)}
# Requests to carry on as a student from another tablet, per lesson whatever the devices: at most
# this many waiting at once, and a few, then one a minute (classroom.services.request_device_move).
MOVE_PACE = {"waiting": 3, "burst": 3, "per_second": 1 / 60}
