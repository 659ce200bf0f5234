"""One install of Stormwise is its own: its secret key, its teacher's password, the hosts it answers
to; and `HOST=0.0.0.0 make run` survives a curious student's look around the classroom network."""

import http.cookiejar
import json
import os
import re
import secrets
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from config import install
from tests.ports import free_port

ROOT = Path(__file__).resolve().parent.parent
TEST_ONLY = {
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_SETTINGS_MODULE",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "TEST_CACHE_PREFIX",
    "HOST",
    "PORT",
    "PUBLIC_BASE_URL",
    "TEACHER_SIGNUP",
}


def embedded_env(data_dir, **extra):
    """The environment of `make run`: no services, settings of their own, data in ``data_dir``."""
    env = {k: v for k, v in os.environ.items() if k not in TEST_ONLY}
    env.update(
        DATA_DIR=str(data_dir),
        MEDIA_ROOT=str(Path(data_dir) / "media"),
        **{k: str(v) for k, v in extra.items()},
    )
    return env


def manage(data_dir, *args, timeout=180, **extra):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=embedded_env(data_dir, **extra),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def settings_of(env, *names):
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        f"print(json.dumps([getattr(s, n) for n in {list(names)!r}]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"DJANGO_SETTINGS_MODULE": "config.settings", **env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


# --- Secrets per install ----------------------------------------------------------------------------


def test_each_embedded_install_makes_its_own_secret_key_readable_only_by_its_owner(tmp_path):
    first, second = tmp_path / "laptop-a", tmp_path / "laptop-b"
    key_a = settings_of(embedded_env(first), "SECRET_KEY")[0]
    key_file = first / install.SECRET_KEY_FILE
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert key_file.read_text().strip() == key_a and install.secret_key_problem(key_a) is None
    assert settings_of(embedded_env(first), "SECRET_KEY")[0] == key_a  # kept across runs
    assert settings_of(embedded_env(second), "SECRET_KEY")[0] != key_a  # not shared between installs
    key_file.chmod(0o644)
    settings_of(embedded_env(first), "SECRET_KEY")
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    ignored = subprocess.run(["git", "check-ignore", "-q", install.SECRET_KEY_FILE], cwd=ROOT)
    assert ignored.returncode == 0, "the key file beside db.sqlite3 must be gitignored"


def secret_keys_written_in_the_repository():
    """Every string given as SECRET_KEY (or SECRET) in a tracked file."""
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    pattern = re.compile(
        r"""SECRET(?:_KEY)?["']?\s*[=:,]\s*(?:os\.environ\.get\([^)]*\)\s*or\s*)?["']([^"'\s]{8,})["']"""
    )
    found = set()
    for name in files:
        path = ROOT / name
        if path.suffix in {".py", ".md", ".txt", ".cfg", ".ini", ".toml", ".sh", ""} and path.is_file():
            found |= set(pattern.findall(path.read_text(errors="ignore")))
    return found | install.KNOWN_SECRET_KEYS


@pytest.mark.parametrize("key", sorted(secret_keys_written_in_the_repository()) + ["short-but-random-Xy7"])
def test_real_services_refuse_a_published_or_short_secret_key(key):
    env = embedded_env(
        ROOT,
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres",
        SECRET_KEY=key,
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONPATH=str(ROOT),
    )
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_teacher_sign_up_is_closed_unless_the_install_opens_it(tmp_path):
    """Neither a classroom laptop nor a server on real services lets anyone make a teacher account
    until the install names who may (``TEACHER_SIGNUP``)."""
    import secrets

    real = embedded_env(
        tmp_path,
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres",
        REDIS_URL="redis://127.0.0.1:6379/0",
        SECRET_KEY=secrets.token_urlsafe(48),
    )
    assert settings_of(embedded_env(tmp_path), "TEACHER_SIGNUP") == ["closed"]
    assert settings_of(real, "TEACHER_SIGNUP") == ["closed"]
    assert settings_of({**real, "TEACHER_SIGNUP": "School.example"}, "TEACHER_SIGNUP") == ["school.example"]


