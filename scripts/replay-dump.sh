#!/usr/bin/env bash
# Replays a deterministic capture (the soak family's day, with line noise's cousin: 20
# advertisers, GNSS throughout) into a fresh store and prints the store as SQL text,
# run rows' wall-clock columns and the vehicle's random ids left out. Two builds that must behave alike give the same
# dump: `scripts/replay-dump.sh OLD/fairfuel > a.sql; scripts/replay-dump.sh NEW/fairfuel > b.sql; cmp a.sql b.sql`.
set -euo pipefail
fairfuel=${1:?usage: replay-dump.sh PATH/TO/fairfuel [HOURS]}
hours=${2:-24}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export FAIRFUEL_DB="$work/store.db"
"$fairfuel" synth-capture --soak --list-drivers | while read -r line; do
    eval "\"$fairfuel\" provision driver add $line" > /dev/null
done
"$fairfuel" synth-capture --soak --hours "$hours" --out "$work/day.ffcap" 2> /dev/null
"$fairfuel" replay "$work/day.ffcap" > /dev/null
# `runs` holds the host's wall clock at start and stop, and the vehicle's row two random ids
# (its unique id and its uplink id): everything else comes from the capture.
sqlite3 "$FAIRFUEL_DB" .dump | grep -v '^INSERT INTO runs ' | sed -E "/^INSERT INTO vehicle /s/,'[0-9a-f-]{32,36}','[0-9a-f]{32}'\);$/,'(random)','(random)');/"
