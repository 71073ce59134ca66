#!/usr/bin/env bash
# The soak benchmark of issue 6: simulated hours of MCU traffic (10 Hz GNSS the whole time,
# 20 BLE advertisers in range at 50 advertisements/s, a family's seven trips a day) streamed
# from `fairfuel synth-capture --soak` into `fairfuel replay -` with a throw-away store.
# Prints the replay's hourly table (CPU seconds of the replay process; its VmRSS, RssAnon and Pss,
# read from /proc/PID/status and smaps_rollup as each simulated hour ends; frames, trip points)
# and a summary. Results and how to read them: docs/soak.md.
#
#   scripts/soak.sh [HOURS]            # default 24; SEED=N picks another day
#   WARMUP_HOURS=24 scripts/soak.sh 72 # memory growth of days 2 and 3, after the store's cache is full
#   FAIRFUEL_BIN=path scripts/soak.sh  # use a binary already built (no build step)
#   BUILD_FLAGS="-Xswiftc -cross-module-optimization" SCRATCH=.build-cmo scripts/soak.sh
#                                      # the build docs/soak.md compares with the dongle's
#
# The daemon itself (issue 16: flat over a 24-hour soak):
#
#   scripts/soak.sh --daemon [HOURS]   # fairfueld on a throw-away store while `fairfuel sim` plays
#                                      # the family week's first HOURS (default 24) through the
#                                      # virtual MCU on a pseudo-terminal; each simulated hour (the
#                                      # link time fairfueld's status reports), its VmRSS, RssAnon, Pss
#   BIN_DIR=.build/release scripts/soak.sh --daemon   # binaries already built there
#   SPEED=300 IDLE_SPEED=3600 UPLINK=1 scripts/soak.sh --daemon 158   # the whole week, with an
#                                      # [uplink] to a local Mosquitto
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --daemon ]; then
  shift
  hours=${1:-24}
  warmup_hours=${WARMUP_HOURS:-2}
  scenario=scenarios/family-week.scenario
  if [ -z "${BIN_DIR:-}" ]; then
    ./scripts/install-deps.sh >&2
    for product in fairfuel fairfueld; do
      swift build -c release --static-swift-stdlib --product "$product" --scratch-path "${SCRATCH:-.build}" >&2
    done
    BIN_DIR=${SCRATCH:-.build}/release
  fi
  # shellcheck source=scripts/lib/daemon-rig.sh
  . scripts/lib/daemon-rig.sh
  rig_begin fairfuel-soak
  cli="$BIN_DIR/fairfuel"
  rig_uplink "$work"
  url=$RIG_UPLINK_URL
  rig_provision "$cli" "$work/soak.db" "$scenario"
  rig_board "${BOARD:-boards/pi-zero-2w.toml}" "$work/board.toml" "$(rig_group)" "$url"
  rig_start_daemon "$cli" "$BIN_DIR/fairfueld" "$work/board.toml" "$work/mcu" "$work/soak.db" "$work/control.sock" "$work/daemon.err"
  daemon_pid=$RIG_DAEMON_PID
  children+=("$daemon_pid")
  "$cli" sim "$scenario" --speed "${SPEED:-300}" --idle-speed "${IDLE_SPEED:-3600}" --seconds $((hours * 3600)) \
    --link "$work/mcu" --quiet >"$work/sim.out" 2>"$work/sim.err" &
  sim_pid=$!
  children+=("$sim_pid")
  echo "fairfueld ($BIN_DIR) soaked with $scenario for $hours simulated hours${url:+, uplink $url}; KiB:"
  printf "%6s %9s %9s %9s %10s\n" sim_h vmrss_kib anon_kib pss_kib frames
  # Each time the link time fairfueld reports passes a whole hour, its memory, read from outside.
  last_hour=0
  while kill -0 "$sim_pid" 2>/dev/null; do
    status=$("$cli" status --json --control "$work/control.sock" 2>/dev/null || true)
    link_ms=$(grep -o '"link_time_ms":[0-9]*' <<<"$status" | cut -d: -f2 || true)
    if [ -n "$link_ms" ] && [ $((link_ms / 3600000)) -gt "$last_hour" ]; then
      last_hour=$((link_ms / 3600000))
      read -r vmrss anon _ _ pss _ <<<"$(rig_measure "$daemon_pid")"
      frames=$(grep -o '"frames":{"frames":[0-9]*' <<<"$status" | grep -o '[0-9]*$' || true)
      printf "%6d %9d %9d %9d %10s\n" "$last_hour" "$vmrss" "$anon" "$pss" "${frames:-?}"
    fi
    sleep 0.2
  done | tee "$work/hours.txt"
  wait "$sim_pid" || { echo "the sim failed:" >&2; cat "$work/sim.err" >&2; exit 1; }
  sleep 1
  read -r vmrss anon _ _ pss _ <<<"$(rig_measure "$daemon_pid")"
  printf "%6s %9d %9d %9d  (after the sim ended)\n" end "$vmrss" "$anon" "$pss"
  echo
  echo "sim: $(tail -n 1 "$work/sim.out")"
  echo "trips stored: $("$cli" trips --json --db "$work/soak.db" | grep -o '"id":[0-9]*' | wc -l)"
  awk -v warmup="$warmup_hours" -v endRSS="$vmrss" -v endAnon="$anon" '
    $1 + 0 > warmup {
      if (n++ == 0) { firstRSS = $2; firstAnon = $3; minRSS = $2 }
      lastRSS = $2; lastAnon = $3
      if ($2 < minRSS) minRSS = $2
      if ($2 > maxRSS) maxRSS = $2
      if ($3 > maxAnon) maxAnon = $3
    }
    END {
      if (n == 0) { print "no hourly sample after the warm-up"; exit 1 }
      printf "after %d h warm-up, %d hourly samples: VmRSS first %d, last %d, min %d, max %d KiB (growth first to last %.2f %%); RssAnon first %d, last %d, max %d KiB\n", warmup, n, firstRSS, lastRSS, minRSS, maxRSS, (lastRSS - firstRSS) * 100 / firstRSS, firstAnon, lastAnon, maxAnon
    }' "$work/hours.txt"
  exit 0
