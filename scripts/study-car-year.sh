#!/bin/sh
# A car's year, the learning off and on: per month of the car's life, the misallocated share of
# the bills (median, p10, p90 over families with seeds 1...N), the fuel model alone with perfect
# sessions (Studies/CarYearStudyTests.swift, docs/fuel-model.md).
# Usage: scripts/study-car-year.sh [FAMILIES]   (default 10; about 45 s a family in a debug build)
# FAIRFUEL_CAR_YEAR_VARIANTS=1 also prints the learner's settings that were tried.
set -eu
cd "$(dirname "$0")/.."
families="${1:-10}"
case "$families" in
    '' | *[!0-9]*) echo "usage: $0 [FAMILIES]" >&2; exit 2 ;;
esac
swift build --build-tests >/dev/null
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
rc=0
FAIRFUEL_CAR_YEAR_STUDY="$families" swift test --skip-build --filter "FairFuelStudies.CarYearStudyTests" >"$out" 2>&1 || rc=$?
grep -E '^(car year study|seed |[0-9]+ \||month|months|variant)|median is worse' "$out" || cat "$out"
exit "$rc"
