#!/usr/bin/env bash
# The web app under load, a benchmark and not a timed test: wrk (Debian's) against the home page
# and the trips API with a logged-in session, the server pinned to one core; prints requests per
# second, p99 latency, and the server's RSS idle and under load.
#
#   scripts/bench-web.sh [STORE]     default: a year of a family's trips, the aged store scripts/growth.sh
#                                    measures (written by the store tests' helper), else the demo's week
#   SERVICE=1      a `fairfuel run` (no MCU attached, its own store) answers the home page's status
#                  request on its control socket; default: no service listens
#   HUB_DB=FILE    the hub's family view instead (`fairfuel web --hub-db FILE`): /family and
#                  /api/v1/family, over a copy of FILE (a fleet's: see docs/web.md, figures)
#   FAIRFUEL=PATH  the binary (default: .build/release/fairfuel, built when missing)
#   SECONDS_EACH=10 CONNECTIONS=8    wrk's run per URL
set -euo pipefail
cd "$(dirname "$0")/.."
fairfuel=${FAIRFUEL:-.build/release/fairfuel}
seconds=${SECONDS_EACH:-10}
connections=${CONNECTIONS:-8}
command -v wrk >/dev/null || { echo "bench-web: wrk is missing (scripts/install-deps.sh installs it)" >&2; exit 2; }
[ -x "$fairfuel" ] || swift build -c release --product fairfuel >&2
work=$(mktemp -d /tmp/fairfuel-bench-web.XXXXXX)
server="" service=""
cleanup() { for pid in $server $service; do kill "$pid" 2>/dev/null; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

store=${1:-}
paths="/ /api/v1/trips"
serve=() create=()
if [ -n "${HUB_DB:-}" ]; then
  # A copy with what is still in the write-ahead log (SQLite's backup), not the file alone.
  python3 -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).backup(sqlite3.connect(sys.argv[2]))' "$HUB_DB" "$work/hub.db"
  store=$work/users.db serve=(--hub-db "$work/hub.db") paths="/family /api/v1/family"
  create=(--create)
elif [ -z "$store" ]; then
  store=$work/aged.db
  if ! FAIRFUEL_AGED_STORE=$store FAIRFUEL_AGED_DAYS=365 swift test --skip-build \
      --filter writesTheAgedStoreTheGrowthScriptMeasures >"$work/aged.out" 2>&1 || [ ! -s "$store" ]; then
    echo "bench-web: no test build for the aged store; using the demo's week" >&2
    "$fairfuel" demo --keep "$work/demo" --quiet >/dev/null
    store=$work/demo/fairfuel.db
  fi
else
  cp "$store" "$work/bench.db"
  store=$work/bench.db
fi
printf 'bench-password\n' | "$fairfuel" web user add bench --role family "${create[@]}" --db "$store" >/dev/null
control=$work/no-control
if [ -n "${SERVICE:-}" ]; then
  control=$work/control.sock
  "$fairfuel" run --port "$work/no-mcu" --control "$control" --db "$work/service.db" >"$work/service.log" 2>&1 &
  service=$!
  for _ in $(seq 100); do "$fairfuel" status --control "$control" >/dev/null 2>&1 && break; sleep 0.1; done
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
FAIRFUEL_CONTROL=$control taskset -c 0 "$fairfuel" web --db "$store" "${serve[@]}" --listen "127.0.0.1:$port" >"$work/web.log" 2>&1 &
server=$!
started=$(date +%s.%N)
for _ in $(seq 3000); do
  curl -s -o /dev/null "http://127.0.0.1:$port/login" && break
  kill -0 "$server" 2>/dev/null || { echo "bench-web: fairfuel web stopped: $(cat "$work/web.log")" >&2; exit 1; }
  sleep 0.1
done
echo "listening after $(python3 -c "print(round($(date +%s.%N) - $started, 1))") s"
cookie=$(curl -s -D - -o /dev/null -H 'Content-Type: application/json' \
  -d '{"username":"bench","password":"bench-password"}' "http://127.0.0.1:$port/api/v1/login" \
  | sed -n 's/^[Ss]et-[Cc]ookie: \(fairfuel_session=[^;]*\).*/\1/p')
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$server/status"; }
if [ -n "${HUB_DB:-}" ]; then
  what="hub database $HUB_DB ($(python3 -c "import sqlite3, sys; print(*sqlite3.connect(sys.argv[1]).execute(
    'SELECT COUNT(DISTINCT vehicle), COUNT(*) FROM hub_records').fetchone(), sep=' cars, ')" "$work/hub.db") records)"
  # The first page reads the books: how long that takes, then the cached pages.
  echo "first /api/v1/family: $(curl -s -o /dev/null -w '%{time_total}' -H "Cookie: $cookie" "http://127.0.0.1:$port/api/v1/family") s"
else
  what="store $store ($("$fairfuel" trips --json --db "$store" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))') trips)"
  # What the home page says of the car now: parked when the service answers, not_known when none does.
  driving=$(curl -s -H "Cookie: $cookie" "http://127.0.0.1:$port/api/v1/home" | python3 -c 'import json, sys; print(json.load(sys.stdin)["now"]["driving"])')
  what="$what, the home page's car now: $driving (service: $([ -n "${SERVICE:-}" ] && echo "a fairfuel run answering status" || echo "none listening"))"
fi
echo "$what, server pinned to core 0, wrk $connections connections x ${seconds}s from the other core"
echo "RSS idle: $(rss) KiB"
for path in $paths; do
  ( while kill -0 "$server" 2>/dev/null; do rss >>"$work/rss"; sleep 0.2; done ) &
  sampler=$!
  taskset -c 1 wrk -t1 -c"$connections" -d"${seconds}s" --timeout 60s --latency -H "Cookie: $cookie" "http://127.0.0.1:$port$path" >"$work/wrk.out"
  kill "$sampler" 2>/dev/null || true
  rps=$(awk '/Requests\/sec/ { print $2 }' "$work/wrk.out")
  p50=$(awk '$1 == "50%" { print $2 }' "$work/wrk.out")
  p99=$(awk '$1 == "99%" { print $2 }' "$work/wrk.out")
  non2xx=$(awk '/Non-2xx/ { print $NF }' "$work/wrk.out")
  errors=$(awk '/Socket errors/ { sub(/.*Socket errors: /, ""); print }' "$work/wrk.out")
  echo "GET $path: $rps requests/s, p50 $p50, p99 $p99${non2xx:+, $non2xx non-2xx}${errors:+, socket errors: $errors}"
done
echo "RSS under load: peak $(sort -n "$work/rss" | tail -1) KiB; after: $(rss) KiB"
