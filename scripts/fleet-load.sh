#!/usr/bin/env bash
# Fleet load: `fairfuel fleet-sim` through a local Mosquitto (default limits) into hub instances on
# one database (a SQLite file, or a PostgreSQL server this script starts), and what it cost.
#
#   scripts/fleet-load.sh [CARS] [DAYS] [HUBS] [PUBLISH_PER_S] [DB]     (default 100 30 2 2000 sqlite)
#
# DB is `sqlite` or `postgres` (a cluster made with initdb in the work directory, on a free loopback
# port, as the postgres user when run as root; stopped at the end). Prints the messages published,
# the records stored (counted against the distinct records an independent subscriber saw published: each once), the rate the hubs
# sustained (records stored over the span from the first to the last store), the lag from publish
# to stored (p50, p99, max: an independent subscriber's receipt time of each record's message
# against the hub's stored_utc_ms), each hub's peak RSS and CPU seconds (/usr/bin/time), and the
# PostgreSQL server's CPU seconds. Needs mosquitto, mosquitto_sub and a built fairfuel
# (.build/debug, or FAIRFUEL=path). The cars' stores are made first (not timed; FLEET_CARS=DIR keeps
# them for the next run). The hubs stop FLEET_IDLE_S (60) seconds after their last message.
set -euo pipefail
cd "$(dirname "$0")/.."
cars=${1:-100} days=${2:-30} hubs=${3:-2} rate=${4:-2000} db=${5:-sqlite}
case $db in sqlite | postgres) ;; *) echo "fleet-load: DB is sqlite or postgres, not $db" >&2; exit 2 ;; esac
fairfuel=${FAIRFUEL:-.build/debug/fairfuel}
work=$(mktemp -d /tmp/fairfuel-fleet-load-XXXXXX)
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
as_postgres=()
[ "$(id -u)" = 0 ] && as_postgres=(runuser -u postgres --)
cleanup() {
  kill $(jobs -p) 2>/dev/null || true
  if [ -f "$work/pg/postmaster.pid" ]; then "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -m fast -w stop >/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port=$(free_port)
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\nuser root\nlog_dest file %s/broker.log\n' "$port" "$work" > "$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" & sleep 0.5
url="mqtt://127.0.0.1:$port"

if [ "$db" = postgres ]; then
  [ -n "$pg_bin" ] || { echo "fleet-load: PostgreSQL is missing (scripts/install-deps.sh installs it)" >&2; exit 2; }
  pg_port=$(free_port)
  [ "$(id -u)" = 0 ] && chown postgres: "$work"
  "${as_postgres[@]}" "$pg_bin/initdb" -D "$work/pg" -U fairfuel -A trust --no-sync -E UTF8 --locale C >/dev/null
  # The server's defaults, but for its sockets (here) and listening on loopback only.
  "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $work" -w start >/dev/null
  database="postgres://fairfuel@127.0.0.1:$pg_port/postgres"
  records_sql() { psql -h 127.0.0.1 -p "$pg_port" -U fairfuel -d postgres -At -F ' ' -c "$1"; }
else
  database="$work/hub.db"
  records_sql() { python3 -c "import sqlite3, sys; [print(*row) for row in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])]" "$database" "$1"; }
fi

# The cars' stores first (not timed): fleet-sim records every car's days, then publishes nothing.
# With FLEET_CARS=DIR they are copied from DIR when it holds them, else made and a copy kept there
# (so that a run on SQLite and one on PostgreSQL publish the same cars).
sim_start=$(date +%s.%N)
if [ -n "${FLEET_CARS:-}" ] && [ -f "$FLEET_CARS/car-$((cars - 1)).db" ]; then
  cp -r "$FLEET_CARS" "$work/cars"
else
  "$fairfuel" fleet-sim --cars "$cars" --days "$days" --url "$url" --dir "$work/cars" --no-publish > /dev/null
  [ -n "${FLEET_CARS:-}" ] && { rm -rf "$FLEET_CARS"; cp -r "$work/cars" "$FLEET_CARS"; }
fi
echo "cars' stores ready in $(python3 -c "print(round($(date +%s.%N) - $sim_start, 1))") s (not timed)"

share=()
[ "$hubs" -gt 1 ] && share=(--share load)
# The hubs stop this long after their last message; fleet-sim opens every car's store before its first.
idle=${FLEET_IDLE_S:-60}
hub_pids=()
for i in $(seq 1 "$hubs"); do
  /usr/bin/time -f "hub $i: peak RSS %M KB, CPU %U s user + %S s system" -o "$work/hub$i.time" \
    "$fairfuel" hub --url "$url" --dir "$work/hub$i" --db "$database" "${share[@]}" --until-idle "$idle" >"$work/hub$i.out" 2>"$work/hub$i.err" &
  hub_pids+=($!)
done
# An independent subscriber: when each record's message left the broker (as good as its publish time on loopback).
mosquitto_sub -h 127.0.0.1 -p "$port" -q 1 -t 'fairfuel/+/trip' -t 'fairfuel/+/refuel' -t 'fairfuel/+/split' -F '%U %t %p' > "$work/published.txt" &
sleep 2
"$fairfuel" fleet-sim --cars "$cars" --days "$days" --url "$url" --dir "$work/cars" --publish-per-s "$rate" > "$work/sim.out" 2>"$work/sim.err" &
sim=$!
# Timed from its first publish (the line it prints once every store is open).
until grep -q "publishing at" "$work/sim.err" 2>/dev/null || ! kill -0 $sim 2>/dev/null; do sleep 0.1; done
start=$(date +%s.%N)
wait $sim
end=$(date +%s.%N)
wait "${hub_pids[@]}" || true  # the hubs stop 5 s after the last message
published=$(grep -o '[0-9]* message(s) published' "$work/sim.out" | cut -d' ' -f1)
records_sql "SELECT vehicle, kind, record_id, revision, stored_utc_ms FROM hub_records" > "$work/stored.txt"
echo "cars $cars, days $days, hubs $hubs on $db, offered $rate/s"
echo "published and acknowledged: $published in $(python3 -c "print(round($end - $start, 1))") s ($(python3 -c "print(int($published / ($end - $start)))") messages/s)"
python3 - "$work/published.txt" "$work/stored.txt" <<'PYTHON'
import json, sys
published = {}
for line in open(sys.argv[1], errors="replace"):
    parts = line.split(" ", 2)
    if len(parts) < 3:
        continue
    try:
        message = json.loads(parts[2])
    except ValueError:
        continue
    vehicle, kind = parts[1].split("/")[1:3]
    key = (vehicle, kind, str(message.get("id")), str(message.get("revision")))
    published.setdefault(key, float(parts[0]))
stored, lags, times = 0, [], []
for line in open(sys.argv[2]):
    vehicle, kind, record, revision, at = line.split()
    stored += 1
    times.append(int(at) / 1000)
    if (vehicle, kind, record, revision) in published:
        lags.append(int(at) / 1000 - published[(vehicle, kind, record, revision)])
records = {key[:3] for key in published}
print(f"records stored: {stored}; records published (an independent subscriber's count): {len(records)}: "
      + ("each stored once" if stored == len(records) else "DIFFERENT"))
if published:
    first, last = min(published.values()), max(published.values())
    print(f"the independent subscriber saw the records published over {last - first:.1f} s")
if times:
    span = max(times) - min(times)
    print(f"stored at {int(stored / span) if span > 0 else stored} records/s sustained ({stored} over {span:.1f} s from the first to the last)")
if lags:
    lags.sort()
    pick = lambda q: lags[min(len(lags) - 1, int(q * len(lags)))] * 1000
    print(f"lag from publish to stored ({len(lags)} records): p50 {pick(0.5):.0f} ms, p99 {pick(0.99):.0f} ms, max {lags[-1] * 1000:.0f} ms")
PYTHON
cat "$work"/hub*.out "$work"/hub*.time
if [ "$db" = postgres ]; then
  # The server's CPU: the postmaster's own and its children's, waited for or still running.
  pm=$(head -1 "$work/pg/postmaster.pid")
  python3 - "$pm" <<'PYTHON'
import os, sys
tick = os.sysconf("SC_CLK_TCK")
def times(pid, children):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15 if children else 13])
pm = int(sys.argv[1])
total = times(pm, True)
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            if open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1] == str(pm):
                total += times(int(pid), False)
        except OSError:
            pass
print(f"PostgreSQL server: CPU {total / tick:.1f} s")
PYTHON
fi
# Which clients' queues overflowed (the broker warns once per episode and client).
grep "being dropped" "$work/broker.log" | grep -o 'client [^ .]*' | sort | uniq -c | sed 's/^/broker dropped messages for: /' || true