fi

hours=${1:-24}
seed=${SEED:-1}
# Hours whose every minute is driving in the standard day (the long drive, 13:00 to 15:00),
# as the capture hour at their end; every simulated day has them.
driving_hours_pure="14 15"
warmup_hours=${WARMUP_HOURS:-2}

if [ -z "${FAIRFUEL_BIN:-}" ]; then
  ./scripts/install-deps.sh
  scratch=${SCRATCH:-.build}
  # Statically linked runtime, as on the dongle.
  # shellcheck disable=SC2086  # BUILD_FLAGS is a list of flags
  swift build -c release --static-swift-stdlib --product fairfuel --scratch-path "$scratch" ${BUILD_FLAGS:-} >&2
  FAIRFUEL_BIN="$scratch/release/fairfuel"
fi
bin=$FAIRFUEL_BIN

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db="$work/soak.db"

# The family the traffic taps and carries fobs for.
"$bin" synth-capture --soak --list-drivers | while read -r name rest; do
  # shellcheck disable=SC2086  # rest is `--tag TAG --beacon SPEC`
  "$bin" provision driver add "$name" $rest --db "$db" >/dev/null
done

# VmRSS RssAnon Pss of PID in KiB, from the kernel's accounting (/proc/PID/status, smaps_rollup);
# `? ? ?` once the process is gone.
memory_kib() {
  { awk '/^VmRSS:/ { r = $2 } /^RssAnon:/ { a = $2 } END { printf "%d %d", r, a }' "/proc/$1/status" &&
    awk '/^Pss:/ { printf " %d\n", $2 }' "/proc/$1/smaps_rollup"; } 2>/dev/null || echo "? ? ?"
}

started=$(date +%s)
# The replay writes into a pipe read here, so that each progress line (each simulated hour) is
# followed at once by the replay process's memory, read from outside it.
mkfifo "$work/progress"
"$bin" synth-capture --soak --hours "$hours" --seed "$seed" 2>"$work/synth.txt" \
  | "$bin" replay - --db "$db" --progress-every-hours 1 >"$work/progress" &
replay_pid=$!
while IFS= read -r line; do
  case "$line" in
    progress*) read -r vmrss anon pss <<<"$(memory_kib "$replay_pid")"
               line="$line vmrss_kib=$vmrss rss_anon_kib=$anon pss_kib=$pss" ;;
  esac
  printf '%s\n' "$line"
