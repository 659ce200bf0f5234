#!/usr/bin/env bash
# Every benchmark, one line per figure (`name: value unit`). Each module also runs on its own.
# A module that fails says so in a line of its own (`bench_failed: <module>`), and the others
# still run: `make bench` reports, it does not judge, so it always exits 0.
# `scripts/bench.sh --quick` (`make bench-quick`, run by CI) runs every module with the least
# work that goes through all its code (STORMWISE_BENCH_QUICK, benchmarks/__init__.py) and exits 1
# when any module failed to run: a broken benchmark cannot land.
set -uo pipefail
cd "$(dirname "$0")/.."
quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; export STORMWISE_BENCH_QUICK=1; fi
failed=0
for module in $(ls benchmarks/*.py 2>/dev/null | grep -v __init__ | sed 's#/#.#; s#\.py$##'); do
  started=$SECONDS
  if ! .venv/bin/python -m "$module"; then echo "bench_failed: $module"; failed=1; fi
  if [ $quick = 1 ]; then echo "# $module: $((SECONDS - started)) s"; fi
done
if [ $quick = 1 ]; then exit $failed; fi
exit 0
