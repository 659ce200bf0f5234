#!/usr/bin/env bash
# Every benchmark, one line per figure (`name: value unit`). Each module also runs on its own.
# A module that fails says so in a line of its own (`bench_failed: <module>`), and the others
# still run: `make bench` reports, it does not judge, so it always exits 0.
set -uo pipefail
cd "$(dirname "$0")/.."
for module in $(ls benchmarks/*.py 2>/dev/null | grep -v __init__ | sed 's#/#.#; s#\.py$##'); do
  .venv/bin/python -m "$module" || echo "bench_failed: $module"
done
exit 0
