import json
import os
import urllib.request
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent


def _healthz(url, cookie=""):
    request = urllib.request.Request(f"{url}/healthz", headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, json.load(response)


def test_healthz_reports_real_services(asgi_server, celery_worker):
    """/healthz, served over ASGI, tells staff it runs on PostgreSQL, the Redis layer and Celery,
    each answering; anyone else learns only that it is well."""
    from django.test import Client

    from classroom.models import Teacher

    assert _healthz(asgi_server) == (200, {"ok": True})
    for staff in (False, True):
        teacher = Teacher.objects.create_user(email=f"staff-{staff}@school.test", is_staff=staff)
        browser = Client()
        browser.force_login(teacher)
        status, report = _healthz(asgi_server, f"sessionid={browser.cookies['sessionid'].value}")
        if not staff:
            assert (status, report) == (200, {"ok": True})
    assert status == 200, report
    assert report["database"]["engine"] == "postgresql" and report["database"]["ok"]
    assert report["channel_layer"]["backend"] == "RedisPubSubChannelLayer" and report["channel_layer"]["ok"]
    assert report["tasks"]["mode"] == "redis" and report["tasks"]["ok"]
    assert "1 worker(s) answered" in report["tasks"]["detail"]


def _manage(*args, **env):
    full_env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    full_env.update(env)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=full_env,
                          capture_output=True, text=True, timeout=120)


def test_production_settings_pass_deploy_check():
    """With DEBUG off, a secret key and host names, `check --deploy` has no warnings."""
    import secrets

    result = _manage("check", "--deploy", "--fail-level", "WARNING",
                     DEBUG="0", SECRET_KEY=secrets.token_urlsafe(48),
                     ALLOWED_HOSTS="stormwise.example.org", DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_secret_key():
    """Real-services mode never falls back to a built-in secret key."""
    result = _manage("check", DEBUG="0", DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres")
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_embedded_mode_is_sqlite_memory_layer_and_thread_tasks(tmp_path):
    """With no environment, the app runs on SQLite (WAL), the in-memory layer and a task thread."""
    code = ("import django,json;django.setup();from django.conf import settings as s;"
            "from django.db import connection as c;c.ensure_connection();"
            "cur=c.cursor();cur.execute('PRAGMA journal_mode');"
            "print(json.dumps([s.DATABASES['default']['ENGINE'],s.CHANNEL_LAYERS['default']['BACKEND'],s.TASK_MODE,cur.fetchone()[0]]))")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY"}}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DATA_DIR=str(tmp_path))
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env={**env, "PYTHONPATH": str(ROOT)},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    engine, layer, mode, journal = eval(result.stdout.strip().splitlines()[-1].replace("true", "True"))
    assert engine.endswith("sqlite3") and layer.endswith("InMemoryChannelLayer") and mode == "thread"
    assert journal == "wal"
