#!/usr/bin/env bash
# Fleet load: `fairfuel fleet-sim` through a local Mosquitto (default limits) into hub instances
# on one SQLite database, and what it cost.
#
#   scripts/fleet-load.sh [CARS] [DAYS] [HUBS] [PUBLISH_PER_S]     (default 100 30 2 2000)
#
# Prints the messages published, the records stored (each car's records once), the rate the hubs
# kept up with, and each hub's peak RSS and CPU seconds (/usr/bin/time). Needs mosquitto and a
# built fairfuel (.build/debug, or FAIRFUEL=path). The cars' stores are made first (not timed).
set -euo pipefail
cd "$(dirname "$0")/.."
cars=${1:-100} days=${2:-30} hubs=${3:-2} rate=${4:-2000}
fairfuel=${FAIRFUEL:-.build/debug/fairfuel}
work=$(mktemp -d /tmp/fairfuel-fleet-load-XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\nuser root\nlog_dest file %s/broker.log\n' "$port" "$work" > "$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" & sleep 0.5
url="mqtt://127.0.0.1:$port"

# The cars' stores first (not timed): fleet-sim records every car's days, then publishes nothing.
"$fairfuel" fleet-sim --cars "$cars" --days "$days" --url "$url" --dir "$work/cars" --no-publish

share=()
[ "$hubs" -gt 1 ] && share=(--share load)
for i in $(seq 1 "$hubs"); do
  /usr/bin/time -f "hub $i: peak RSS %M KB, CPU %U s user + %S s system" -o "$work/hub$i.time" \
    "$fairfuel" hub --url "$url" --dir "$work/hub$i" --db "$work/hub.db" "${share[@]}" --until-idle 5 >"$work/hub$i.out" 2>"$work/hub$i.err" &
done
sleep 2
start=$(date +%s.%N)
"$fairfuel" fleet-sim --cars "$cars" --days "$days" --url "$url" --dir "$work/cars" --publish-per-s "$rate" > "$work/sim.out" 2>"$work/sim.err"
end=$(date +%s.%N)
sleep 7  # the hubs stop 5 s after the last message
published=$(grep -o '[0-9]* message(s) published' "$work/sim.out" | cut -d' ' -f1)
stored=$(python3 -c "import sqlite3; print(sqlite3.connect('$work/hub.db').execute('select count(*) from hub_records').fetchone()[0])")
echo "cars $cars, days $days, hubs $hubs, offered $rate/s"
echo "published and acknowledged: $published in $(python3 -c "print(round($end - $start, 1))") s ($(python3 -c "print(int($published / ($end - $start)))") messages/s)"
echo "records stored: $stored"
cat "$work"/hub*.out "$work"/hub*.time
grep -c "being dropped" "$work/broker.log" | sed 's/^/broker drop warnings: /' || true
