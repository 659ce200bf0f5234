"""What makes one install of Stormwise its own: its secret key, the addresses it serves, and the
secrets that must never work because they were published.

Free of Django so that settings can use it before Django is set up.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import socket
from pathlib import Path

SECRET_KEY_FILE = "secret_key"
MIN_SECRET_KEY_LENGTH = 50

# Keys that have appeared in this repository (settings, tests, benchmarks, docs). Anyone who has
# read the code knows them, so no install may sign anything with them.
KNOWN_SECRET_KEYS = frozenset(
    {
        "embedded-only-insecure-key-do-not-use-in-production",
        "test-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        "x" * 20 + "production-secret-key-with-enough-entropy-1234567890",
    }
)

# Passwords that have been printed by `make run` or written in the code or the README (tests
# keep this list complete: tests/test_install.py).
KNOWN_PASSWORDS = frozenset(
    {
        "hurricane-demo-2026",
        "correct-horse-battery-7",
        "another-good-passphrase-9",
        "bench-password-1",
        "bench-pass-123456",
        "nope-nope-nope",
        "not-the-password",
    }
)

LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1", "[::1]"}
WILDCARDS = {"0.0.0.0", "::", "[::]", ""}


def secret_key_problem(key: str | None) -> str | None:
    """Why ``key`` may not sign anything, or None if it may."""
    if not key:
        return "SECRET_KEY is not set."
    if key in KNOWN_SECRET_KEYS:
        return "SECRET_KEY is a key published in Stormwise's repository; generate your own."
    if len(key) < MIN_SECRET_KEY_LENGTH or len(set(key)) < 5:
        return f"SECRET_KEY is too short: use at least {MIN_SECRET_KEY_LENGTH} random characters."
    return None


def new_secret_key() -> str:
    return secrets.token_urlsafe(48)  # 64 characters


def embedded_secret_key(data_dir: Path) -> str:
    """This install's own key, created on first use in ``data_dir`` with owner-only permissions.

    Several server processes may start at once on a fresh install; the file is created
    exclusively, so they all end up with the key the first one wrote.
    """
    path = Path(data_dir) / SECRET_KEY_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)
    else:
        with os.fdopen(descriptor, "w") as file:
            file.write(new_secret_key() + "\n")
    key = path.read_text().strip()
    problem = secret_key_problem(key)
    if problem:
        raise RuntimeError(f"{path}: {problem} Delete the file to have a new key made.")
    return key


def owner_only_database(path: Path) -> None:
    """The embedded SQLite file (nicknames, games, the teacher's password hash) readable by its
    owner only, like the secret key: created so if missing, and its write-ahead log and shared
    memory files too (SQLite gives those the database file's permissions when it makes them)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            if each.stat().st_mode & 0o077:
                each.chmod(0o600)
        except FileNotFoundError:
            pass


def is_loopback(host: str) -> bool:
    """True if a server bound to ``host`` can be reached only from this machine."""
    host = host.strip()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def lan_address() -> str:
    """The address other devices on the classroom network reach this machine at."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))  # UDP connect sends nothing; it picks a route
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def served_address(host: str) -> str:
    """The address devices use to reach a server bound to ``host``."""
    if host in WILDCARDS:
        return lan_address()
    return host


def allowed_hosts(host: str, public_base_url_host: str | None) -> list[str]:
    """Host names a server bound to ``host`` answers to: loopback, the address it serves beyond
    loopback (the LAN address for a wildcard bind) and the public address, nothing else."""
    hosts = ["localhost", "127.0.0.1", "[::1]"]
    if not is_loopback(host):
        hosts.append(served_address(host))
    if public_base_url_host:
        hosts.append(public_base_url_host)
    return list(dict.fromkeys(hosts))
