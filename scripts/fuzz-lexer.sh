#!/usr/bin/env bash
# Fuzz the GNSS packet lexer (and the NMEA stream decoder behind it) with
# libFuzzer (coverage-guided) and AddressSanitizer.
#   scripts/fuzz-lexer.sh [SECONDS] [extra libFuzzer flags...]
# Seeds: the gpsd logs (binary-mixed ones included) and the synthetic fixtures,
# cut in pieces; crashes land in fuzz-out/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
out=.build-fuzz-lexer
mkdir -p "$out" fuzz-out/corpus-lexer

flags=(-O -sanitize=fuzzer,address -parse-as-library)
source scripts/fuzz-build-parsers.sh "$out"
swiftc "${flags[@]}" -I "$out" -I "$numerics_shims" -L "$out" -lFairFuelParsers -lRealModule -lFairFuelCore \
  Fuzz/PacketLexerFuzzer.swift -o "$out/fuzz-lexer"

if [ -z "$(ls -A fuzz-out/corpus-lexer)" ]; then
  python3 - <<'PY'
import glob
fixtures = "Tests/FairFuelParsersTests/Fixtures/nmea"
paths = sorted(glob.glob(f"{fixtures}/gpsd/*.log") + glob.glob(f"{fixtures}/gpsd/mixed-binary/*.log")
               + glob.glob(f"{fixtures}/synthetic/*.log"))
n = 0
for path in paths:
    data = open(path, "rb").read()
    for i in range(0, min(len(data), 64 * 1024), 1500):
        open(f"fuzz-out/corpus-lexer/seed-{n:06d}", "wb").write(data[i:i + 1500])
        n += 1
PY
fi

"$out/fuzz-lexer" -max_total_time="$seconds" -max_len=4096 -artifact_prefix=fuzz-out/ \
  -print_final_stats=1 "$@" fuzz-out/corpus-lexer
