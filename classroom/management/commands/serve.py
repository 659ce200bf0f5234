import os
import socket

from django.conf import settings
from django.core.management.base import BaseCommand


def lan_address():
    """The address other devices on the classroom network reach this machine at."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))  # UDP connect sends nothing; it picks a route
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


class Command(BaseCommand):
    help = "Serve Stormwise over ASGI (HTTP and WebSocket) with uvicorn."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", "1")))

    def handle(self, *args, host, port, workers, **options):
        import uvicorn

        from classroom.consumers import WS_MAX_BYTES

        if not os.environ.get("PUBLIC_BASE_URL"):
            shown = lan_address() if host in ("0.0.0.0", "::") else host
            os.environ["PUBLIC_BASE_URL"] = f"http://{shown}:{port}"
            settings.PUBLIC_BASE_URL = os.environ["PUBLIC_BASE_URL"]
        from scoring.services import resume_unfinished

        resumed = resume_unfinished()
        if resumed:
            self.stdout.write(f"Writing {resumed} debrief report(s) the last run left unfinished.")
        self.stdout.write(self.style.SUCCESS(
            f"Stormwise is running: open {os.environ['PUBLIC_BASE_URL']}/ "
            f"(students: {os.environ['PUBLIC_BASE_URL']}/join)"))
        uvicorn.run(
            "config.asgi:application", host=host, port=port, workers=workers,
            lifespan="on", ws_per_message_deflate=False, ws_ping_interval=20, ws_max_size=WS_MAX_BYTES,
            log_level=os.environ.get("UVICORN_LOG_LEVEL", "warning"),
        )
