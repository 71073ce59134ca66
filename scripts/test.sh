#!/usr/bin/env bash
# The README's second command: set up, build, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
exec swift test "$@"
