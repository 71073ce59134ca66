#!/usr/bin/env bash
# The layer rule, checked against Package.swift and every `import` in the sources and tests.
#
#   scripts/check-layers.sh [PACKAGE_DIR]   check a package (default: this one); exit 1 on any violation
#   scripts/check-layers.sh --self-test     check the fixture packages in scripts/testdata/layers/
#
# Fails, one line per finding (file:line: ...), when
#   - a target imports a module it does not declare in Package.swift (its own target and product
#     dependencies; toolchain modules aside),
#   - a lower layer imports (or declares) a higher one (the table below),
#   - Glibc, Darwin or Musl is imported outside the edges, the SQLite wrapper and the tests (the
#     runtime shell and the executables, `fairfuel` and `fairfueld`, reach libc through them),
#   - a product target imports Foundation or a test framework (the product has no Foundation),
#   - a target of the product is missing from the layer table,
#   - the web app (FairFuelWeb) imports what it is kept apart from (it reaches the car's data through
#     the store, reports and configuration only), or the daemon depends on it, even through another target.
# C modules (system-library and C targets) may be imported wherever they are declared.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--self-test" ]; then
  status=0
  # Each fixture's expected.txt is exactly what the script prints for it ('#' lines aside);
  # none printed means a clean exit.
  for fixture in scripts/testdata/layers/*/; do
    fixture=${fixture%/}
    expected=$(grep -v '^#' "$fixture/expected.txt" || true)
    actual=$(scripts/check-layers.sh "$fixture" 2>&1) && code=0 || code=$?
    want_code=0
    [ -n "$expected" ] && want_code=1
    if [ "$actual" != "$expected" ] || [ "$code" != "$want_code" ]; then
      echo "check-layers self-test: $fixture: exit $code (expected $want_code); output differs from its expected.txt:" >&2
      diff <(printf '%s\n' "$expected") <(printf '%s\n' "$actual") >&2 || true
      status=1
    else
      echo "check-layers self-test: $fixture: as expected ($(grep -c ":[0-9]*: " <<<"$expected" || true) finding(s))"
    fi
  done
  exit $status
fi

package=${1:-.}
dump=$(cd "$package" && swift package dump-package) || {
  echo "check-layers: swift package dump-package failed in $package" >&2
  exit 2
}

DUMP="$dump" python3 - "$package" <<'PYTHON'
import json, os, re, sys

package_dir = sys.argv[1]
manifest = json.loads(os.environ["DUMP"])

# Lowest first. A target may import its own layer and the layers below, never one above.
LAYERS = [
    ["FairFuelCore"],
    ["FairFuelLink", "FairFuelParsers"],
    ["FairFuelDomain"],
    ["FairFuelSQLite", "FairFuelStore"],
    ["FairFuelConfiguration"],
    ["FairFuelEdges"],
    ["FairFuelPull", "FairFuelSimulation", "FairFuelReports", "FairFuelServiceCore"],
    ["FairFuelService"],
    ["FairFuelWeb"],
    ["fairfuel", "fairfueld"],
]

# Targets a target must not import although they are below it: the web app reaches the car's data
# through the store, reports and configuration, never the service, its edges or the simulation.
KEPT_APART = {
    "FairFuelWeb": {"FairFuelService", "FairFuelServiceCore", "FairFuelEdges", "FairFuelSimulation", "FairFuelPull"},
}
# Targets an executable must never link, directly or through another target: the daemon's size and
# memory stay as they are without the web app's HTTP server.
NEVER_LINKED = {
    "fairfueld": {"FairFuelWeb"},
}
LAYER_OF = {name: index for index, names in enumerate(LAYERS) for name in names}

# Where the C library may be imported: the edges and the SQLite wrapper (and every test target and
# TestSupport). The runtime shell and the executables call libc through them, never directly.
LIBC = {"Glibc", "Darwin", "Musl"}
LIBC_ALLOWED = {"FairFuelEdges", "FairFuelSQLite"}
# Test-only helpers: regular targets that live with the tests.
TEST_SUPPORT = {"TestSupport"}

# The toolchain's modules: the standard library's anywhere, Foundation and the test frameworks in tests only.
STDLIB_MODULES = {"Swift", "_Concurrency", "_StringProcessing", "Synchronization"}
TEST_ONLY_MODULES = {"Foundation", "FoundationEssentials", "FoundationInternationalization",
                     "FoundationNetworking", "Testing", "XCTest", "Dispatch"}

# The modules a package product brings (a product not listed here brings a module of its name).
PRODUCT_MODULES = {
    "Numerics": ["Numerics", "RealModule", "ComplexModule"],
}


def module_name(name):
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


targets = {target["name"]: target for target in manifest["targets"]}


def declared_modules(target):
    """The modules a target's declared dependencies give it, with the dependency's name."""
    modules = {}
    for dependency in target.get("dependencies", []):
        (kind, value), = dependency.items()
        name = value[0]
        if kind in ("byName", "target") and name in targets:
            modules[module_name(name)] = name
        else:  # a product, named or by name
            for module in PRODUCT_MODULES.get(name, [module_name(name)]):
                modules[module] = name
    return modules


def is_test_side(target):
    return target["type"] == "test" or target["name"] in TEST_SUPPORT


def target_dir(target):
    if target.get("path"):
        return target["path"]
    return os.path.join("Tests" if target["type"] == "test" else "Sources", target["name"])


def swift_files(target):
    root = target_dir(target)
    excluded = [os.path.normpath(os.path.join(root, path)) for path in target.get("exclude", [])]
    found = []
    for directory, subdirectories, files in os.walk(os.path.join(package_dir, root)):
        relative_directory = os.path.relpath(directory, package_dir)
        subdirectories[:] = sorted(d for d in subdirectories
                                   if os.path.normpath(os.path.join(relative_directory, d)) not in excluded)
        for name in sorted(files):
            path = os.path.normpath(os.path.join(relative_directory, name))
            if name.endswith(".swift") and path not in excluded:
                found.append(path)
    return found


IMPORT = re.compile(
    r"^\s*(?:(?:@\w+(?:\([^)]*\))?|public|package|internal|fileprivate|private)\s+)*"
    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)")


def imports(path):
    """(line number, module) of each import, outside comments and multi-line string literals."""
    found = []
    in_block_comment = False
    in_string = False
    with open(os.path.join(package_dir, path), encoding="utf-8", errors="replace") as file:
        for number, line in enumerate(file, 1):
            code = line
            if in_block_comment:
                if "*/" not in code:
                    continue
                code = code.split("*/", 1)[1]
                in_block_comment = False
            if in_string:
                if code.count('"""') % 2 == 1:
                    in_string = False
                continue
            match = IMPORT.match(code)
            if match:
                found.append((number, match.group(1)))
            if code.count('"""') % 2 == 1:
                in_string = True
            stripped = code.split("//", 1)[0]
            if "/*" in stripped and "*/" not in stripped.split("/*", 1)[1]:
                in_block_comment = True
    return found