done <"$work/progress" >"$work/replay.txt"
wait "$replay_pid"
elapsed=$(( $(date +%s) - started ))

store_bytes=0
for file in "$db" "$db-wal" "$db-shm"; do
  [ -f "$file" ] && store_bytes=$(( store_bytes + $(stat -c %s "$file") ))
done

awk -v warmup="$warmup_hours" -v pure="$driving_hours_pure" -v elapsed="$elapsed" -v store="$store_bytes" \
    -v synth="$(cat "$work/synth.txt")" '
  function field(name,   i, kv) {
    for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == name) return kv[2] }
    return ""
  }
  BEGIN {
    n = split(pure, list, " "); for (i = 1; i <= n; i++) isPure[list[i] + 0] = 1
    match(synth, /driving_h=[0-9.]+/); drivingH = substr(synth, RSTART + 10, RLENGTH - 10) + 0
    printf "%6s %9s %9s %9s %9s %9s %10s %8s\n", "sim_h", "cpu_s", "cpu_s/h", "vmrss_kib", "anon_kib", "pss_kib", "frames", "points"
  }
  ($1 == "progress" || $1 == "progress-end") && $2 ~ /^sim_h=/ {
    h = field("sim_h") + 0; cpu = field("cpu_s") + 0
    # Read from outside (scripts/soak.sh); else the VmRSS the replay printed, when it had already exited.
    rss = field("vmrss_kib"); if (rss == "?" || rss == "") rss = field("rss_kib"); rss += 0
    anon = field("rss_anon_kib"); pss = field("pss_kib")
    delta = cpu - lastCPU; lastCPU = cpu
    printf "%6.2f %9.3f %9.3f %9d %9s %9s %10d %8d%s\n", h, cpu, delta, rss, anon, pss, field("frames"), field("points"), ($1 == "progress-end" ? "  (end)" : "")
    if ($1 == "progress" && h == int(h)) {
      if (isPure[h % 24]) { pureCPU += delta; pureN++ }
      if (h > warmup) {
        if (firstRSS == "") firstRSS = rss
        lastRSS = rss
        if (minRSS == "" || rss < minRSS) minRSS = rss
        if (rss > maxRSS) maxRSS = rss
        if (anon != "?") { if (firstAnon == "") firstAnon = anon; lastAnon = anon; if (anon + 0 > maxAnon) maxAnon = anon + 0 }
        if (pss != "?") { if (firstPss == "") firstPss = pss; lastPss = pss; if (pss + 0 > maxPss) maxPss = pss + 0 }
      }
      hourly++; if (delta > maxDelta) maxDelta = delta
    }
    totalCPU = cpu; totalH = h; peakRSS = (rss > peakRSS ? rss : peakRSS)
  }
  /^replayed/ { replayed = $0 }
  /^link errors/ { errors = $0 }
  END {
    print ""
    print "generator: " synth
    print replayed
    if (errors != "") print errors
    printf "CPU: %.3f s for %.2f simulated hours (%.3f s per simulated hour, hourly max %.3f s)\n", totalCPU, totalH, totalCPU / totalH, maxDelta
    if (pureN > 0) printf "CPU per driving hour: %.3f s (mean of the %d all-driving hours)\n", pureCPU / pureN, pureN
    if (drivingH > 0) printf "CPU per driving hour, whole run charged to driving: %.3f s (%.3f s / %.2f driving h)\n", totalCPU / drivingH, totalCPU, drivingH
    if (firstRSS != "") printf "RSS after %d h warm-up: min %d KiB, max %d KiB, first %d KiB, last %d KiB, growth %.2f %% (max-min %.2f %%); peak %d KiB\n", warmup, minRSS, maxRSS, firstRSS, lastRSS, (lastRSS - firstRSS) * 100 / firstRSS, (maxRSS - minRSS) * 100 / minRSS, peakRSS
    if (firstAnon != "") printf "RssAnon after %d h warm-up: first %d KiB, last %d KiB, max %d KiB\n", warmup, firstAnon, lastAnon, maxAnon
    if (firstPss != "") printf "Pss after %d h warm-up: first %d KiB, last %d KiB, max %d KiB\n", warmup, firstPss, lastPss, maxPss
    printf "store: %d bytes; wall time %d s\n", store, elapsed
  }
' "$work/replay.txt"
