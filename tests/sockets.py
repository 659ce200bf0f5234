"""Channels' test client for the suite's sockets, with time for a loaded machine."""

from channels.testing import WebsocketCommunicator as ChannelsCommunicator

#: Seconds a socket's handshake may take. Channels' client allows one, and the handshake reads the
#: database: while `make test` runs four processes on two cores (a load of 12 is usual), a
#: teacher's dashboard socket once took longer to open.
CONNECT_SECONDS = 10


class WebsocketCommunicator(ChannelsCommunicator):
    async def connect(self, timeout=CONNECT_SECONDS):
        return await super().connect(timeout)
