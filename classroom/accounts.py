"""Teacher accounts: published passwords never sign in, sign-in, sign-up and password reset are
throttled, an idle teacher is signed out after a school day, and a teacher's open dashboards
close when they sign out or their password changes.

Throttling rule: each attempt is counted by the project's rate limiter (``classroom.ratelimit``,
shared by every process with Redis), per address and, where an e-mail is typed, per account, over
the last window (15 minutes, an hour) as it slides: an attempt counts until it is a window old.
A fixed window would let twice the limit through around its end. Sign-in counts only failures;
sign-up and password reset count every request, since each may send an e-mail. Once a count
reaches its limit the action is refused, with the minutes to wait until enough attempts have aged
out.
Wrong passwords are limited tightly per account from one address ("pair") and loosely per
account from everywhere: a student guessing their teacher's password from a tablet cannot lock
the teacher out of their own laptop. Nor can a few tablets together: a browser the teacher has
signed in from keeps a signed trusted-device cookie (as django-axes and others do), and sign-in
from it is limited only by its own wrong passwords ("device"), never by the account's or the
address's.
"""

import hashlib
import logging
import secrets
import time
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import PasswordResetForm as DjangoPasswordResetForm
from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver
from django.utils.cache import patch_cache_control

from classroom import ratelimit
from games import broadcast

# action: [(what is counted, attempts allowed, window in seconds)]
LIMITS = {
    "signin": [("address", 100, 900), ("account", 50, 900), ("pair", 10, 900)],
    # a browser the teacher signed in from before (trusted_device): only its own misses count
    "signin-trusted": [("device", 10, 900)],
    "signup": [("address", 10, 3600), ("account", 3, 3600)],
    # Anyone can type a teacher's address (a demo account's is public): reset e-mails are counted
    # per address and per account from one address, and all of them together per account only
    # up to a ceiling against mail floods; a browser the teacher signed in from has its own.
    "reset": [("address", 10, 3600), ("pair", 3, 3600), ("account", 10, 3600)],
    "reset-trusted": [("device", 3, 3600)],
}
SEEN_BUCKET_SECONDS = 300


class NoPublishedPasswordBackend(ModelBackend):
    """Django's e-mail-and-password sign-in, except that a password ever published with Stormwise
    never signs in, whatever an old database holds, and that wrong passwords are counted and
    limited here, so every way in (the sign-in page, the admin's) is throttled alike."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        account = username or kwargs.get("email") or ""
        action, address = signin_limits(request, account)
        if seconds_to_wait(action, address=address, account=account):
            return None
        teacher = None
        if password not in settings.PUBLISHED_PASSWORDS:
            teacher = super().authenticate(request, username=username, password=password, **kwargs)
        if teacher is None:
            count_attempt(action, address=address, account=account)
        return teacher


def uses_published_password(teacher) -> bool:
    """Whether the teacher's password is one published with Stormwise. A password not vetted in
    its present hash (set before vetting existed, or saved without ``password_vetted``) is hashed
    once per published password, a third of a second each on a school laptop; found clean, its
    hash is recorded so that the next server start, with every teacher of a district to check,
    does not pay that again."""
    if teacher.password_vetted and teacher.password_vetted == teacher.password:
        return False
    if any(teacher.check_password(known) for known in settings.PUBLISHED_PASSWORDS):
        return True
    if teacher.pk:
        type(teacher).objects.filter(pk=teacher.pk, password=teacher.password).update(password_vetted=teacher.password)
    teacher.password_vetted = teacher.password
    return False


# --- Throttling -------------------------------------------------------------------------------------


def client_address(request) -> str:
    # uvicorn puts a trusted proxy's X-Forwarded-For here and nobody else's (manage.py serve).
    return request.META.get("REMOTE_ADDR", "")


TRUSTED_COOKIE = "sw_teacher_device"
TRUSTED_DAYS = 90
_TRUSTED_SALT = "classroom.accounts.trusted"


def _account_key(account: str) -> str:
    return hashlib.sha256((account or "").strip().lower().encode()).hexdigest()[:24]


def trusted_device(account: str) -> str:
    """The cookie value a browser keeps once the teacher signed in on it: signed, naming the
    account (not readably) and this browser."""
    from django.core import signing

    return signing.dumps({"a": _account_key(account), "d": secrets.token_urlsafe(12)}, salt=_TRUSTED_SALT)


def _trusted_id(request, account: str) -> str | None:
    """This browser's id if it carries a trusted-device cookie for ``account``."""
    from django.core import signing

    raw = request.COOKIES.get(TRUSTED_COOKIE) if request is not None else None
    try:
        data = signing.loads(raw or "", salt=_TRUSTED_SALT, max_age=TRUSTED_DAYS * 86400)
    except signing.BadSignature:
        return None
    return data.get("d") if data.get("a") == _account_key(account) else None


