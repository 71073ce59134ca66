#!/usr/bin/env bash
# Fuzz the NMEA parser and fix assembler with libFuzzer (coverage-guided) and
# AddressSanitizer.
#   scripts/fuzz-nmea.sh [SECONDS] [extra libFuzzer flags...]
# Each input is fed as a text line, as a link-codec sentence (checksum optional)
# and to the bare parser; a crash, a counter that does not add up, or a fix
# with a position but no 2D/3D mode ends the run. Seeds are the sentences of
# the gpsd logs in the test fixtures; crashes land in fuzz-out/.
# The seeded random-input test (NMEAFuzzTests, 200k inputs) runs with
# `swift test`; for a longer one without libFuzzer:
#   FAIRFUEL_FUZZ_INPUTS=5000000 FAIRFUEL_FUZZ_SEED=7 swift test --filter NMEAFuzzTests
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
out=.build-fuzz-nmea
mkdir -p "$out" fuzz-out/corpus-nmea

flags=(-O -sanitize=fuzzer,address -parse-as-library)
source scripts/fuzz-build-parsers.sh "$out"

cat > "$out/NMEAFuzzer.swift" <<'SWIFT'
import FairFuelParsers

nonisolated(unsafe) var lines = NMEAFixDecoder()
nonisolated(unsafe) var frames = NMEAFixDecoder(configuration: NMEAConfiguration(allowMissingChecksum: true))

func check(_ fix: GNSSFix) {
    precondition((fix.mode >= .fix2D) == (fix.latitude != nil && fix.longitude != nil))
    if let latitude = fix.latitude { precondition(abs(latitude) <= 90) }
    if let longitude = fix.longitude { precondition(abs(longitude) <= 180) }
    _ = fix.jsonLine
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var start = 0
    for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x0A {
        let line = bytes[start..<index]
        lines.feed(line: line, emit: check)
        frames.feed(sentence: line, emit: check)
        _ = try? NMEAParser().parse(line)
        start = index + 1
    }
    if bytes.first == 0x00 { lines.finish(emit: check) }
    precondition(lines.stats.isConsistent && frames.stats.isConsistent)
    return 0
}
SWIFT
swiftc "${flags[@]}" -I "$out" -I "$numerics_shims" -L "$out" -lFairFuelParsers -lRealModule -lFairFuelCore \
  "$out/NMEAFuzzer.swift" -o "$out/fuzz-nmea"

# Seed corpus: the gpsd logs' lines, 20 at a time.
if [ -z "$(ls -A fuzz-out/corpus-nmea)" ]; then
  python3 - <<'PY'
import glob
lines = []
for path in sorted(glob.glob("Tests/FairFuelParsersTests/Fixtures/nmea/gpsd/*.log")):
    lines += open(path, "rb").read().split(b"\n")
for i in range(0, len(lines), 20):
    open(f"fuzz-out/corpus-nmea/seed-{i:06d}", "wb").write(b"\n".join(lines[i:i + 20]))
PY
fi

"$out/fuzz-nmea" -max_total_time="$seconds" -max_len=2048 -artifact_prefix=fuzz-out/ \
  -print_final_stats=1 "$@" fuzz-out/corpus-nmea
