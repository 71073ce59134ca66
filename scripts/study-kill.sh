#!/usr/bin/env bash
# The kill study: a restarts-only month (one service kill in every trip) replayed whole and cut at
# the kills; prints the km left untracked and given to a wrong driver per 100 kills.
# About 1.5 minutes for the default 40 days after the build (docs/studies.md).
#
#   scripts/study-kill.sh [--days N]   (default: 40 days, about 100 kills)
set -euo pipefail
source "$(dirname "$0")/lib/study.sh"
# Exported as set (an assignment, not `export`, so that a bad number stops the script).
export FAIRFUEL_KILL_STUDY_DAYS
while [ $# -gt 0 ]; do
  case $1 in
    --days) FAIRFUEL_KILL_STUDY_DAYS=$(study_number --days "${2:-}"); shift 2 ;;
    *) echo "usage: $0 [--days N]" >&2; exit 2 ;;
  esac
done
export FAIRFUEL_KILL_STUDY=1
study_run 'FairFuelStudies.RealLifeMonthStudies/killStudy\('
