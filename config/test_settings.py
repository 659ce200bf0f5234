"""Test settings: the real services on their standard local ports, overridable by environment."""
import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/stormwise")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")
os.environ.setdefault("SECRET_KEY", "test-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz")
os.environ.setdefault("DEBUG", "0")

from config.settings import *  # noqa: E402,F401,F403

SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
ALLOWED_HOSTS = ["*"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MEDIA_ROOT = BASE_DIR / ".test-media"  # noqa: F405
BOT_STEP_SECONDS = 0.05
STORMWISE_SCENARIOS = [*STORMWISE_SCENARIOS, "tests.shelter_race"]  # noqa: F405 - a fixture scenario
