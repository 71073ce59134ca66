#!/usr/bin/env bash
# The layer rule, checked against Package.swift and every `import` in the sources and tests.
#
#   scripts/check-layers.sh [PACKAGE_DIR]   check a package (default: this one); exit 1 on any violation
#   scripts/check-layers.sh --self-test     check the fixture packages in scripts/testdata/layers/
#
# The rule is the house table ("Layers you can see" in HOUSE-STYLE.md) as this project names its
# targets: MAY_USE below, one line per target, lists every module a target may import (local
# targets, C modules and package products; the standard library goes without saying). To add a
# target, add its line to MAY_USE (and to NEVER_REACHES if it must never reach some targets, or to
# DAEMON_NEVER if the daemon must not link it), then a target in scripts/testdata/layers/may-use that
# breaks the new line once (the self-test asks for it).
#
# Fails, one line per finding (file:line: ...), when
#   - a target imports or declares a module outside its "may use" set (EXCEPTIONS aside),
#   - a sans-I/O target reaches the store, SQLite or the edges, or the daemon reaches what is
#     around it (reports, pull, simulation), through any chain of declared dependencies (NEVER_REACHES),
#   - a target imports a module it does not declare in Package.swift (its own target and product
#     dependencies; toolchain modules aside),
#   - Glibc, Darwin or Musl is imported outside the edges, the SQLite wrapper and the tests (the
#     runtime shell and the executables, `fairfuel` and `fairfueld`, reach libc through them),
#   - a product target imports Foundation or a test framework (the product has no Foundation),
#   - product code imports test code,
#   - a target of the product is missing from MAY_USE,
#   - an entry of EXCEPTIONS is no longer needed (the import it excuses is gone: remove the entry).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--self-test" ]; then
  status=0
  # Each fixture's expected.txt is exactly what the script prints for it ('#' lines aside);
  # none printed means a clean exit.
  for fixture in scripts/testdata/layers/*/; do
    fixture=${fixture%/}
    expected=$(grep -v '^#' "$fixture/expected.txt" || true)
    # A fixture checks the table alone, with its own exceptions (exceptions.txt: "target module why"
    # a line) instead of this package's, so that mending this package's code leaves the fixtures alone.
    exceptions=""
    [ -f "$fixture/exceptions.txt" ] && exceptions=$(grep -v '^#' "$fixture/exceptions.txt" || true)
    actual=$(LAYER_EXCEPTIONS="$exceptions" LAYER_EXCEPTIONS_FILE="$fixture/exceptions.txt" \
      scripts/check-layers.sh "$fixture" 2>&1) && code=0 || code=$?
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
  # Every rule of the table has its case in the may-use fixture: a new target's line comes with one.
  while read -r rule target; do
    case $rule in
      may-use) pattern=": $target (declares|imports) .*, which it may not use" ;;
      never-reaches) pattern=": $target reaches " ;;
    esac
    if ! grep -qE "$pattern" scripts/testdata/layers/may-use/expected.txt; then
      echo "check-layers self-test: the $rule rule of $target has no case in scripts/testdata/layers/may-use; add one" >&2
      status=1
    fi
  done < <(scripts/check-layers.sh --list-rules)
  [ $status = 0 ] && echo "check-layers self-test: every rule of MAY_USE and NEVER_REACHES has its case in scripts/testdata/layers/may-use"
  exit $status
fi

if [ "${1:-}" = "--list-rules" ]; then
  # The table's rules, one "may-use TARGET" or "never-reaches TARGET" a line, for the self-test.
  package=.
  dump='{"targets": []}'
  export LAYER_LIST_RULES=1
else
  package=${1:-.}
  dump=$(cd "$package" && swift package dump-package) || {
    echo "check-layers: swift package dump-package failed in $package" >&2
    exit 2
  }
fi

DUMP="$dump" python3 - "$package" "$0" <<'PYTHON'
import json, os, re, sys

package_dir = sys.argv[1]
script_path = sys.argv[2]
manifest = json.loads(os.environ["DUMP"])

# The house table as this package names its targets: every module each target may import, one line
# per target. Bottom up: core types, link and parsers, domain, the SQLite wrapper and the store,
# configuration, the service core, the edges, the runtime shell and the daemon; then what is around
# them (reports, pull, simulation, the CLI), which may use whatever they need but the daemon never links.
CORE, LINK, PARSERS, DOMAIN = "FairFuelCore", "FairFuelLink", "FairFuelParsers", "FairFuelDomain"
SQLITE, STORE, CONFIGURATION = "FairFuelSQLite", "FairFuelStore", "FairFuelConfiguration"
SERVICE_CORE, EDGES, SERVICE = "FairFuelServiceCore", "FairFuelEdges", "FairFuelService"
REPORTS, PULL, SIMULATION = "FairFuelReports", "FairFuelPull", "FairFuelSimulation"
SIMULATION_RUNNER = "FairFuelSimulationRunner"
WEB = "FairFuelWeb"
HUB_POSTGRES = "FairFuelHubPostgres"
MATH = "RealModule"  # swift-numerics: math without the C library
MAY_USE = {
    CORE: [],
    LINK: [CORE],
    PARSERS: [CORE, MATH],
    DOMAIN: [CORE, PARSERS, MATH],  # the parsers' value types (fixes, tags)
    SQLITE: ["CSQLite"],
    STORE: [CORE, PARSERS, DOMAIN, SQLITE, MATH],  # domain values, which hold the parsers' value types
    CONFIGURATION: [CORE],
    SERVICE_CORE: [CORE, LINK, PARSERS, DOMAIN, CONFIGURATION],  # sans-I/O: no store, no edges
    EDGES: [CORE, LINK, "CSerialPort", "CGPS", "CPosixShims", "CMosquitto"],
    SERVICE: [CORE, LINK, PARSERS, DOMAIN, CONFIGURATION, SERVICE_CORE, STORE, EDGES],
    "fairfueld": [CORE, CONFIGURATION, SERVICE],
    REPORTS: [CORE, PARSERS, DOMAIN, STORE],
    PULL: [CORE, LINK, PARSERS, DOMAIN, STORE, EDGES, REPORTS],
    SIMULATION: [CORE, LINK, PARSERS, DOMAIN, MATH],  # sans-I/O, so that unit test targets link no C edges
    SIMULATION_RUNNER: [CORE, LINK, SIMULATION, EDGES],  # the virtual MCU's pseudo-terminal and files
    # The family's web app reaches the car's data through the store, reports and configuration; the hub's through pull's family books.
    WEB: [CORE, PARSERS, DOMAIN, STORE, CONFIGURATION, REPORTS, PULL, MATH, "Hummingbird", "HummingbirdAuth",
          "HummingbirdBcrypt", "HummingbirdCore", "HummingbirdTLS", "NIOSSL", "NIOCore", "NIOPosix", "Logging", "ServiceLifecycle"],
    # The hub's record store on PostgreSQL: the store's protocol over postgres-nio, for the CLI's hub alone.
    HUB_POSTGRES: [STORE, "PostgresNIO", "NIOCore", "NIOPosix", "Logging"],
    "fairfuel": [CORE, LINK, PARSERS, DOMAIN, STORE, CONFIGURATION, EDGES, SERVICE, REPORTS, PULL, SIMULATION, SIMULATION_RUNNER, WEB,
                 HUB_POSTGRES, "ArgumentParser"],
}

# What a target must not reach through any chain of declared dependencies, whatever its own line
# allows: parsers, domain and the service core are driven with plain values (no store, no edges), and
# the daemon links nothing of what is around it.
SANS_IO_NEVER = [SQLITE, STORE, EDGES]
DAEMON_NEVER = [REPORTS, PULL, SIMULATION, SIMULATION_RUNNER, WEB, HUB_POSTGRES]
NEVER_REACHES = {
    PARSERS: SANS_IO_NEVER,
    SIMULATION: SANS_IO_NEVER,
    DOMAIN: SANS_IO_NEVER,
    SERVICE_CORE: SANS_IO_NEVER,
    SERVICE: DAEMON_NEVER,
    "fairfueld": DAEMON_NEVER,
}

# Where today's code breaks its line of MAY_USE, each with why and what removes it. Every entry is to
# go: when the import it excuses is gone, the check fails until the entry is removed too.
EXCEPTIONS = {
    (CONFIGURATION, LINK): "MCU board profiles are checked against the link's HELLO; to go when the check moves to the service core",
    (CONFIGURATION, PARSERS): "board profiles and tag identities parse into the parsers' value types; to go with them",
    (EDGES, PARSERS): "the gpsd client hands out the parsers' fix fields; to go when they are core values",
}
# The self-test gives each fixture its own exceptions ("target module why" a line) in place of these.
EXCEPTIONS_FILE = script_path
if "LAYER_EXCEPTIONS" in os.environ:
    EXCEPTIONS = {tuple(line.split()[:2]): " ".join(line.split()[2:])
                  for line in os.environ["LAYER_EXCEPTIONS"].splitlines() if len(line.split()) >= 2}
    EXCEPTIONS_FILE = os.environ.get("LAYER_EXCEPTIONS_FILE", "exceptions.txt")

if os.environ.get("LAYER_LIST_RULES"):
    for name in MAY_USE:
        print("may-use", name)
    for name in NEVER_REACHES:
        print("never-reaches", name)
    sys.exit(0)

# Where the C library may be imported: the edges and the SQLite wrapper (and every test target and
# TestSupport). The runtime shell and the executables call libc through them, never directly.
LIBC = {"Glibc", "Darwin", "Musl"}
LIBC_ALLOWED = {"FairFuelEdges", "FairFuelSQLite"}
# Test-only helpers: regular targets that live with the tests.
TEST_SUPPORT = {"TestSupport", "ReplaySupport"}

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
exceptions_used = set()


def may_use(name, module):
    """Whether the table lets target `name` use `module` (a module or a declared product), noting the exception used."""
    if module in MAY_USE.get(name, []):
        return True
    if (name, module) in EXCEPTIONS:
        exceptions_used.add((name, module))
        return True
    return False


def allowed_text(name):
    return ", ".join(MAY_USE[name]) or "the standard library alone"


def local_dependencies(name):
    """The local targets `name` declares."""
    return [dependency for dependency in declared_modules(targets[name]).values() if dependency in targets]


def reaching_path(start, forbidden):
    """The chain of declared dependencies from `start` to a target in `forbidden` (shortest first), or None."""
    paths = [[start]]
    seen = {start}
    while paths:
        path = paths.pop(0)
        for dependency in sorted(local_dependencies(path[-1])):
            if dependency in seen:
                continue
            if dependency in forbidden:
                return path + [dependency]
            seen.add(dependency)
            paths.append(path + [dependency])
    return None


for target in manifest["targets"]:
    name = target["name"]
    if target["type"] in ("system", "plugin", "macro") or module_name(name) in c_modules:
        continue
    test_side = is_test_side(target)
    if not test_side and name not in MAY_USE:
        findings.append("Package.swift:%d: %s is not in the layer table of scripts/check-layers.sh; add its line to MAY_USE there"
                        % (manifest_line(name), name))
    declared = declared_modules(target)
    ruled = not test_side and name in MAY_USE
    if ruled:
        for dependency in sorted(set(declared.values())):
            modules = [module for module, by in declared.items() if by == dependency]
            if not any(may_use(name, module) for module in modules) and not may_use(name, dependency):
                findings.append("Package.swift:%d: %s declares %s, which it may not use (may use: %s)"
                                % (manifest_line(name), name, dependency, allowed_text(name)))
        if name in NEVER_REACHES:
            path = reaching_path(name, set(NEVER_REACHES[name]))
            if path:
                findings.append("Package.swift:%d: %s reaches %s (%s), which it must never reach"
                                % (manifest_line(name), name, path[-1], " -> ".join(path)))
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
            if test_side:
                continue
            if imported is not None and (imported in TEST_SUPPORT or targets[imported]["type"] == "test"):
                findings.append("%s imports %s: product code imports test code" % (where, module))
            elif ruled and not may_use(name, imported or module):
                findings.append("%s imports %s, which it may not use (may use: %s)" % (where, module, allowed_text(name)))


def exception_line(name, module):
    """The line of the exceptions' file that lists (name, module), for the finding that it is no longer needed."""
    def spellings(value):  # as written in the table: the name, quoted or not, or its constant
        return {value, '"%s"' % value} | {constant for constant, bound in globals().items()
                                         if constant.isupper() and bound == value}
    try:
        with open(EXCEPTIONS_FILE, encoding="utf-8") as file:
            for number, line in enumerate(file, 1):
                words = set(re.findall(r'"?[A-Za-z_][A-Za-z0-9_]*"?', line.split(":", 1)[0]))
                if words & spellings(name) and words & spellings(module):
                    return number
    except OSError:
        pass
    return 1


for name, module in sorted(EXCEPTIONS):
    if name in targets and (name, module) not in exceptions_used:
        findings.append("%s:%d: the exception %s -> %s is no longer needed (nothing uses it); remove it"
                        % (os.path.relpath(EXCEPTIONS_FILE), exception_line(name, module), name, module))

for finding in findings:
    print(finding)
sys.stdout.flush()
if findings:
    for name, modules in undeclared.items():
        print("check-layers: %s imports without declaring: %s" % (name, ", ".join(sorted(modules))), file=sys.stderr)
    print("check-layers: %d violation(s) of the layer rule" % len(findings), file=sys.stderr)
    sys.exit(1)
PYTHON
