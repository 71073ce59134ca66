#!/usr/bin/env bash
# Prints the module table in docs/architecture.md from Package.swift as it is: each product target, bottom
# layer first, with what it depends on. CI compares it with the README (scripts/check-layers.sh),
# so the architecture section cannot drift from the package.
#
#   scripts/architecture.sh            the table
#   scripts/architecture.sh --check    exit 1 when the README's table differs
set -euo pipefail
cd "$(dirname "$0")/.."
table=$(swift package dump-package 2>/dev/null | python3 -c '
import json, sys
package = json.load(sys.stdin)
print("| module | depends on |")
print("| --- | --- |")
for target in package["targets"]:
    if target["type"] in ("test", "system") or target["name"] in ("TestSupport", "ReplaySupport", "CPosixShims"):
        continue
    names = []
    for dependency in target["dependencies"]:
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.append(dependency[kind][0])
    print("| `%s` | %s |" % (target["name"], ", ".join(names) if names else "the standard library"))
')
if [ "${1:-}" = "--check" ]; then
  readme=$(sed -n '/<!-- architecture:begin -->/,/<!-- architecture:end -->/p' docs/architecture.md | sed '1d;$d')
  if [ "$table" != "$readme" ]; then
    echo "architecture: the module table in docs/architecture.md differs from Package.swift; paste scripts/architecture.sh's output between its markers:" >&2
    diff <(printf '%s\n' "$readme") <(printf '%s\n' "$table") >&2 || true
    exit 1
  fi
  echo "architecture: the module table in docs/architecture.md matches Package.swift"
else
  printf '%s\n' "$table"
fi
