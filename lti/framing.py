"""The launch and deep-linking pages, framable by the registered platforms only.

Canvas opens a tool's launch in an iframe of the course page and deep linking in a modal iframe;
Moodle may embed it too. Every page of Stormwise refuses to be framed (``frame-ancestors 'none'``
in ``CONTENT_SECURITY_POLICY``, ``X-Frame-Options: DENY``); the views decorated here instead name,
as ``frame-ancestors``, the origins of the registrations an admin made active: each one's
issuer, sign-in (auth) URL and access-token URL. Canvas's issuer and sign-in are Instructure's
shared hosts, and its access-token URL is the district's own Canvas, the page that frames the
tool; a self-hosted Moodle's three are its own host.

``X-Frame-Options`` has no list of origins that browsers still read (``ALLOW-FROM`` is obsolete and
ignored: https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Headers/X-Frame-Options),
and a browser that reads ``frame-ancestors`` ignores ``X-Frame-Options`` where both are sent
(CSP Level 3, https://www.w3.org/TR/CSP3/#frame-ancestors-and-frame-options): these pages send
none while a platform is registered, and ``DENY`` as every page does while none is.

Inside the platform's frame Stormwise is a third party: a browser sends a ``SameSite=Lax`` cookie
to it on no request and keeps none it sets. Served over HTTPS, the responses of these pages
therefore set the session and CSRF cookies ``SameSite=None; Secure`` (pylti1p3 does so for its own
state cookie), so the launch's sign-in and the deep-linking form hold inside the frame. A browser
that blocks third-party cookies altogether (Safari) still refuses them: open the activity in a
new window there (README, "Register Stormwise in Canvas / Moodle").
"""

from functools import wraps
from urllib.parse import urlsplit

from django.conf import settings
from lti_tool.models import LtiRegistration

#: the cookies a framed launch needs: the teacher's sign-in and the forms' CSRF token
FRAMED_COOKIES = (settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME)


def origin_of(url: str) -> str | None:
    parts = urlsplit(url or "")
    if parts.scheme not in ("https", "http") or not parts.hostname:
        return None
    return f"{parts.scheme}://{parts.netloc.lower()}"


def platform_origins() -> list[str]:
    """The origins of the active registrations' issuer, sign-in and access-token URLs, sorted."""
    urls = LtiRegistration.objects.filter(is_active=True).values_list("issuer", "auth_url", "token_url")
    return sorted({origin for row in urls for origin in map(origin_of, row) if origin})


def framed_by_platforms(view):
    """Let the registered platforms frame ``view``'s pages (and only them); see the module."""

    @wraps(view)
    def framed(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        origins = platform_origins()
        if origins:
            response._csp_replace = {**(getattr(response, "_csp_replace", None) or {}), "frame-ancestors": origins}
            response.xframe_options_exempt = True
            response.framed_by_platforms = True
        return response

    return framed


class FramedCookiesMiddleware:
    """On a page framed by a platform, served over HTTPS, the session and CSRF cookies it sets are
    ``SameSite=None; Secure``. Listed before the session and CSRF middleware, so it sees the
    cookies they set."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if getattr(response, "framed_by_platforms", False) and request.is_secure():
            for name in FRAMED_COOKIES:
                if name in response.cookies:
                    response.cookies[name]["samesite"] = "None"
                    response.cookies[name]["secure"] = True
        return response