def signin_limits(request, account: str) -> tuple[str, str]:
    """The limits a sign-in for ``account`` from this request counts against, as (action,
    what stands for the address): a trusted browser's own, or the address's and account's."""
    device = _trusted_id(request, account)
    if device:
        return "signin-trusted", device
    return "signin", client_address(request) if request is not None else ""


def reset_limits(request, account: str) -> tuple[str, str]:
    """The limits a password reset for ``account`` from this request counts against, as (action,
    what stands for the address): a trusted browser's own, so requests from anywhere else never
    use up the reset e-mails the teacher's own browser may ask for; or the address's."""
    device = _trusted_id(request, account)
    if device:
        return "reset-trusted", device
    return "reset", client_address(request)


def _counters(action, address, account):
    """(limit, attempts allowed, window in seconds) for each count ``action`` is held to."""
    account = (account or "").strip().lower()
    values = {"address": address, "account": account, "pair": f"{account} {address}", "device": address}
    for scope, limit, window in LIMITS[action]:
        if scope not in ("address", "device") and not account:
            continue
        digest = hashlib.sha256(values[scope].encode()).hexdigest()[:24]
        yield f"{action}-{scope}:{digest}", limit, window


def seconds_to_wait(action: str, *, address: str, account: str = "") -> int:
    """0 if ``action`` may go ahead, else the seconds until enough attempts have aged out of
    every count it has reached."""
    wait = max([ratelimit.wait(*counter) for counter in _counters(action, address, account)], default=0.0)
    return int(wait) + 1 if wait else 0


def count_attempt(action: str, *, address: str, account: str = "") -> None:
    for counter in _counters(action, address, account):
        ratelimit.hit(*counter)


# --- Idle sessions ----------------------------------------------------------------------------------


class KeepSignedInMiddleware:
    """A working teacher's session is saved (and its expiry pushed on) every few minutes, so it
    ends SESSION_COOKIE_AGE after the teacher's last request, not after they signed in. Every
    page a signed-in teacher gets is ``no-store`` unless its view says otherwise."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        signed_in = user is not None and user.is_authenticated
        if signed_in:
            bucket = int(time.time() // SEEN_BUCKET_SECONDS)
            if request.session.get("seen") != bucket:
                request.session["seen"] = bucket
        response = self.get_response(request)
        if signed_in and not response.has_header("Cache-Control"):
            # a teacher's pages list the class's nicknames: never kept by a browser or a proxy
            patch_cache_control(response, no_store=True, private=True)
        return response


# --- Dashboards close when their teacher signs out or changes password -----------------------------


def teacher_group(teacher_id: int) -> str:
    return f"teacher.{teacher_id}"


def _close_dashboards_on_password_change(sender, teacher_id, **kwargs):
    """A teacher's changed password closes their open dashboards once the change is saved."""
    from django.db import transaction

    transaction.on_commit(lambda: close_dashboards(teacher_id))


def connect_signals() -> None:
    """Connect what accounts does when a model says so (``ClassroomConfig.ready``)."""
    from classroom.models import password_changed_signal

    password_changed_signal.connect(_close_dashboards_on_password_change, dispatch_uid="close-dashboards")


