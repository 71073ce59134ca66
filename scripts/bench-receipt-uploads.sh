#!/usr/bin/env bash
# Peak memory of the web app while phones send receipt photos, a measurement and not a timed test:
# three refuel forms, each with an ~8 MiB JPEG (noise from libjpeg-turbo's cjpeg, with an EXIF
# APP1 and a trailer after its EOI as phones write them), posted at once; prints the server's RSS
# idle and its high-water mark (VmHWM) after, against the unit's MemoryMax=96M. All three are read
# and stripped; the store then takes the first and refuses the others as a refuel at the same moment.
#
#   scripts/bench-receipt-uploads.sh
#   FAIRFUEL=PATH  the binary (default: .build/debug/fairfuel, built when missing)
#   UPLOADS=3      forms sent at once
set -euo pipefail
cd "$(dirname "$0")/.."
fairfuel=${FAIRFUEL:-.build/debug/fairfuel}
uploads=${UPLOADS:-3}
command -v cjpeg >/dev/null || { echo "bench-receipt-uploads: cjpeg is missing (apt-get install libjpeg-turbo-progs)" >&2; exit 2; }
[ -x "$fairfuel" ] || swift build --product fairfuel >&2
work=$(mktemp -d /tmp/fairfuel-bench-receipts.XXXXXX)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$work"; }
trap cleanup EXIT

python3 - "$work" <<'PY'
import random, sys
work = sys.argv[1]
random.seed(1)
width, height = 2000, 1000
open(f"{work}/noise.ppm", "wb").write(b"P6\n%d %d\n255\n" % (width, height) + random.randbytes(width * height * 3))
PY
cjpeg -quality 100 -sample 1x1 "$work/noise.ppm" >"$work/plain.jpg"
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
plain = open(f"{work}/plain.jpg", "rb").read()
exif = b"Exif\0\0MM\0*\0\0\0\x08" + b"GPS 48.8566 N 2.3522 E" * 100
app1 = b"\xff\xe1" + (len(exif) + 2).to_bytes(2, "big") + exif
open(f"{work}/photo.jpg", "wb").write(plain[:2] + app1 + plain[2:] + b"\0\0\0\x18ftypmp42" + bytes(200_000))
PY
photo_bytes=$(stat -c %s "$work/photo.jpg")

"$fairfuel" demo --keep "$work/demo" --quiet >/dev/null
store=$work/demo/fairfuel.db
printf 'bench-password\n' | "$fairfuel" web user add bench --role family --db "$store" >/dev/null
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
limit_kib=$(( (photo_bytes >> 10) + 1024 ))
FAIRFUEL_CONTROL=$work/no-control "$fairfuel" web --db "$store" --listen "127.0.0.1:$port" --upload-limit-kib "$limit_kib" >"$work/web.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/login" && break; sleep 0.1; done
login=$(curl -s -D "$work/headers" -H 'Content-Type: application/json' \
  -d '{"username":"bench","password":"bench-password"}' "http://127.0.0.1:$port/api/v1/login")
cookie=$(sed -n 's/^[Ss]et-[Cc]ookie: \(fairfuel_session=[^;]*\).*/\1/p' "$work/headers")
csrf=$(printf '%s' "$login" | python3 -c 'import json, sys; print(json.load(sys.stdin)["csrf_token"])')
status() { awk -v key="$1" '$1 == key ":" { print $2 }' "/proc/$server/status"; }
echo "photo: $photo_bytes bytes; $uploads forms at once; upload limit $limit_kib KiB"
echo "RSS idle: $(status VmRSS) KiB"
for index in $(seq "$uploads"); do
  curl -s -o "$work/reply.$index" -w "upload $index: %{http_code} in %{time_total} s\n" -H "Cookie: $cookie" \
    -F "csrf=$csrf" -F "liters=30" -F "cost=54.0$index" -F "station=bench $index" -F "receipt=@$work/photo.jpg;type=image/jpeg" \
    "http://127.0.0.1:$port/refuels" &
done
wait $(jobs -p | grep -v "^$server$") 2>/dev/null || true
echo "RSS after: $(status VmRSS) KiB; peak (VmHWM): $(status VmHWM) KiB (MemoryMax=96M is 98304 KiB)"
for index in $(seq "$uploads"); do echo "reply $index: $(grep -o "role=\"alert\">[^<]*" "$work/reply.$index" | head -1)"; done
echo "receipts stored: $(python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); print(c.execute('SELECT COUNT(*), COALESCE(SUM(length(image)), 0) FROM refuel_receipts').fetchone())" "$store")"
