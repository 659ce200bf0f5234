"""A server that loses Redis closes its sockets and refuses new ones until Redis answers again
(classroom.layer_watch), so no tablet stays on it with an open socket that shows no moves."""

import asyncio
import threading
import time

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from classroom import layer_watch
from classroom.consumers import token_cookie
from tests.factories import started_session
from tests.ports import free_port


class SilentLink:
    """A TCP link to Redis that can go silent as a lost route does: bytes stop both ways, nothing
    is closed or refused, and what was held is delivered once the link is mended."""

    def __init__(self, target_port):
        self.target_port, self.port = target_port, free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.open = threading.Event()
        self.open.set()
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        asyncio.run_coroutine_threadsafe(self._listen(), self.loop).result(5)

    async def _listen(self):
        self.server = await asyncio.start_server(self._link, "127.0.0.1", self.port)

    async def _held(self):
        while not self.open.is_set():
            await asyncio.sleep(0.02)

    async def _link(self, reader, writer):
        await self._held()
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)

        async def pipe(src, dst):
            try:
                while data := await src.read(65536):
                    await self._held()
                    dst.write(data)
                    await dst.drain()
            except OSError:
                pass
            finally:
                dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut(self):
        self.open.clear()

    def mend(self):
        self.open.set()

    def close(self):
        self.loop.call_soon_threadsafe(self.server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)


def _until_view(ws, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if '"type":"view"' in ws.recv(timeout=deadline - time.monotonic()):
            return True
    return False


@pytest.fixture
def silent_redis(private_redis, settings):
    """The server's channel layer and its watch reach a private Redis through a ``SilentLink``."""
    link = SilentLink(private_redis.port)
    settings.REDIS_URL = link.url
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "classroom.fast.redis_layer.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [link.url], "prefix": "silent"},
        }
    }
    yield link
    link.mend()
    link.close()


def test_a_server_cut_off_from_redis_closes_its_sockets_and_takes_them_again_once_mended(silent_redis, asgi_server):
    """Within a few seconds of losing Redis the tablet's socket is closed with 1012 (the tablet
    reconnects by itself), a new socket is answered 503 (a proxy tries another server), and once
    Redis answers again the tablet connects and has its view."""
    base = asgi_server  # started after ``silent_redis``: its channel layer goes through the link
    session, devices = started_session(students=2)
    _participant, token = devices[0]
    url = f"{base.replace('http', 'ws')}/ws/play/{session.pk}/"
    headers = {"Cookie": f"{token_cookie(session.pk)}={token}"}
    with connect(url, additional_headers=headers, origin=base, open_timeout=10) as ws:
        assert _until_view(ws)
        silent_redis.cut()
        cut_at = time.monotonic()
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=20)
    assert closed.value.rcvd.code == layer_watch.CLOSE_LAYER_LOST
    assert time.monotonic() - cut_at < 10
    with pytest.raises(InvalidStatus) as refused:
        connect(url, additional_headers=headers, origin=base, open_timeout=10)
    assert refused.value.response.status_code == 503
    silent_redis.mend()
    deadline = time.monotonic() + 10
    while True:
        try:
            with connect(url, additional_headers=headers, origin=base, open_timeout=10) as ws:
                assert _until_view(ws)
                break
        except InvalidStatus:
            assert time.monotonic() < deadline, "still refused 10 s after Redis answered again"
            time.sleep(0.5)
