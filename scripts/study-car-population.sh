#!/usr/bin/env bash
# The car population study: the real-life month replayed with each true car of
# `TruthCarPopulation` (and the scenarios' own), FairFuel on its default vehicle profile and again
# told the car's mass and engine size; prints the misallocated share of the bills per car.
# 3 to 5 minutes after the build (docs/studies.md).
#
#   scripts/study-car-population.sh [--days N] [--seed N]   (defaults: 30 days, seed 2026)
set -euo pipefail
source "$(dirname "$0")/lib/study.sh"
# Exported as set (an assignment, not `export`, so that a bad number stops the script).
export FAIRFUEL_REAL_LIFE_DAYS FAIRFUEL_CAR_STUDY_SEED
while [ $# -gt 0 ]; do
  case $1 in
    --days) FAIRFUEL_REAL_LIFE_DAYS=$(study_number --days "${2:-}"); shift 2 ;;
    --seed) FAIRFUEL_CAR_STUDY_SEED=$(study_number --seed "${2:-}"); shift 2 ;;
    *) echo "usage: $0 [--days N] [--seed N]" >&2; exit 2 ;;
  esac
done
export FAIRFUEL_CAR_STUDY=1
study_run 'FairFuelStudies.RealLifeMonthStudies/carPopulationStudy\('
