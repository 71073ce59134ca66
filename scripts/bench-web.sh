#!/usr/bin/env bash
# The web app under load, a benchmark and not a timed test: wrk (Debian's) against the home page
# and the trips API with a logged-in session, the server pinned to one core; prints requests per
# second, p99 latency, and the server's RSS idle and under load.
#
#   scripts/bench-web.sh [STORE]     default: a year of a family's trips, the aged store scripts/growth.sh
#                                    measures (written by the store tests' helper), else the demo's week
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
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

store=${1:-}
if [ -z "$store" ]; then
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
printf 'bench-password\n' | "$fairfuel" web user add bench --role family --db "$store" >/dev/null
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
FAIRFUEL_CONTROL=$work/no-control taskset -c 0 "$fairfuel" web --db "$store" --listen "127.0.0.1:$port" >"$work/web.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/login" && break; sleep 0.1; done
cookie=$(curl -s -D - -o /dev/null -H 'Content-Type: application/json' \
  -d '{"username":"bench","password":"bench-password"}' "http://127.0.0.1:$port/api/v1/login" \
  | sed -n 's/^[Ss]et-[Cc]ookie: \(fairfuel_session=[^;]*\).*/\1/p')
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$server/status"; }
trips=$("$fairfuel" trips --json --db "$store" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
echo "store: $store ($trips trips), server pinned to core 0, wrk $connections connections x ${seconds}s from the other core"
echo "RSS idle: $(rss) KiB"
peak=0
for path in / /api/v1/trips; do
  ( while kill -0 "$server" 2>/dev/null; do rss >>"$work/rss"; sleep 0.2; done ) &
  sampler=$!
  taskset -c 1 wrk -t1 -c"$connections" -d"${seconds}s" --latency -H "Cookie: $cookie" "http://127.0.0.1:$port$path" >"$work/wrk.out"
  kill "$sampler" 2>/dev/null || true
  rps=$(awk '/Requests\/sec/ { print $2 }' "$work/wrk.out")
  p99=$(awk '$1 == "99%" { print $2 }' "$work/wrk.out")
  non2xx=$(awk '/Non-2xx/ { print $NF }' "$work/wrk.out")
  echo "GET $path: $rps requests/s, p99 $p99${non2xx:+, $non2xx non-2xx}"
done
echo "RSS under load: peak $(sort -n "$work/rss" | tail -1) KiB; after: $(rss) KiB"
