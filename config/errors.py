"""Error pages and error logs that give a visitor nothing.

Django shows its debug pages (settings, URL patterns, local variables) to every request while
``DEBUG`` is on. A laptop serving loopback behind a proxy on the same machine gets every request
from loopback, with whatever Host the proxy forwards, so a server name alone cannot tell a
developer's browser from a student's. Django's own ``DEBUG`` therefore stays off, and while
``DEBUG_PAGES`` is on (settings: a developer's loopback server) these handlers show a debug page
only to a request that came from loopback, naming a loopback host, that no proxy forwarded.
Everyone else gets the short pages in ``templates/``.

A request for a host the server does not serve, or any other the server answers 4xx, is logged
as one line, without its traceback: it is a visitor's doing, not the server's, and a proxy
passing on a scanner's requests would otherwise fill the log with tracebacks.
"""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.http.request import split_domain_port

from config import install

# Headers a proxy adds: a request carrying one came from further away than its socket says.
FORWARDED = ("HTTP_FORWARDED", "HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_HOST", "HTTP_X_REAL_IP")


def debug_page_allowed(request) -> bool:
    """Whether ``request`` may see a debug page: only this machine's own, on a developer's server."""
    if not settings.DEBUG_PAGES or any(header in request.META for header in FORWARDED):
        return False
    host, _port = split_domain_port(request.META.get("HTTP_HOST", ""))
    return install.is_loopback(request.META.get("REMOTE_ADDR", "")) and bool(host) and install.is_loopback(host)


def _details(exception):
    return type(exception), exception, exception.__traceback__


def bad_request(request, exception):
    from django.views import debug, defaults  # not at import: logging set-up imports this module

    if debug_page_allowed(request):
        return debug.technical_500_response(request, *_details(exception), status_code=400)
    return defaults.bad_request(request, exception)


def page_not_found(request, exception):
    from django.views import debug, defaults

    if debug_page_allowed(request):
        return debug.technical_404_response(request, exception)
    return defaults.page_not_found(request, exception)


def server_error(request):
    from django.views import debug, defaults

    if debug_page_allowed(request) and sys.exc_info()[1] is not None:
        return debug.technical_500_response(request, *sys.exc_info())
    return defaults.server_error(request)


class VisitorsFaultsWithoutTraceback(logging.Filter):
    """A logging filter: a request for a host this server does not serve, or any other request
    answered 4xx, is kept as its one line, its traceback dropped (``LOGGING`` in settings)."""

    def filter(self, record):
        if record.name == "django.security.DisallowedHost" or (
            record.name == "django.request" and getattr(record, "status_code", 500) < 500
        ):
            record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True
