"""ASGI entry point: Django for HTTP, Channels for the table and dashboard sockets."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from classroom.crowds import JoinsInFlight  # noqa: E402
from classroom.fast import collector  # noqa: E402
from classroom.layer_watch import RefuseWhileCutOff, watch_layer_forever  # noqa: E402
from classroom.loops import purge_forever, storms_forever  # noqa: E402
from classroom.polls import OpenPolls  # noqa: E402
from classroom.routing import websocket_urlpatterns  # noqa: E402
from config import health  # noqa: E402
from config.bodylimit import BodyLimit  # noqa: E402
from config.lifespan import LifespanApp  # noqa: E402
from config.origin import SameOriginValidator  # noqa: E402
from games import pgpool  # noqa: E402
from games.loops import sweep_forever  # noqa: E402
from scoring.loops import resend_forever  # noqa: E402

#: HTTP and the sockets, without the process's start and stop.
routes = ProtocolTypeRouter(
    {
        "http": health.AnswerAnonymous(JoinsInFlight(OpenPolls(BodyLimit(django_asgi_app)))),
        "websocket": RefuseWhileCutOff(
            AllowedHostsOriginValidator(SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))))
        ),
    }
)
#: What every process that serves runs in the background: bots and timers, the class storm,
#: purges, reports whose queuing failed, and the watch on the channel layer.
LOOPS = [sweep_forever, storms_forever, purge_forever, resend_forever, watch_layer_forever]


async def serving_process():
    """A server process's own start: the collector tuned for a process that serves sockets
    (docs/decisions/0008-collector.md), then the socket path's database pool opened."""
    collector.tune()
    await pgpool.warm()


application = LifespanApp(routes, loops=LOOPS, warm=[serving_process, health.warm])
