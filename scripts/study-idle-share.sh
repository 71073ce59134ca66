#!/usr/bin/env bash
# The idle-share calibration study: whether full refuels can teach the fuel model a car's idle
# share (a weight fitted after each refuel against the model's own), over the first month and
# months 3 to 6, for the scenarios' car and the five population cars at seeds 2026, 7 and 99.
# About 30 s after the build (docs/studies.md).
#
#   scripts/study-idle-share.sh
set -euo pipefail
source "$(dirname "$0")/lib/study.sh"
if [ $# -gt 0 ]; then
  echo "usage: $0" >&2
  exit 2
fi
export FAIRFUEL_IDLE_SHARE_STUDY=1
study_run 'FairFuelStudies.IdleShareCalibrationStudyTests/study\('
