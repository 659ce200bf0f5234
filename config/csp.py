"""The content security policy on every response: django-csp's middleware, which writes the
``CONTENT_SECURITY_POLICY`` setting's directives, plus this host's own socket address.

Scripts come only from our own static files, so an injected ``<script>`` or ``onclick`` never
runs. CSP Level 3 lets ``'self'`` match same-host ``ws:``/``wss:``; older Safari does not, and the
tablets' socket would be blocked there, so ``connect-src`` also names ``ws://host`` (``wss://``
behind TLS) for the host the request came to."""

from csp.middleware import CSPMiddleware, PolicyParts
from django.conf import settings
from django.core.exceptions import DisallowedHost


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    def get_policy_parts(self, request, response, report_only=False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        connect = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"].get("connect-src")
        try:
            host = request.get_host()
        except DisallowedHost:
            return parts
        if connect is not None and not report_only:
            socket = ("wss://" if request.is_secure() else "ws://") + host
            parts.update = {**(parts.update or {}), "connect-src": [*connect, socket]}
        return parts
