#!/usr/bin/env bash
# Fuzz the link frame decoder with libFuzzer (coverage-guided) and AddressSanitizer.
#   scripts/fuzz-decoder.sh [SECONDS] [extra libFuzzer flags...]
# Seeds come from the shipped sample capture; crashes land in fuzz-out/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
out=.build-fuzz
mkdir -p "$out" fuzz-out/corpus-decoder

flags=(-O -sanitize=fuzzer,address -parse-as-library)
swiftc "${flags[@]}" -emit-module -emit-library -static -module-name FairFuelCore \
  -emit-module-path "$out/FairFuelCore.swiftmodule" -o "$out/libFairFuelCore.a" Sources/FairFuelCore/*.swift
swiftc "${flags[@]}" -I "$out" -emit-module -emit-library -static -module-name FairFuelLink \
  -emit-module-path "$out/FairFuelLink.swiftmodule" -o "$out/libFairFuelLink.a" Sources/FairFuelLink/*.swift
swiftc "${flags[@]}" -I "$out" -L "$out" -lFairFuelLink -lFairFuelCore \
  Fuzz/LinkDecoderFuzzer.swift -o "$out/fuzz-link-decoder"

# Seed corpus: frames of the sample capture, a few lines at a time.
if [ -z "$(ls -A fuzz-out/corpus-decoder)" ]; then
  python3 - <<'PY'
import binascii, os
lines = [l.split()[2] for l in open("samples/drive-20s.ffcap") if l[:1].isdigit()]
for i in range(0, min(len(lines), 4000), 40):
    data = binascii.unhexlify("".join(lines[i:i + 40]))
    open(f"fuzz-out/corpus-decoder/seed-{i:05d}", "wb").write(data)
PY
fi

"$out/fuzz-link-decoder" -max_total_time="$seconds" -max_len=4096 -artifact_prefix=fuzz-out/ \
  -print_final_stats=1 "$@" fuzz-out/corpus-decoder
