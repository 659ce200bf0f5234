"""A port for a server a test starts.

A port the kernel hands out with ``bind(("", 0))`` comes from the same range it draws the local
ports of outgoing connections from, and a busy suite opens thousands of those (database, Redis,
browsers): between the probe and the server's own bind another socket could take it, and the
server would fail with "address already in use". So the port is picked below that range, at
random, and checked free on every interface."""

import random
import socket
from pathlib import Path

LOWEST = 10000


def _outgoing_range_start() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port() -> int:
    top = max(_outgoing_range_start(), LOWEST + 1000)
    while True:
        port = random.randrange(LOWEST, top)
        with socket.socket() as probe:
            try:
                probe.bind(("0.0.0.0", port))
            except OSError:
                continue
            return port
