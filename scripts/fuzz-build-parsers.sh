#!/usr/bin/env bash
# Builds the static libraries the parser fuzzers link, with libFuzzer's coverage and
# AddressSanitizer: FairFuelCore, RealModule (swift-numerics, from the package's checkout)
# and FairFuelParsers, into the directory given. Sourced by scripts/fuzz-nmea.sh and
# scripts/fuzz-lexer.sh, which set `flags` and then link their target with
#   -I "$out" -I "$numerics_shims" -L "$out" -lFairFuelParsers -lRealModule -lFairFuelCore
set -euo pipefail
out="$1"
swift package resolve >/dev/null
numerics=.build/checkouts/swift-numerics/Sources
numerics_shims="$numerics/_NumericsShims/include"
swiftc "${flags[@]}" -emit-module -emit-library -static -module-name FairFuelCore \
  -emit-module-path "$out/FairFuelCore.swiftmodule" -o "$out/libFairFuelCore.a" Sources/FairFuelCore/*.swift Sources/FairFuelCore/Time/*.swift
swiftc "${flags[@]}" -I "$numerics_shims" -emit-module -emit-library -static -module-name RealModule \
  -emit-module-path "$out/RealModule.swiftmodule" -o "$out/libRealModule.a" "$numerics"/RealModule/*.swift
swiftc "${flags[@]}" -I "$out" -I "$numerics_shims" -emit-module -emit-library -static -module-name FairFuelParsers \
  -emit-module-path "$out/FairFuelParsers.swiftmodule" -o "$out/libFairFuelParsers.a" \
  Sources/FairFuelParsers/NMEA/*.swift Sources/FairFuelParsers/Lexer/*.swift Sources/FairFuelParsers/UBX/*.swift \
  Sources/FairFuelParsers/CASIC/*.swift