def test_a_report_link_needs_the_participants_own_secret(db):
    """Signing ids is not enough to open a child's report: the link carries a random secret of
    the participant's own, and links made from ids alone are refused."""
    from scoring import services
    from tests.factories import started_session

    session, devices = started_session(students=2)
    first, second = devices[0][0], devices[1][0]
    assert first.report_secret and first.report_secret != second.report_secret
    own = services.student_report_token(first)
    assert Client().get(reverse("scoring:student_report", args=[own])).status_code == 200
    signer = signing.TimestampSigner(salt=services.LINK_SALT)
    for forged in (
        signer.sign(f"{session.pk}:{first.pk}"),
        signer.sign(f"{session.pk}:{first.pk}:"),
        signer.sign(f"{session.pk}:{first.pk}:{second.report_secret}"),
    ):
        assert Client().get(reverse("scoring:student_report", args=[forged])).status_code == 410


# --- Debug only on loopback, the hosts actually served ------------------------------------------------


def test_debug_is_off_and_hosts_are_named_when_serving_beyond_loopback(tmp_path):
    loopback = settings_of(embedded_env(tmp_path, HOST="127.0.0.1"), "DEBUG_PAGES", "ALLOWED_HOSTS")
    assert loopback == [True, ["localhost", "127.0.0.1", "[::1]"]]
    lan = install.lan_address()
    network = settings_of(
        embedded_env(tmp_path, HOST="0.0.0.0", DEBUG="1"), "DEBUG_PAGES", "ALLOWED_HOSTS", "PUBLIC_BASE_URL"
    )
    assert network == [False, list(dict.fromkeys(["localhost", "127.0.0.1", "[::1]", lan])), f"http://{lan}:8000"]
    proxied = settings_of(
        embedded_env(tmp_path, HOST="0.0.0.0", PUBLIC_BASE_URL="https://storm.school.example"), "ALLOWED_HOSTS"
    )[0]
    assert "storm.school.example" in proxied and "*" not in proxied


def test_error_pages_are_plain_and_friendly(client, db):
    """With DEBUG off a missing page and a server error show our own short pages, nothing else."""
    from django.test import RequestFactory
    from django.views.defaults import server_error

    missing = client.get("/no/such/page")
    assert missing.status_code == 404
    assert "Page not found" in missing.content.decode() and "URLconf" not in missing.content.decode()
    failed = server_error(RequestFactory().get("/"))
    assert failed.status_code == 500 and "Something went wrong" in failed.content.decode()


# --- `HOST=0.0.0.0 make run`, looked around by a curious student ---------------------------------------


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Visitor:
    """An anonymous browser: keeps cookies, follows no redirects, never raises on a status."""

    def __init__(self, base):
        self.base, self.jar = base, http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirects)

    def request(self, path, data=None, headers=None):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body, headers=headers or {})
        try:
            with self.opener.open(request, timeout=20) as response:
                return response.status, response.headers, response.read().decode(errors="replace")
        except urllib.error.HTTPError as error:  # headers: looked up by name whatever its case
            return error.code, error.headers, error.read().decode(errors="replace")

    def cookie(self, name):
        return next((c.value for c in self.jar if c.name == name), None)

    def sign_in(self, email, password, headers=None):
        self.request("/accounts/login/")
        status, found, _body = self.request(
            "/accounts/login/",
            {"csrfmiddlewaretoken": self.cookie("csrftoken"), "username": email, "password": password},
            headers,
        )
        return status, found.get("Location")


def published_credentials():
    """Every e-mail and password pair a reader of the repository could try."""
    readme = (ROOT / "README.md").read_text()
    passwords = set(install.KNOWN_PASSWORDS) | set(re.findall(r"password[:\s]+`?([^\s`]{6,})", readme, re.I))
    return [("demo@stormwise.test", password) for password in sorted(passwords)]


