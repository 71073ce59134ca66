#!/usr/bin/env bash
# The family's web app end to end: a real browser (Debian's headless chromium through chromium-driver)
# and Schemathesis against the app's own OpenAPI document, over a store made by `fairfuel demo`.
#
#   scripts/test-web.sh                      with the debug build's fairfuel (swift build first)
#   FAIRFUEL=PATH scripts/test-web.sh        with another build (scripts/test.sh passes its own)
#
# Screenshots of every page at a phone's and a desktop's size go to $WEB_SCREENSHOTS (default
# .build-web/screenshots). The browser tests skip, saying so, only when chromium cannot start.
set -euo pipefail
cd "$(dirname "$0")/.."
export FAIRFUEL=${FAIRFUEL:-$PWD/.build/debug/fairfuel}
export WEB_SCREENSHOTS=${WEB_SCREENSHOTS:-$PWD/.build-web/screenshots}
if ! python3 -c 'import selenium, schemathesis, pytest' 2>/dev/null; then
  pip install -q selenium schemathesis pytest >&2
fi
exec python3 -m pytest -q -p no:cacheprovider scripts/web/test_web.py "$@"
