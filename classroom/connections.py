"""Connections no client can hold against the class: a time-limit on requests' headers, a cap on
open connections per address, and enough file descriptors to keep both true.

Replaces: uvicorn's own HTTP protocol (``uvicorn.protocols.http.auto``), which closes a connection
only after a response (``timeout_keep_alive``): a connection that never sends a request, or sends
half of one, stays open for good, and a laptop opening a few hundred of them used up the server's
file descriptors (``ulimit -n`` 1024 is common, macOS starts programs at 256), so ``/join``
failed for everyone. Here every connection must finish a request's headers within
``HEADER_SECONDS`` of opening (or of its last response), and an address with
``CONNECTIONS_PER_ADDRESS`` connections open in this process has its next ones closed at once.
A WebSocket keeps its connection for as long as it lives (uvicorn's pings close a dead one) and
counts toward its address. Reverse proxies named in ``TRUSTED_PROXIES`` are not capped: every
client arrives from them. Measured by ``python -m benchmarks.faults --only slow_clients``.
"""

from __future__ import annotations

import os
import resource

from uvicorn.protocols.http.auto import AutoHTTPProtocol


def header_seconds() -> float:
    return float(os.environ.get("HEADER_TIMEOUT_SECONDS", "10"))


def per_address() -> int:
    """Open connections one address may hold in one server process. A class behind one school
    address holds about two per tablet (its socket, a request or two); the default leaves room
    for a whole school behind one address (and for ``benchmarks.live``'s 1,000 students on
    loopback, which two workers do not share evenly)."""
    return int(os.environ.get("CONNECTIONS_PER_ADDRESS", "2000"))


# A class of 35 behind one school address holds about 70 connections: the cap never goes lower.
FEWEST_PER_ADDRESS = 100


def files_needed(per_address_cap: int | None = None) -> int:
    """File descriptors a server process needs: a capped address can never take more than a
    quarter of them."""
    return 4 * (per_address_cap or per_address())


def raise_file_limit() -> int:
    """Raise this process's open-file limit (inherited by its workers) to what the caps need, up
    to the hard limit. Returns the limit now; a caller refuses to start when it is still short."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max(files_needed(), soft)
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if wanted > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):  # macOS refuses values over kern.maxfilesperproc
            pass
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


_open: dict[str, set] = {}  # address -> its transports in this process, closed ones swept lazily
_sweep_at: dict[str, int] = {}  # address -> the size at which its set is next swept


def _held_by(address: str) -> set:
    """The open transports of ``address``. A WebSocket's transport leaves this protocol without a
    ``connection_lost`` here, so closed ones are swept out of the set when it has doubled since
    its last sweep (or reaches the cap): opening a connection costs the same whether the address
    holds ten or a thousand (a machine opening 1,200 at once otherwise made each worker compare
    every pair, a pause the whole class felt)."""
    transports = _open.setdefault(address, set())
    if len(transports) >= min(_sweep_at.get(address, 64), per_address()):
        for transport in [t for t in transports if t.is_closing()]:
            transports.discard(transport)
        _sweep_at[address] = max(64, 2 * len(transports))
    return transports


class GuardedHTTPProtocol(AutoHTTPProtocol):
    """uvicorn's HTTP protocol with the header time-limit and the per-address cap."""

    trusted: frozenset = frozenset(a.strip() for a in os.environ.get("TRUSTED_PROXIES", "").split(",") if a.strip())

    def connection_made(self, transport):
        super().connection_made(transport)
        self._header_timer = None
        address = self.client[0] if self.client else ""
        if address and address not in self.trusted:
            held = _held_by(address)
            if len(held) >= per_address():
                transport.abort()
                return
            held.add(transport)
        self._arm()

    def _arm(self):
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(header_seconds(), self._headers_too_slow)

    def _headers_too_slow(self):
        self._header_timer = None
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return  # closed, or a WebSocket now
        if self.cycle is None or self.cycle.response_complete:  # no request under way
            self.transport.close()

    def data_received(self, data):
        if self.cycle is None or self.cycle.response_complete:
            self._arm()  # a new request's first bytes: its headers must follow in time
        super().data_received(data)

    def on_response_complete(self):
        super().on_response_complete()
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        self._arm()

    def connection_lost(self, exc):
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        if self.client:
            _open.get(self.client[0], set()).discard(self.transport)
        super().connection_lost(exc)