def passwords_written_in_the_repository():
    """Every string given as a password in a tracked file (code, tests, README)."""
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    patterns = [
        re.compile(r"""(?i)password\w*["']?\s*[:=]\s*["']([^"'\s{}]{6,})["']"""),
        re.compile(r"""(?i)get_by_label\("Password[^)]*\)\.fill\(["']([^"']{6,})["']"""),
        re.compile(r"(?i)password[:\s]+`([^\s`]{6,})`"),
    ]
    found = set()
    for name in files:
        path = ROOT / name
        if path.suffix in {".py", ".md", ".txt", ".sh", ".html"} and path.is_file():
            text = path.read_text(errors="ignore")
            found |= {match for pattern in patterns for match in pattern.findall(text)}
    return found - {
        "password1",
        "password2",
        "new_password1",
        "new_password2",
        "old_password",
        "password_change",
        "password_reset",
        "new-password",
        "current-password",
    }


def test_no_password_written_in_the_repository_signs_in(db):
    """Every password literal in the repository is on the refused list, and none signs in, even
    set on a real account."""
    from django.contrib.auth import authenticate

    from classroom.models import Teacher

    written = passwords_written_in_the_repository()
    assert "hurricane-demo-2026" in install.KNOWN_PASSWORDS
    assert written <= install.KNOWN_PASSWORDS, sorted(written - install.KNOWN_PASSWORDS)
    for number, password in enumerate(sorted(install.KNOWN_PASSWORDS)):
        teacher = Teacher.objects.create_user(email=f"t{number}@school.test", password=password)
        assert teacher.check_password(password)
        assert authenticate(username=teacher.email, password=password) is None


