# shellcheck shell=bash
# What the scripts/study-*.sh share: the studies are tests that stay off unless their environment
# variable is set (tagged .study, outside every tier of scripts/test.sh). Source it; it defines
# functions only.

# study_run FILTER: builds the tests as scripts/test.sh does (optimised, in .build-tests), then runs
# the one test FILTER names with the environment the caller exported, and prints what it prints
# (its figures) with Swift Testing's outcome, without the lines that say a test started.
study_run() {
  local filter=$1 started=$SECONDS status=0
  cd "$(dirname "${BASH_SOURCE[0]}")/../.."
  ./scripts/install-deps.sh
  swift build --build-tests --scratch-path .build-tests -Xswiftc -O
  swift test --skip-build --scratch-path .build-tests -Xswiftc -O --filter "$filter" 2>&1 \
    | grep -vE '^(◇ |Test Suite .* started|Test Case .* started)' || status=${PIPESTATUS[0]}
  echo "study: ran in $((SECONDS - started)) s (wall time, with the build)"
  return "$status"
}

# study_number NAME VALUE: VALUE, or exits with a clear error when it is not a whole number.
study_number() {
  if ! [[ $2 =~ ^[0-9]+$ ]]; then
    echo "$(basename "$0"): $1 must be a whole number, not '$2'" >&2
    exit 2
  fi
  echo "$2"
}
