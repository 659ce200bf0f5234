"""A district on several hosts, in short: a class of 32 through nginx to three application hosts
(network namespaces), one host killed mid-lesson, then a rolling deploy onto a new release with a
migration. ``python -m benchmarks.district`` runs the whole set (load and every fault)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def figures(output):
    return dict(re.findall(r"(?m)^(\w+): (\S+)", output))


@pytest.mark.long
def test_a_class_loses_nothing_when_a_host_dies_or_every_host_restarts_on_a_new_release():
    """Killing one host moves its tablets to the others within 10 s; a rolling deploy with a
    migration keeps every move, and old and new code go on from each other's saves."""
    run = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.district", "--short"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = run.communicate(timeout=1200)
    finally:
        run.kill()
    seen = figures(out)
    report = f"{out}\n{err[-4000:]}"
    assert seen.get("host_kill") == "PASS", report
    assert int(seen["host_kill_sockets_on_host"]) > 0, report
    assert seen["host_kill_reconnected_elsewhere"] == seen["host_kill_sockets_dropped"], report
    assert float(seen["host_kill_resync_max_s"]) <= 10, report
    assert seen["host_kill_lost_actions"] == seen["host_kill_doubled_actions"] == "0", report
    assert seen.get("rolling_deploy") == "PASS", report
    assert seen["rolling_deploy_hosts_restarted_during_play"] == "3", report
    assert int(seen["rolling_deploy_new_code_moves_after_old"]) > 0, report
    assert int(seen["rolling_deploy_old_code_moves_after_new"]) > 0, report
    assert seen["rolling_deploy_lost_actions"] == seen["rolling_deploy_doubled_actions"] == "0", report
    assert seen["rolling_deploy_games_not_replaying"] == "0", report
    assert run.returncode == 0, report
    # Torn down: no namespace of the run is left behind.
    assert f"swd{run.pid}-" not in subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