@pytest.fixture
def classroom_server(tmp_path):
    """`HOST=0.0.0.0 make run` from a fresh clone: migrate, the teacher, serve in embedded mode on
    every interface, with a data folder of its own. Yields its address and the printed password."""
    port = free_port()
    for step in (["migrate", "--noinput", "-v", "0"], ["seed_demo"]):
        result = manage(tmp_path, *step)
        assert result.returncode == 0, result.stderr
    password = re.search(r"password: (\S+)", result.stdout).group(1)
    made = manage(
        tmp_path,
        "shell",
        "-c",
        (
            "from classroom import services; from classroom.models import Teacher; "
            "s = services.create_session(teacher=Teacher.objects.get(), scenario='evacuation', seed=1); "
            "p, _ = services.join(session=s, nickname='Kid'); print(s.pk, p.pk)"
        ),
    )
    assert made.returncode == 0, made.stderr
    session_id, participant_id = made.stdout.split()[-2:]
    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--host", "0.0.0.0", "--port", str(port)],
        cwd=ROOT,
        env=embedded_env(tmp_path, HOST="0.0.0.0"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    address = install.lan_address()
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection((address, port), timeout=1).close()
            break
        except OSError:
            assert server.poll() is None and time.monotonic() < deadline, (
                server.stdout.read() if server.poll() else "slow"
            )
            time.sleep(0.2)
    yield {
        "base": f"http://{address}:{port}",
        "password": password,
        "session": session_id,
        "participant": participant_id,
        "server": server,
    }
    server.terminate()
    output, _ = server.communicate(timeout=20)
    assert "Internal Server Error" not in output, output


DEBUG_SIGNS = (
    "Traceback",
    "URLconf",
    "DEBUG = True",
    "Django settings",
    "technical_500",
    "SECRET_KEY",
    "Request Method:",
    "Exception Value",
)


def test_make_run_on_the_classroom_network_gives_a_curious_student_nothing(classroom_server):
    base = classroom_server["base"]
    student = Visitor(base)
    pages = [
        "/",
        "/join",
        "/check",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password_reset/",
        "/admin/",
        "/healthz",
        "/no/such/page",
        "/sessions/1/",
        "/sessions/1/debrief/export.csv",
        f"/sessions/{classroom_server['session']}/screen",
        "/static/no-such-file.css",
        "/report/abc/",
        "/play/1/",
        "/debrief/reports/1/",
        "/accounts/signup/MQ/set-password/",
        "/join/ZZZZZZ",
        "/join/" + "Q" * 40,
    ]
    for path in pages:
        status, _headers, body = student.request(path)
        assert status < 500, (path, status, body[:500])
        assert not any(sign in body for sign in DEBUG_SIGNS), (path, body[:500])

    status, _headers, body = student.request("/accounts/login/", {"username": "x", "password": "y"})
    assert status == 403 and "Please try again" in body  # no CSRF cookie: our page, not Django's
    status, _headers, body = student.request("/no/such/page")
    assert status == 404 and "Page not found" in body
    assert student.request("/healthz")[2].strip() == '{"ok": true}'
    assert student.request("/static/css/stormwise.css")[0] == 200  # DEBUG off, whitenoise still serves
    assert student.request("/", headers={"Host": "evil.example"})[0] == 400

    for email, password in published_credentials():
        status, location = Visitor(base).sign_in(email, password)
        assert status == 200 and location is None, (password, status, location)

    # A report link signed with the key every old install shared opens nothing.
    old_key = "embedded-only-insecure-key-do-not-use-in-production"
    forged = signing.TimestampSigner(key=old_key, salt="scoring.student-report").sign(
        f"{classroom_server['session']}:{classroom_server['participant']}"
    )
    assert student.request(f"/report/{forged}/")[0] == 410

    # The printed password works: the look-around was not refused for some other reason.
    assert Visitor(base).sign_in("demo@stormwise.test", classroom_server["password"]) == (302, "/")

    # X-Forwarded-For is not believed, not even from loopback (uvicorn's default): inventing
    # addresses does not escape the limit of wrong passwords for one account from one address.
    guesser = Visitor(base.replace(base.split("//")[1].split(":")[0], "127.0.0.1"))
    answers = [
        guesser.sign_in("demo@stormwise.test", f"guess-{n}", {"X-Forwarded-For": f"10.1.{n}.7"})[0] for n in range(11)
    ]
    assert answers == [200] * 10 + [429]


def test_a_password_is_vetted_once_and_a_published_one_is_always_found(db):
    """A server start asks of every teacher whether their password was published. One set through
    the app is vetted as it is set (its hash recorded); one from an older database is hashed
    against every published password once, then recorded; a published one is found however it
    was stored, and a hash that changed since it was vetted is checked again."""
    from django.contrib.auth.hashers import make_password

    from classroom.accounts import uses_published_password
    from classroom.models import Teacher

    clean = Teacher.objects.create_user(email="clean@school.test", password=secrets.token_urlsafe(12))
    assert clean.password_vetted == clean.password and not uses_published_password(clean)
    published = Teacher.objects.create_user(email="demo@school.test", password="hurricane-demo-2026")
    assert published.password_vetted == "" and uses_published_password(published)

    # An older database: hashes with nothing vetted, one of them a published password.
    Teacher.objects.filter(pk=clean.pk).update(password_vetted="")
    Teacher.objects.filter(pk=published.pk).update(password=make_password("not-the-password"), password_vetted="")
    old = Teacher.objects.get(pk=clean.pk)
    assert not uses_published_password(old)
    assert Teacher.objects.get(pk=clean.pk).password_vetted == old.password  # the next start skips it
    assert uses_published_password(Teacher.objects.get(pk=published.pk))
    assert Teacher.objects.get(pk=published.pk).password_vetted == ""

    # A published password stored behind the app's back (only its hash) is found again.
    Teacher.objects.filter(pk=clean.pk).update(password=make_password("nope-nope-nope"))
    assert uses_published_password(Teacher.objects.get(pk=clean.pk))


def test_serve_refuses_the_network_while_a_published_password_is_in_use(tmp_path):
    assert manage(tmp_path, "migrate", "--noinput", "-v", "0").returncode == 0
    assert (
        manage(
            tmp_path,
            "shell",
            "-c",
            (
                "from classroom.models import Teacher; Teacher.objects.create_user("
                "email='demo@stormwise.test', password='hurricane-demo-2026')"
            ),
        ).returncode
        == 0
    )
    refused = manage(tmp_path, "serve", "--host", "0.0.0.0", "--port", str(free_port()), timeout=60)
    assert refused.returncode != 0
    assert "demo@stormwise.test still use(s) a password published with Stormwise" in refused.stderr

    # make run's next step replaces it, printing the new one once; then the network is served.
    seeded = manage(tmp_path, "seed_demo")
    new = re.search(r"demo@stormwise.test  password: (\S+)", seeded.stdout).group(1)
    assert new not in install.KNOWN_PASSWORDS and len(new) == 14
    again = manage(tmp_path, "teacher_password")
    assert re.search(r"new password: (\S+)", again.stdout).group(1) != new


# --- The default `make run`, behind a proxy on the same machine ----------------------------------------


@pytest.fixture
def loopback_server(tmp_path):
    """The default `make run`: embedded mode on loopback, with the developer's debug pages on.
    Yields its address and a function that reads what it has logged."""
    result = manage(tmp_path, "migrate", "--noinput", "-v", "0")
    assert result.returncode == 0, result.stderr
    port, log = free_port(), tmp_path / "serve.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env=embedded_env(tmp_path),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
    yield f"http://127.0.0.1:{port}", lambda: log.read_text(errors="replace")
    server.terminate()
    server.wait(timeout=20)


def test_a_loopback_server_behind_a_proxy_shows_debug_pages_to_its_own_machine_only(loopback_server):
    """A proxy on the laptop passes on the public Host, or a student's "Host: localhost", from
    loopback: neither gets a debug page (settings, URL patterns), only the short pages; a request
    for an unknown host is logged as one line, without a traceback; a malformed ``?session=`` opens
    the card without it, not a server error. A browser on the laptop itself still gets the debug page."""
    base, log = loopback_server
    visitor = Visitor(base)
    forwarded = {"X-Forwarded-For": "203.0.113.7"}
    for _ in range(3):
        status, _headers, body = visitor.request("/join", headers={"Host": "stormwise.school.example"})
        assert status == 400 and "Something was wrong with that request" in body
        assert not any(sign in body for sign in DEBUG_SIGNS), body[:500]
    status, _headers, body = visitor.request("/no/such/page", headers={"Host": "localhost", **forwarded})
    assert status == 404 and "Page not found" in body
    assert not any(sign in body for sign in DEBUG_SIGNS), body[:500]
    status, _headers, body = visitor.request(
        "/lessons/tornado_alert/how-to-play?session=%C2%B2", headers={"Host": "localhost", **forwarded}
    )
    assert status == 200 and "How to play" in body, body[:500]
    assert not any(sign in body for sign in DEBUG_SIGNS), body[:500]
    status, _headers, body = visitor.request("/no/such/page", headers={"Host": "localhost"})
    assert status == 404 and "URLconf" in body  # the developer's own browser

    logged = log()
    assert logged.count("Invalid HTTP_HOST header") == 3, logged
    assert "Traceback" not in logged, logged


def test_a_malformed_session_in_a_how_to_play_link_opens_the_card_without_it(client):
    """``?session=`` holding no session id (a superscript digit, a number past any id) is no
    server error: the card opens as it does without a session."""
    title = (
        "<h1>" + client.get("/lessons/tornado_alert/how-to-play").content.decode().split("<h1>")[1].split("</h1>")[0]
    )
    for raw in ("%C2%B2", "9" * 40):
        response = client.get(f"/lessons/tornado_alert/how-to-play?session={raw}")
        assert response.status_code == 200 and title in response.content.decode()
