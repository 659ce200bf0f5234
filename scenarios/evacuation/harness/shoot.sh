#!/bin/sh
# Screenshots of every scenario at the four target sizes into ${OUT:-/tmp/evac}.
# Serve the repo first:  python3 -m http.server 8765 --bind 127.0.0.1 --directory <repo>
set -eu
python3 "$(dirname "$0")/build_fixtures.py" >/dev/null
BASE=${BASE:-http://127.0.0.1:8765/scenarios/evacuation/harness/index.html}
OUT=${OUT:-/tmp/evac}
mkdir -p "$OUT"
SIZES=${SIZES:-"768,1024 1024,768 1366,650 390,844"}
SCENARIOS=${SCENARIOS:-"start mid gas late finished"}
for s in $SCENARIOS; do
  for size in $SIZES; do
    png="$OUT/${s}_$(echo "$size" | tr , x).png"
    /usr/bin/chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
      --disable-component-update --disable-sync --hide-scrollbars --virtual-time-budget=3000 \
      --enable-logging=stderr --v=0 --window-size="$size" --screenshot="$png" \
      "$BASE?s=$s&nav=0${EXTRA:-}" 2>&1 | grep -iE "CONSOLE|Uncaught" || true
    echo "$png"
  done
done
# Behaviour checks (accessible names, confirms, busy, pan/zoom and scroll kept across renders).
/usr/bin/chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --virtual-time-budget=5000 --window-size=1024,768 \
  --dump-dom "$BASE?check=1" 2>/dev/null | grep -oE "(PASS|FAIL) [^<]*|DONE"
