#!/usr/bin/env bash
# The README's first command: set up, build, and run the main job on its embedded default.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
swift build -c release --product fairfuel >&2
exec .build/release/fairfuel decode samples/drive-20s.ffcap "$@"
