"""The speed-ups in classroom/fast lean on Channels' code as it is in the
versions they were written and measured against. When a version moves, this fails loudly: read
those modules against the new code, measure again (BENCHMARKS.md), then move WRITTEN_FOR."""

import re
from importlib.metadata import version
from pathlib import Path

import pytest

from classroom.fast import WRITTEN_FOR

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("package", sorted(WRITTEN_FOR))
def test_installed_and_required_versions_are_the_ones_the_speed_ups_were_written_for(package):
    pinned = re.search(rf"^{re.escape(package)}==(\S+)", (ROOT / "requirements.txt").read_text(), re.M)
    assert pinned, f"requirements.txt must pin {package} exactly: classroom/fast relies on its private API"
    written = WRITTEN_FOR[package]
    assert pinned.group(1) == written, (
        f"requirements.txt pins {package} {pinned.group(1)}, but classroom/fast was written for {written}: "
        f"read classroom/fast/*.py against {package} {pinned.group(1)}, benchmark, then update WRITTEN_FOR"
    )
    assert version(package) == written, (
        f"{package} {version(package)} is installed, but classroom/fast was written for {written}"
    )
