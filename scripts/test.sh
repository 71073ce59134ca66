#!/usr/bin/env bash
# The README's second command: set up, build, and run the whole test suite.
#
# The tests are built optimised (-O, checks kept: preconditions, overflow and exclusivity
# traps stay on; `@testable` still works, SwiftPM's debug configuration enables testing) in
# their own build directory, so that a developer's debug build is left alone. The suite
# replays weeks and months of MCU traffic (the family week through the service core alone,
# the real-life month): unoptimised, that code runs five to ten times slower.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
swift test --scratch-path .build-tests -Xswiftc -O "$@"
# The whole suite also drives the web app in a real browser and against its OpenAPI document,
# with the fairfuel just built (scripts/test-web.sh; a filtered run leaves it out).
if [ $# -eq 0 ]; then
  FAIRFUEL="$PWD/.build-tests/debug/fairfuel" ./scripts/test-web.sh
fi
