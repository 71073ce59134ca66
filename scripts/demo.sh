#!/usr/bin/env bash
# The README's first command: set up, build the release binary as it ships (Swift runtime
# linked statically), and run `fairfuel demo`: the family-week scenario through the virtual
# MCU and the real service on a pseudo-terminal, then the trips and the cost split.
# Extra arguments go to `fairfuel demo` (e.g. --speed 500, --keep DIR, --scenario FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
swift build -c release --static-swift-stdlib --product fairfuel >&2
exec .build/release/fairfuel demo "$@"
