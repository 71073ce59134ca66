#!/usr/bin/env bash
# What grows with a car's age (docs/store.md, "Growth with age"): a long history written the way
# the service writes it, boot by boot (the test helper AgedStore: 2 to 6 boots a day, each with its
# start-up integrity check and retention pass and its run, 1 Hz trips flushed every 10 s, the hourly
# pass, refuels, corrections, an uplink whose outbox is sent at the next boot), then per table of
# the schema its rows and bytes (dbstat: its b-tree and its indexes), per day and per boot, and the
# files. With BIN_DIR (or DAEMON=1, which builds the release binaries), fairfueld too: its memory
# on that aged store and on a fresh one while `fairfuel sim` plays the family week's first HOURS,
# and the log lines it wrote (the journal's, at the default level) per simulated day.
#
#   scripts/growth.sh [DAYS]                        # default 365; needs the test build (scripts/test.sh's)
#   BIN_DIR=.build/release scripts/growth.sh 365    # and the daemon; HOURS=24 by default, UPLINK=1 adds a broker,
#                                                   # RESTARTS=40 starts and stops of it on the aged store
set -euo pipefail
cd "$(dirname "$0")/.."
days=${1:-365}
hours=${HOURS:-24}
scenario=scenarios/family-week.scenario
# shellcheck source=scripts/lib/daemon-rig.sh
. scripts/lib/daemon-rig.sh
rig_begin fairfuel-growth
aged=$work/aged.db

FAIRFUEL_AGED_STORE=$aged FAIRFUEL_AGED_DAYS=$days swift test --skip-build --scratch-path .build-tests -Xswiftc -O \
  --filter writesTheAgedStoreTheGrowthScriptMeasures >"$work/fixture.out" 2>&1 || { cat "$work/fixture.out" >&2; exit 1; }
summary=$(grep -o 'aged store: .*' "$work/fixture.out" | head -n 1)
echo "$summary"
boots=$(grep -o '[0-9]* boots' <<<"$summary" | cut -d' ' -f1)

sql() { sqlite3 -readonly -separator ' ' "$aged" "$@"; }
page_size=$(sql "PRAGMA page_size")
echo
echo "per table (b-tree and its indexes, dbstat), after $days days and $boots boots; page size $page_size:"
printf "%-20s %9s %11s %11s %10s %10s %12s\n" table rows bytes payload rows/day rows/boot bytes/year
for table in $(sql "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") sqlite_schema; do
  if [ "$table" = sqlite_schema ]; then rows=$(sql "SELECT count(*) FROM sqlite_schema"); else rows=$(sql "SELECT count(*) FROM \"$table\""); fi
  read -r bytes payload <<<"$(sql "SELECT coalesce(sum(pgsize), 0), coalesce(sum(payload), 0) FROM dbstat
    WHERE name = '$table' OR name IN (SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = '$table')")"
  awk -v t="$table" -v r="$rows" -v b="$bytes" -v p="$payload" -v d="$days" -v n="$boots" \
    'BEGIN { printf "%-20s %9d %11d %11d %10.2f %10.3f %12d\n", t, r, b, p, r / d, r / n, b * 365 / d }'
done
read -r pages free <<<"$(sql "PRAGMA page_count" | tr '\n' ' ') $(sql "PRAGMA freelist_count")"
echo "pages $pages (free $free): $((pages * page_size)) bytes"
for suffix in "" -wal -shm -reserve; do
  [ -e "$aged$suffix" ] && printf "%-24s %11d bytes\n" "fairfuel.db$suffix" "$(stat -c %s "$aged$suffix")"
done
echo "per day: $(( $(stat -c %s "$aged") / days )) bytes of database file; per boot: runs begun $boots, kept $(sql "SELECT count(*) FROM runs")"