def manifest_line(name):
    """The line of Package.swift that names target `name`, for findings about its declaration."""
    try:
        with open(os.path.join(package_dir, "Package.swift"), encoding="utf-8") as file:
            for number, line in enumerate(file, 1):
                if re.search(r'name:\s*"%s"' % re.escape(name), line):
                    return number
    except OSError:
        pass
    return 1


# C modules: system-library targets, and targets without Swift sources (C targets).
c_modules = {module_name(t["name"]) for t in manifest["targets"]
             if t["type"] == "system" or (t["type"] == "regular" and not swift_files(t))}
local_modules = {module_name(name): name for name in targets}

findings = []
undeclared = {}  # target -> modules it imports without declaring, for the summary


def target_closure(name):
    """The local targets `name` depends on, directly or through others."""
    seen, stack = set(), [name]
    while stack:
        for dependency in declared_modules(targets[stack.pop()]).values():
            if dependency in targets and dependency not in seen:
                seen.add(dependency)
                stack.append(dependency)
    return seen

for target in manifest["targets"]:
    name = target["name"]
    if target["type"] in ("system", "plugin", "macro") or module_name(name) in c_modules:
        continue
    test_side = is_test_side(target)
    if not test_side and name not in LAYER_OF:
        findings.append("Package.swift:%d: %s is not in the layer table of scripts/check-layers.sh; add it to its layer there"
                        % (manifest_line(name), name))
    declared = declared_modules(target)
    if not test_side and name in LAYER_OF:
        for module, dependency in sorted(declared.items()):
            if dependency in LAYER_OF and LAYER_OF[dependency] > LAYER_OF[name]:
                findings.append("Package.swift:%d: %s declares %s: a lower layer depends on a higher one"
                                % (manifest_line(name), name, dependency))
    for banned in sorted(NEVER_LINKED.get(name, set()) & target_closure(name)):
        findings.append("Package.swift:%d: %s depends on %s: it must never be linked into %s"
                        % (manifest_line(name), name, banned, name))
    for path in swift_files(target):
        for number, module in imports(path):
            where = "%s:%d: %s" % (path, number, name)
            if module in STDLIB_MODULES or module == module_name(name):
                continue
            if module in LIBC:
                if not test_side and name not in LIBC_ALLOWED:
                    findings.append("%s imports %s outside the edges (allowed in %s and the tests)"
                                    % (where, module, ", ".join(sorted(LIBC_ALLOWED, key=str.lower))))
                continue
            if module in TEST_ONLY_MODULES:
                if not test_side:
                    findings.append("%s imports %s, which only tests may use (the product has no Foundation)" % (where, module))
                continue
            if module not in declared:
                findings.append("%s imports %s, which it does not declare" % (where, module))
                undeclared.setdefault(name, set()).add(module)
            imported = local_modules.get(module)
            if imported is None or test_side:
                continue
            if imported in KEPT_APART.get(name, set()):
                findings.append("%s imports %s, which it is kept apart from (the store, reports and configuration only)"
                                % (where, module))
            if imported in TEST_SUPPORT or targets[imported]["type"] == "test":
                findings.append("%s imports %s: product code imports test code" % (where, module))
            elif name in LAYER_OF and imported in LAYER_OF and LAYER_OF[imported] > LAYER_OF[name]:
                findings.append("%s imports %s: a lower layer imports a higher one" % (where, module))

for finding in findings:
    print(finding)
sys.stdout.flush()
if findings:
    for name, modules in undeclared.items():
        print("check-layers: %s imports without declaring: %s" % (name, ", ".join(sorted(modules))), file=sys.stderr)
    print("check-layers: %d violation(s) of the layer rule" % len(findings), file=sys.stderr)
    sys.exit(1)
PYTHON
