"""The benchmarks: ``python -m benchmarks.<module>`` prints one line per figure, ``name: value unit``
(BENCHMARKS.md has each module's command and current figures).

``STORMWISE_BENCH_QUICK=1`` (``make bench-quick``, which CI runs after the tests) makes every module
do the least work that still runs all of its code and prints every figure: it proves that the
benchmarks run, it measures nothing, and a fault run's PASS or FAIL then decides nothing.
"""

import os
import sys

QUICK = os.environ.get("STORMWISE_BENCH_QUICK") == "1"


def sized(full, quick):
    """``full`` for a measurement, ``quick`` in the quick pass."""
    if QUICK:
        print("# quick pass: these figures measure nothing", file=sys.stderr)
    return quick if QUICK else full


def verdict_exit(passed: bool):
    """Leave with 1 when a measured run failed its rule; a quick pass leaves with 0 (it had
    too little time to judge anything)."""
    sys.exit(0 if passed or QUICK else 1)
