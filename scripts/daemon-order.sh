#!/usr/bin/env bash
# Regenerates Sources/fairfueld/fairfueld.order, fairfueld's link order (issue 16's memory):
#
#   1. builds fairfueld with sanitizer coverage (-sanitize=address -sanitize-coverage=func), in
#      .build-order, and plays the family week through it twice (without an uplink, then with one to a
#      local Mosquitto when mosquitto is installed), keeping which of our functions ran;
#   2. builds the release binaries in .build and traces the 4 KiB code pages the daemon executes
#      (TOUCHED=1 scripts/memory.sh) for the runtime and standard library, which are not instrumented;
#   3. writes the order (scripts/order-from-coverage.py) and relinks; ITERATIONS=N (default 2) traces
#      the new layout's pages again and rewrites it, each time leaving fewer cold neighbours among the
#      functions that ran.
#
#   scripts/daemon-order.sh && BIN_DIR=.build/release scripts/memory.sh   # then measure
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=${ITERATIONS:-2}
scenario=scenarios/family-week.scenario
./scripts/install-deps.sh >&2
swift build -c release --static-swift-stdlib --product fairfueld --scratch-path .build-order \
  --sanitize address -Xswiftc -sanitize-coverage=func,trace-pc-guard >&2
for product in fairfuel fairfueld; do
  swift build -c release --static-swift-stdlib --product "$product" --scratch-path .build >&2
done
# shellcheck source=scripts/lib/daemon-rig.sh
. scripts/lib/daemon-rig.sh
rig_begin fairfuel-order
cli=.build/release/fairfuel

# covered NAME [UPLINK_URL]: the week through the instrumented daemon; its coverage in $work/NAME.cov.
covered() {
  local name=$1 url=${2:-}
  mkdir "$work/$name.cov"
  rig_provision "$cli" "$work/$name.db" "$scenario"
  rig_board boards/pi-zero-2w.toml "$work/$name.toml" "$(rig_group)" "$url"
  rig_start_daemon "$cli" .build-order/release/fairfueld "$work/$name.toml" "$work/$name.mcu" "$work/$name.db" \
    "$work/$name.sock" "$work/$name.err" env "ASAN_OPTIONS=coverage=1:coverage_dir=$work/$name.cov:detect_leaks=0"
  children+=("$RIG_DAEMON_PID")
  "$cli" sim "$scenario" --speed 300 --idle-speed 20000 --link "$work/$name.mcu" --quiet >"$work/$name.sim" 2>&1
  sleep 1
  kill -TERM "$RIG_DAEMON_PID"
  wait "$RIG_DAEMON_PID" || true
  ls "$work/$name.cov"/*.sancov >/dev/null || { echo "no coverage from the $name week:" >&2; tail "$work/$name.err" >&2; exit 1; }
  echo "$name week: $(tail -n 1 "$work/$name.sim")" >&2
}
coverage=("$work/plain.cov")
covered plain
if command -v mosquitto >/dev/null; then
  rig_mosquitto "$work"
  children+=("$RIG_MQTT_PID")
  covered uplink "mqtt://127.0.0.1:$RIG_MQTT_PORT"
  coverage+=("$work/uplink.cov")
fi

objects=(.build/x86_64-unknown-linux-gnu/release/{FairFuel*,fairfueld,CPosixShims,RealModule}.build)
for round in $(seq "$iterations"); do
  TOUCHED=1 UPLINK=0 ORDER_OUT="$work/pages.order" BIN_DIR=.build/release scripts/memory.sh >"$work/touched.$round.txt" 2>&1 ||
    { cat "$work/touched.$round.txt" >&2; exit 1; }
  echo "round $round: $(grep 'executed code pages' "$work/touched.$round.txt")" >&2
  python3 scripts/order-from-coverage.py --binary .build-order/release/fairfueld --sancov "${coverage[@]}" \
    --objects "${objects[@]}" --pages "$work/pages.order" >Sources/fairfueld/fairfueld.order
  # SwiftPM relinks only when an input's content changes; the order file is not one it tracks.
  rm -f .build/release/fairfueld
  swift build -c release --static-swift-stdlib --product fairfueld --scratch-path .build >&2
done
grep '^# [0-9]' Sources/fairfueld/fairfueld.order
