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
set -euo pipefail
cd "$(dirname "$0")/.."

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