if [ -z "${BIN_DIR:-}" ] && [ "${DAEMON:-0}" = 1 ]; then
  for product in fairfuel fairfueld; do
    swift build -c release --static-swift-stdlib --product "$product" --scratch-path .build >&2
  done
  BIN_DIR=.build/release
fi
[ -n "${BIN_DIR:-}" ] || exit 0
cli="$BIN_DIR/fairfuel"
rig_uplink "$work"
url=$RIG_UPLINK_URL
rig_board "${BOARD:-boards/pi-zero-2w.toml}" "$work/board.toml" "$(rig_group)" "$url"

# daemon_on LABEL DB: fairfueld on DB (the scenario's family provisioned on top) while the sim plays
# HOURS of the week; its memory after start-up and at the end, and its log lines.
daemon_on() {
  local label=$1 db=$2 pid sim vmrss anon pss lines
  rig_provision "$cli" "$db" "$scenario"
  rig_start_daemon "$cli" "$BIN_DIR/fairfueld" "$work/board.toml" "$work/mcu-$label" "$db" "$work/control-$label.sock" "$work/$label.err"
  pid=$RIG_DAEMON_PID
  children+=("$pid")
  sleep 2
  read -r vmrss anon _ _ pss _ <<<"$(rig_measure "$pid")"
  printf "%-6s %-10s %9d %9d %9d\n" "$label" started "$vmrss" "$anon" "$pss"
  "$cli" sim "$scenario" --speed "${SPEED:-300}" --idle-speed "${IDLE_SPEED:-3600}" --seconds $((hours * 3600)) \
    --link "$work/mcu-$label" --quiet >"$work/sim-$label.out" 2>"$work/sim-$label.err" &
  sim=$!
  children+=("$sim")
  wait "$sim" || { echo "the sim failed:" >&2; cat "$work/sim-$label.err" >&2; return 1; }
  sleep 1
  read -r vmrss anon _ _ pss _ <<<"$(rig_measure "$pid")"
  printf "%-6s %-10s %9d %9d %9d\n" "$label" "after ${hours}h" "$vmrss" "$anon" "$pss"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  lines=$(wc -l <"$work/$label.err")
  echo "$label: $lines log lines for $hours simulated hours ($(awk -v l="$lines" -v h="$hours" 'BEGIN { printf "%.0f", l * 24 / h }') a day); by what they say:"
  sed -E 's/^[^ ]* *//; s/[0-9]+/N/g' "$work/$label.err" | cut -c1-70 | sort | uniq -c | sort -rn
}

echo
echo "fairfueld ($BIN_DIR), the family week's first $hours h${url:+, uplink $url}; KiB:"
printf "%-6s %-10s %9s %9s %9s\n" store when vmrss anon pss
daemon_on fresh "$work/fresh.db"
daemon_on aged "$aged"

# The service restarted RESTARTS times on the aged store with no MCU attached (a car whose dongle
# loses power at every engine stop, or a crash loop under Restart=always): what each start adds
# to the store and to the journal.
restarts=${RESTARTS:-40}
runs_before=$(sql "SELECT count(*) FROM runs")
: >"$work/restarts.err"
for _ in $(seq "$restarts"); do
  rig_start_daemon "$cli" "$BIN_DIR/fairfueld" "$work/board.toml" "$work/mcu-none" "$aged" "$work/control-restarts.sock" "$work/restart.err"
  kill "$RIG_DAEMON_PID"
  wait "$RIG_DAEMON_PID" 2>/dev/null || true
  cat "$work/restart.err" >>"$work/restarts.err"
done
echo
echo "$restarts restarts of fairfueld on the aged store: runs rows $runs_before -> $(sql "SELECT count(*) FROM runs") (newest run id $(sql "SELECT max(id) FROM runs")); $(wc -l <"$work/restarts.err") log lines, by what they say:"
sed -E 's/^[^ ]* *//; s/[0-9]+/N/g' "$work/restarts.err" | cut -c1-70 | sort | uniq -c | sort -rn
