#!/usr/bin/env bash
# The first chat turn after a restart, measured in the real app window (issue 14).
#
# Needs Xvfb, openbox, xdotool (Debian: apt-get install xvfb openbox xdotool). Starts its own
# X server at 1600x1000 (the click positions below are for that geometry), a temp store with
# the bundled GGUF configured and an empty cache dir, then:
#   run 0: opens the app once to answer the first-start holiday question, sends nothing;
#   run 1: opens the app (no saved state), types a message DELAY seconds after launch, waits
#          for the turn's observation, quits with Ctrl+Q (the quit saves the read-ahead);
#   run 2: the same with the next message: the restart.
# Prints each turn's time to first token (timeline first_token - model_request_sent, from the
# observations table) and run 2's share of run 1's. Target: <= 15%.
#
#   benchmarks/drive_app_restart.sh [DELAY_SECONDS]     (default 1.5: as soon as the window is up)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PY="$ROOT/.venv/bin/python"
DELAY="${1:-1.5}"
WORK="$(mktemp -d /tmp/richeng-drive-XXXX)"
DB="$WORK/cal.sqlite3"
export XDG_CACHE_HOME="$WORK/cache" DISPLAY=":$((90 + RANDOM % 9))"
Xvfb "$DISPLAY" -screen 0 1600x1000x24 >/dev/null 2>&1 & XVFB=$!
trap 'kill $XVFB 2>/dev/null || true; rm -rf "$WORK"' EXIT
sleep 1
openbox >/dev/null 2>&1 &
sleep 1

count() { "$PY" -c "import sqlite3,sys;print(sqlite3.connect(sys.argv[1]).execute('select count(*) from observations').fetchone()[0])" "$DB"; }

launch() { "$ROOT/.venv/bin/richeng" --db "$DB" --lang zh_CN >"$WORK/app.log" 2>&1 & echo $!; }

pid=$(launch); sleep 5
xdotool mousemove 737 421 click 1; sleep 1   # the holiday question's OK button
xdotool key ctrl+q; sleep 2
"$PY" - "$DB" <<'EOF'
import sys
from agent.services.settings import SettingsService
from agent.store.db import Store
from agent.store.profiles import ensure_profile
store = Store(sys.argv[1])
SettingsService(store, ensure_profile(store)).set("model", "bundled")
EOF

turn() {  # $1 message
  local before pid
  before=$(count)
  pid=$(launch); sleep "$DELAY"
  xdotool mousemove 1247 889 click 1; sleep 0.2   # the chat input
  xdotool type --delay 20 "$1"; xdotool key Return
  for _ in $(seq 1 300); do [ "$(count)" -gt "$before" ] && break; sleep 1; done
  sleep 3; xdotool key ctrl+q; sleep 3
  kill -0 "$pid" 2>/dev/null && { echo "the app did not quit" >&2; kill "$pid"; }
  "$PY" -c "
import json, sqlite3, sys
row = sqlite3.connect(sys.argv[1]).execute('select data from observations order by id desc limit 1').fetchone()
t = json.loads(row[0])['timeline']
print(round(t['first_token'] - t['model_request_sent']))" "$DB"
}

first=$(turn "meeting with Wang tomorrow at 3pm")
second=$(turn "and what about Friday")
echo "run 1 (no saved state): time to first token ${first} ms"
echo "run 2 (restart):        time to first token ${second} ms"
ls -l "$XDG_CACHE_HOME/richeng/prefix-state" | tail -n +2
"$PY" -c "import sys; a, b = map(float, sys.argv[1:]); print(f'second / first = {b / a:.1%}  (target <= 15%)')" "$first" "$second"
