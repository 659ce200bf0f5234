"""A content security policy on every response (Django 5.2 has none built in).

Scripts come only from our own static files, so an injected ``<script>`` or ``onclick`` never
runs. The policy is the ``CONTENT_SECURITY_POLICY`` setting, one list of sources per directive.
"""

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.utils.deprecation import MiddlewareMixin

HEADER = "Content-Security-Policy"


def policy_for(request) -> str:
    """The header value for this request: the setting, plus this host's own socket address in
    ``connect-src`` (CSP Level 3 lets ``'self'`` match same-host ``ws:``/``wss:``; older Safari
    does not, and the tablets' socket would be blocked there)."""
    directives = {name: list(sources) for name, sources in settings.CONTENT_SECURITY_POLICY.items()}
    if "connect-src" in directives:
        try:
            host = request.get_host()
        except DisallowedHost:
            host = None
        if host:
            directives["connect-src"].append(("wss://" if request.is_secure() else "ws://") + host)
    return "; ".join(" ".join([name, *sources]) for name, sources in directives.items())


class ContentSecurityPolicyMiddleware(MiddlewareMixin):
    """Adds the policy header unless the view set its own."""

    def process_response(self, request, response):
        if settings.CONTENT_SECURITY_POLICY and HEADER not in response:
            response[HEADER] = policy_for(request)
        return response
