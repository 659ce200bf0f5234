#!/bin/sh
# Screenshots of every scenario at the four target sizes into ${OUT:-/tmp/stormfury}.
# Serve the repo first:  python3 -m http.server 8931 --bind 127.0.0.1 --directory <repo>
set -eu
python3 "$(dirname "$0")/build_fixtures.py" >/dev/null
BASE=${BASE:-http://127.0.0.1:8931/scenarios/stormfury/harness/index.html}
OUT=${OUT:-/tmp/stormfury}
mkdir -p "$OUT"
SIZES=${SIZES:-"768,1024 1024,768 1366,650 390,844"}
SCENARIOS=${SCENARIOS:-"roles start mid waiting ended bot paused finished"}
shot() { # name query size
  png="$OUT/$1_$(echo "$3" | tr , x).png"
  /usr/bin/chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --hide-scrollbars --virtual-time-budget=${BUDGET:-3000} \
    --enable-logging=stderr --v=0 --window-size="$3" --screenshot="$png" \
    "$BASE?$2&nav=0" 2>&1 | grep -iE "CONSOLE|Uncaught" || true
  echo "$png"
}
for s in $SCENARIOS; do
  for size in $SIZES; do shot "$s" "s=$s" "$size"; done
done
# The two-step choosers, open.
for size in $SIZES; do
  shot start-evacuate "s=start&kind=evacuate&pick=pick-material%230,pick-sandbag%230" "$size"
  shot start-trade "s=start&kind=trade" "$size"
done
shot teacher "s=teacher" 1366,650
# Behaviour checks (accessible names, confirms, busy, pan/zoom and scroll kept across renders).
/usr/bin/chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --virtual-time-budget=8000 --window-size=1024,768 \
  --dump-dom "$BASE?check=1" 2>/dev/null | grep -oE "(PASS|FAIL) [^<]*|DONE"
