"""The LTI 1.3 protocol, as django-lti and pylti1p3 run it, held to Stormwise's rules.

Each step of a launch's validation that fails is refused with a reason a person can read
(``Refused``), before anything is written. Two places are stricter than the libraries':
a deployment is taken only if an admin registered it (the library would create it), and an
``id_token`` is taken once: its nonce is spent on the first launch, so a replayed launch is
refused (the library checks only that the nonce was issued).
"""

from django.core.cache import cache
from django.utils.translation import gettext_lazy as _
from lti_tool.models import Key, LtiDeployment
from lti_tool.utils import DjangoToolConfig
from pylti1p3.contrib.django import DjangoCacheDataStorage, DjangoMessageLaunch, DjangoOIDCLogin
from pylti1p3.deployment import Deployment
from pylti1p3.exception import LtiException, OIDCException

#: ``ToolLaunch`` and ``ToolConfig`` override pylti1p3's and django-lti's validation steps by name:
#: read them against a new version before moving these (tests/test_fast_pins.py holds them)
WRITTEN_FOR = {"pylti1p3": "2.0.0", "django-lti": "0.10.1"}

#: how long a spent nonce is remembered: longer than any id_token's life (platforms give minutes)
SPENT_NONCE_SECONDS = 24 * 3600

#: message types a launch may carry
RESOURCE_LINK = "LtiResourceLinkRequest"
DEEP_LINKING = "LtiDeepLinkingRequest"
SUPPORTED = (RESOURCE_LINK, DEEP_LINKING)

REASONS = {
    "login": _("The platform's sign-in request names no platform registered here, or lacks what it needs."),
    "state": _(
        "This launch did not come from the sign-in this browser started, or it came too late. "
        "Open the activity from your course again."
    ),
    "lost": _(
        "This page no longer knows the launch that led to it: it came too late, or your browser keeps "
        "no cookie for Stormwise inside the course's page. Open the activity from your course again; "
        "if it opens inside the course, open it in a new tab."
    ),
    "token": _("The platform's launch message could not be read."),
    "nonce": _("This launch was already used or was never issued. Open the activity from your course again."),
    "issuer": _("This launch comes from a platform that is not registered here. Ask your school's administrator."),
    "signature": _("This launch is not signed by the platform it names, or it has expired."),
    "deployment": _("This deployment of Stormwise is not registered here. Ask your school's administrator."),
    "message": _("Stormwise does not handle this kind of launch."),
    "other_deployment": _("This lesson belongs to another course or school. Open the activity from your own course."),
    "no_lesson": _("This link does not name a Stormwise lesson. Ask your teacher to add the activity again."),
    "role": _("Only a teacher or a student of the course can open this activity."),
    "owner": _("This lesson belongs to another teacher of the course. Ask them to open it."),
}


class Refused(Exception):
    """A launch refused, and why (a key of ``REASONS``)."""

    def __init__(self, code: str, detail: str = ""):
        self.code, self.detail = code, detail
        super().__init__(f"{code}: {detail}")

    @property
    def message(self):
        return REASONS[self.code]


def signing_key() -> Key:
    """The tool's newest active key, made on first need: keys live in the database, never in the
    repository (``manage.py rotate_keys`` makes a new one and retires old ones)."""
    key = Key.objects.active().order_by("-datetime_created").first()
    return key or Key.objects.generate()


class ToolConfig(DjangoToolConfig):
    """django-lti's look-ups of registrations, taking only deployments an admin registered."""

    def find_deployment(self, iss, deployment_id):
        return self._registered(registration__issuer=iss, deployment_id=deployment_id)

    def find_deployment_by_params(self, iss, deployment_id, client_id, *args, **kwargs):
        return self._registered(
            registration__issuer=iss, registration__client_id=client_id, deployment_id=deployment_id
        )

    def _registered(self, **lookups):
        if self.registration_uuid is not None:
            lookups["registration__uuid"] = self.registration_uuid
        self.deployment = (
            LtiDeployment.objects.filter(is_active=True, registration__is_active=True, **lookups)
            .select_related("registration")
            .first()
        )
        return Deployment().set_deployment_id(self.deployment.deployment_id) if self.deployment else None


def _refusing(code):
    """Wrap one of pylti1p3's validation steps so that its failure is ``Refused(code)``."""

    def wrap(step):
        def checked(self):
            try:
                return step(self)
            except LtiException as error:
                raise Refused(code, str(error)) from error

        return checked

    return wrap


class ToolLaunch(DjangoMessageLaunch):
    """One launch (an ``id_token`` posted by the platform), validated step by step."""

    validate_state = _refusing("state")(DjangoMessageLaunch.validate_state)
    validate_jwt_format = _refusing("token")(DjangoMessageLaunch.validate_jwt_format)
    validate_nonce = _refusing("nonce")(DjangoMessageLaunch.validate_nonce)
    validate_registration = _refusing("issuer")(DjangoMessageLaunch.validate_registration)
    validate_jwt_signature = _refusing("signature")(DjangoMessageLaunch.validate_jwt_signature)
    validate_deployment = _refusing("deployment")(DjangoMessageLaunch.validate_deployment)

    def validate_message(self):
        kind = self._get_jwt_body().get("https://purl.imsglobal.org/spec/lti/claim/message_type")
        if kind not in SUPPORTED:
            raise Refused("message", str(kind))
        try:
            return super().validate_message()
        except LtiException as error:
            raise Refused("message", str(error)) from error

    def save_launch_data(self):
        # The last step, once everything else holds: spend the nonce (atomically, in the cache
        # every process shares), so the same id_token is never taken twice.
        nonce = self._get_jwt_body().get("nonce")
        if not cache.add(f"lti-spent-nonce:{nonce}", 1, SPENT_NONCE_SECONDS):
            raise Refused("nonce", "replayed")
        return super().save_launch_data()


def storage():
    return DjangoCacheDataStorage()


def launch_from(request) -> ToolLaunch:
    """Validate the launch the platform posted; ``Refused`` if any part of it fails."""
    signing_key()
    launch = ToolLaunch(request, ToolConfig(), launch_data_storage=storage())
    try:
        launch.validate()
    except LtiException as error:  # a step not named above
        raise Refused("token", str(error)) from error
    return launch


def launch_again(request, launch_id: str) -> ToolLaunch:
    """A launch validated earlier in this browser (deep linking's second step), from the cache."""
    try:
        return ToolLaunch.from_cache(launch_id, request, ToolConfig(), launch_data_storage=storage())
    except LtiException as error:
        raise Refused("state", str(error)) from error


def login_redirect(request, params):
    """The OIDC login initiation: the redirect to the platform's sign-in, with the state cookie
    set and a fresh nonce remembered."""
    signing_key()
    target = params.get("target_link_uri")
    if not target:
        raise Refused("login", "no target_link_uri")
    login = DjangoOIDCLogin(request, ToolConfig(), launch_data_storage=storage())
    try:
        return login.redirect(target)
    except (LtiException, OIDCException) as error:
        raise Refused("login", str(error)) from error
