import os

import uvicorn
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from classroom import connections, signals
from classroom.accounts import uses_published_password
from classroom.consumers import WS_MAX_BYTES
from classroom.models import Teacher


class Command(BaseCommand):
    help = "Serve Stormwise over ASGI (HTTP and WebSocket) with uvicorn."

    def add_arguments(self, parser):
        # manage.py has put --host and --port into HOST and PORT already, for the settings.
        parser.add_argument("--host", default=settings.HOST)
        parser.add_argument("--port", type=int, default=settings.PORT)
        parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", "1")))

    def handle(self, *args, host, port, workers, **options):
        if host != settings.HOST:
            raise CommandError("Start the server through manage.py (it passes --host to the settings).")
        if not settings.LOOPBACK_ONLY:
            published = [t.email for t in Teacher.objects.filter(is_active=True) if uses_published_password(t)]
            if published:
                raise CommandError(
                    f"{', '.join(published)} still use(s) a password published with Stormwise. Run "
                    "`python manage.py teacher_password EMAIL` for each before serving the network."
                )
        files = connections.raise_file_limit()
        if files < connections.files_needed():
            if files < connections.files_needed(connections.FEWEST_PER_ADDRESS):
                raise CommandError(
                    f"This system lets the server open only {files} files at once; it needs at least "
                    f"{connections.files_needed(connections.FEWEST_PER_ADDRESS)} so that one device holding "
                    f"connections cannot shut the class out. Raise the limit first, e.g. "
                    f"`ulimit -n {connections.files_needed()}` in this shell."
                )
            usual, needed = connections.per_address(), connections.files_needed()
            os.environ["CONNECTIONS_PER_ADDRESS"] = str(files // 4)  # the workers read it at start
            self.stdout.write(
                self.style.WARNING(
                    f"This system lets the server open only {files} files at once: one address may hold "
                    f"{files // 4} connections (`ulimit -n {needed}` allows the usual {usual})."
                )
            )
        resumed = sum(count for _receiver, count in signals.serving.send(sender=self.__class__))
        if resumed:
            self.stdout.write(f"Writing {resumed} debrief report(s) the last run left unfinished.")
        self.stdout.write(
            self.style.SUCCESS(
                f"Stormwise is running: open {settings.PUBLIC_BASE_URL}/ (students: {settings.PUBLIC_BASE_URL}/join)"
            )
        )
        uvicorn.run(
            "config.asgi:application",
            host=host,
            port=port,
            workers=workers,
            lifespan="on",
            ws_per_message_deflate=False,
            # Half-sent requests and connections past an address's cap are closed (classroom.connections);
            # on SIGTERM, requests still running after a few seconds are cut off rather than waited for.
            http=connections.GuardedHTTPProtocol,
            timeout_graceful_shutdown=5,
            ws_ping_interval=20,
            ws_max_size=WS_MAX_BYTES,
            # X-Forwarded-For/-Proto are believed only from the proxies named in TRUSTED_PROXIES.
            proxy_headers=bool(settings.TRUSTED_PROXIES),
            forwarded_allow_ips=",".join(settings.TRUSTED_PROXIES) or "",
            log_level=os.environ.get("UVICORN_LOG_LEVEL", "warning"),
        )
