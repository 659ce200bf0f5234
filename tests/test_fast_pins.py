"""Every private API the code touches is held to the version it was written against: the
speed-ups in classroom/fast lean on Channels' code, games.broadcast reads asgiref's
``SyncToAsync.threadlocal``, and lti.tool overrides pylti1p3's launch validation step by step. When a version moves, this fails loudly: read those modules against
the new code, measure again (BENCHMARKS.md), then move their WRITTEN_FOR."""

import re
from importlib.metadata import version
from pathlib import Path

import pytest
from asgiref.sync import SyncToAsync, async_to_sync

from classroom import fast
from games import broadcast
from lti import tool

ROOT = Path(__file__).resolve().parent.parent


WRITTEN_FOR = {**fast.WRITTEN_FOR, **broadcast.WRITTEN_FOR, **tool.WRITTEN_FOR}


@pytest.mark.parametrize("package", sorted(WRITTEN_FOR))
def test_installed_and_required_versions_are_the_ones_the_speed_ups_were_written_for(package):
    pinned = re.search(rf"^{re.escape(package)}==(\S+)", (ROOT / "requirements.txt").read_text(), re.M)
    assert pinned, f"requirements.txt must pin {package} exactly: the code relies on its private API"
    written = WRITTEN_FOR[package]
    assert pinned.group(1) == written, (
        f"requirements.txt pins {package} {pinned.group(1)}, but the code was written for {written}: read the "
        f"modules whose WRITTEN_FOR names it against {package} {pinned.group(1)}, benchmark, then update WRITTEN_FOR"
    )
    assert version(package) == written, (
        f"{package} {version(package)} is installed, but the code was written for {written}"
    )


def test_asgiref_still_tells_a_thread_which_loop_handed_it_work():
    """games.broadcast pushes on the loop of the async code that called it, which asgiref keeps in
    ``SyncToAsync.threadlocal`` for the threads it runs sync code on."""

    async def outer():
        return await SyncToAsync(broadcast._callers_loop)()

    assert async_to_sync(outer)() is not None
    assert broadcast._callers_loop() is None  # a thread no async code handed work to
