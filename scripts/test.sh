#!/usr/bin/env bash
# The README's second command: set up, build, and run the whole test suite, or one tier of it.
#
#   scripts/test.sh [ARGS...]                the whole suite (CI runs this, through .ci/run)
#   scripts/test.sh --fast [ARGS...]         the unit tier: every test tagged none of .replay,
#                                            .integration, .study (about 50 s of CPU time after a build)
#   scripts/test.sh --replay [ARGS...]       the tests tagged .replay (weeks, months, soaks)
#   scripts/test.sh --integration [ARGS...]  the tests tagged .integration (processes, brokers, mounts)
#   scripts/test.sh --tiers                  each tier's tests and suites, without running them
# ARGS go to `swift test`: `--skip NAME` leaves tests out of any tier, and `--fast --filter NAME` runs
# NAME's unit tests (several --filter patterns add up: with --replay or --integration one widens the tier).
#
# The tests are built optimised (-O, checks kept: preconditions, overflow and exclusivity
# traps stay on; `@testable` still works, SwiftPM's debug configuration enables testing) in
# their own build directory, so that a developer's debug build is left alone. The suite
# replays weeks and months of MCU traffic (the family week through the service core alone,
# the real-life month): unoptimised, that code runs five to ten times slower.
#
# The tiers are the tests' Swift Testing tags (Tests/TestSupport/Tags.swift), the one list of what
# is slow. Swift 6.3.1's `swift test` cannot filter by tag, so the script lists the built tests
# with their tags and hands `swift test` the tier as a pattern of test IDs (scripts/lib/test-tiers.py).
# A tier fails when one of its tags selects nothing (a tag renamed or dropped), and a test that
# starts a helper process or mounts a tmpfs without the .integration tag fails wherever it runs
# (`TestTier.require`, called by TestSupport's `ChildProcess` and `SmallFileSystem`).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh

build_flags=(--scratch-path .build-tests -Xswiftc -O)
tier=""
case "${1:-}" in
  --fast) tier=fast ;;
  --replay) tier=replay ;;
  --integration) tier=integration ;;
  --tiers) tier=list ;;
esac
if [ -z "$tier" ]; then
  swift test "${build_flags[@]}" "$@"
  # The whole suite also drives the web app in a real browser and against its OpenAPI document,
  # with the fairfuel just built (scripts/test-web.sh; a filtered run leaves it out).
  if [ $# -eq 0 ]; then
    FAIRFUEL="$PWD/.build-tests/debug/fairfuel" exec ./scripts/test-web.sh
  fi
  exit 0
fi
shift

swift build --build-tests "${build_flags[@]}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift test list --skip-build "${build_flags[@]}" \
  --event-stream-output-path "$work/listing.jsonl" --event-stream-version 0 >/dev/null
tiers() { python3 scripts/lib/test-tiers.py "$@"; }

tiers summary "$work/listing.jsonl"
[ "$tier" = list ] && exit 0
if [ "$tier" = fast ]; then
  selection=(--skip "$(tiers pattern "$work/listing.jsonl" fast)")
else
  selection=(--filter "$(tiers pattern "$work/listing.jsonl" "$tier")")
fi

# The wall time is the figure the tier is held to (the unit tier: under 2 minutes after a build on
# 2 cores); the CPU time says how much of it was this run's own work on a shared machine.
TIMEFORMAT="test.sh: the $tier tier took %0R s (wall time, after the build), %0U s user and %0S s system CPU time"
status=0
time swift test --skip-build "${build_flags[@]}" "${selection[@]}" "$@" || status=$?
exit $status
