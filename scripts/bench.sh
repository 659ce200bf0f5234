#!/usr/bin/env bash
# Every benchmark, one line per figure (`name: value unit`). Each module also runs on its own.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
for module in $(ls benchmarks/*.py 2>/dev/null | grep -v __init__ | sed 's#/#.#; s#\.py$##'); do
  .venv/bin/python -m "$module" || status=1
done
exit $status
