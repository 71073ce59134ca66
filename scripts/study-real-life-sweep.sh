#!/usr/bin/env bash
# The real-life sweep: other families' months (seeds 1 to N), each replayed as the real-life month
# test replays its own and held to the same rules; prints a line per month and the medians.
# About 9 s a month after the build: 100 months (the README's figures) take about 17 minutes.
#
#   scripts/study-real-life-sweep.sh [--months N] [--days N]   (defaults: 30 months of 30 days)
set -euo pipefail
source "$(dirname "$0")/lib/study.sh"
# Exported as set (an assignment, not `export`, so that a bad number stops the script).
export FAIRFUEL_REAL_LIFE_SWEEP FAIRFUEL_REAL_LIFE_DAYS
FAIRFUEL_REAL_LIFE_SWEEP=30
while [ $# -gt 0 ]; do
  case $1 in
    --months) FAIRFUEL_REAL_LIFE_SWEEP=$(study_number --months "${2:-}"); shift 2 ;;
    --days) FAIRFUEL_REAL_LIFE_DAYS=$(study_number --days "${2:-}"); shift 2 ;;
    *) echo "usage: $0 [--months N] [--days N]" >&2; exit 2 ;;
  esac
done
study_run 'FairFuelStudies.RealLifeMonthStudies/realLifeSweep\('