def close_dashboards(teacher_id: int) -> None:
    """Every open dashboard socket of this teacher, in every process, checks its sign-in and
    closes if it no longer holds (DashboardConsumer.teacher_signed_out). Pushed after commit like
    every change, best-effort."""
    broadcast.push_after_commit([(teacher_group(teacher_id), {"type": "teacher.signed_out"})])


# How long a dashboard told of a sign-out or password change waits before it checks its own
# sign-in: long enough for the request that changed the password to update its own session.
RECHECK_SECONDS = 1.0


async def still_signed_in(scope, teacher_id: int) -> bool:
    """Whether the browser session a socket opened with still signs this teacher in: read afresh
    from the session store, with Django's check of the password hash."""
    from importlib import import_module

    from channels.auth import get_user

    opened = scope.get("session")
    if opened is None or not opened.session_key:
        return False
    fresh = import_module(settings.SESSION_ENGINE).SessionStore(session_key=opened.session_key)
    user = await get_user({"session": fresh})
    return user.is_authenticated and user.pk == teacher_id


@receiver(user_logged_out)
def _signed_out(sender, request, user, **kwargs):
    if user is not None:
        # Django ends the session just after this signal; end it first, so a dashboard that
        # reloads the moment its socket closes finds itself signed out.
        if request is not None and hasattr(request, "session"):
            request.session.flush()
        close_dashboards(user.pk)


# --- E-mail, sent beside the request ------------------------------------------------------------

# Sign-up and password-reset answers are the same whether or not an address has an account; sent
# inside the request, an e-mail to an existing account made its answer seconds slower (SMTP).
_mailer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stormwise-mail")
_mail_logger = logging.getLogger(__name__)


def _send(send, args, kwargs):
    try:
        send(*args, **kwargs)
    except Exception:  # nobody waits for it: say so in the log
        _mail_logger.exception("An e-mail could not be sent.")


def send_later(send, *args, **kwargs):
    """Call ``send(*args, **kwargs)`` on the mail thread; the request answers without waiting."""
    _mailer.submit(_send, send, args, kwargs)


def mail_sent(timeout=10.0) -> None:
    """Wait until every e-mail handed to ``send_later`` so far has been sent (or failed)."""
    _mailer.submit(lambda: None).result(timeout)


class PasswordResetForm(DjangoPasswordResetForm):
    """Django's password reset, its e-mail sent beside the request."""

    def send_mail(self, *args, **kwargs):
        send_later(super().send_mail, *args, **kwargs)


# --- Sign-up ----------------------------------------------------------------------------------------


def signup_allowed_for(email: str) -> bool:
    """TEACHER_SIGNUP: "open", "closed", or the comma-separated e-mail domains allowed."""
    rule = settings.TEACHER_SIGNUP
    if rule == "open":
        return True
    if rule == "closed":
        return False
    domains = {part.strip().lstrip("@") for part in rule.split(",") if part.strip()}
    return email.rsplit("@", 1)[-1].lower() in domains


def request_signup(*, email: str, request) -> None:
    """Send the link that finishes sign-up; the page that follows is the same for every address.

    A new address gets an inactive account with no password and a link to choose one (so nobody
    can set a password for someone else's address); an address with an account gets a note with
    a link to choose a new password. Either way the answer on screen is the same.
    """
    from django.contrib.auth.tokens import default_token_generator
    from django.core.mail import send_mail
    from django.template.loader import render_to_string
    from django.urls import reverse
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    from classroom.models import Teacher

    teacher = Teacher.objects.filter(email__iexact=email).first()
    existing = teacher is not None and teacher.is_active
    if teacher is None:
        teacher = Teacher.objects.create_user(email=email, password=None, is_active=False)
    path = reverse(
        "signup_confirm",
        args=[urlsafe_base64_encode(force_bytes(teacher.pk)), default_token_generator.make_token(teacher)],
    )
    context = {
        "link": request.build_absolute_uri(path),
        "existing": existing,
        "sign_in": request.build_absolute_uri(reverse("login")),
    }
    send_later(
        send_mail,
        render_to_string("registration/signup_email_subject.txt", context).strip(),
        render_to_string("registration/signup_email.txt", context),
        None,
        [teacher.email],
    )
