#!/usr/bin/env python3
"""The test tiers of scripts/test.sh, read from the tags of the built tests.

Swift 6.3.1's `swift test` cannot select tests by tag (`--filter tag:replay` matches nothing), so
scripts/test.sh lists the built tests as Swift Testing's event stream (`swift test list
--event-stream-output-path`), whose test records carry their tags, and this turns each tier into
a pattern of test IDs for `--filter` or `--skip`. The tags on the suites (declared once in
Tests/TestSupport/Tags.swift) are the one list of what is slow.

  test-tiers.py pattern LISTING TIER    the regular expression matching the tier's tests (TIER: fast,
                                        replay, integration, study); for fast, the one to --skip
  test-tiers.py summary LISTING         each tier's suites and tests; fails when a tier is empty (a tag
                                        renamed or dropped) or the tiers do not add up to the whole suite
"""
import json
import re
import sys

# A test's tier: the first of these among its tags and its suites' tags; none of them is the unit tier.
TIERS = ["study", "replay", "integration"]
SOURCE_LOCATION = re.compile(r"/[^/]+\.swift:\d+:\d+$")


def records(path, kind):
    """The payloads of an event stream's records of `kind` ("test" or "event")."""
    with open(path, encoding="utf-8") as stream:
        for line in stream:
            line = line.strip()
            if line:
                record = json.loads(line)
                if record.get("kind") == kind:
                    yield record["payload"]


def test_id(payload_id):
    """A test's ID as `--filter` matches it: the function's ID without its source location."""
    return SOURCE_LOCATION.sub("", payload_id)


def ancestors(identifier):
    """The IDs of the suites around a test: Module.Outer, Module.Outer/Inner, ..."""
    parts = identifier.split("/")
    return ["/".join(parts[:count]) for count in range(1, len(parts))]


def load(listing):
    """(functions, suites): each function's ID with its tier, and every suite's ID."""
    tags = {}
    functions = []
    for test in records(listing, "test"):
        identifier = test_id(test["id"])
        tags[identifier] = {tag.lstrip(".") for tag in test.get("_tags", [])}
        if test["kind"] == "function":
            functions.append(identifier)
    tiers = {}
    for function in functions:
        inherited = set(tags[function])
        for suite in ancestors(function):
            inherited |= tags.get(suite, set())
        tiers[function] = next((tier for tier in TIERS if tier in inherited), "fast")
    suites = {suite for function in functions for suite in ancestors(function)}
    return tiers, suites


def covering_ids(tiers, tier):
    """The fewest suite and function IDs that cover exactly the tests of `tier`."""
    chosen = []
    covered = set()
    for function in sorted(tiers):
        if tiers[function] != tier or function in covered:
            continue
        # The outermost suite whose every test is of this tier, else the function itself.
        for suite in ancestors(function):
            inside = [other for other in tiers if other.startswith(suite + "/")]
            if all(tiers[other] == tier for other in inside):
                chosen.append(suite)
                covered.update(inside)
                break
        else:
            chosen.append(function)
            covered.add(function)
    return chosen


def pattern(listing, tier):
    tiers, _ = load(listing)
    # The fast tier is everything else: its pattern is the slow tiers' union, for --skip.
    wanted = TIERS if tier == "fast" else [tier]
    identifiers = [identifier for name in wanted for identifier in covering_ids(tiers, name)]
    if not identifiers:
        return "^$"  # matches no test ID
    return "|".join("^%s(/|$)" % re.escape(identifier) for identifier in identifiers)


def summary(listing):
    tiers, suites = load(listing)
    status = 0
    total = 0
    for tier in ["fast"] + TIERS:
        functions = [function for function in tiers if tiers[function] == tier]
        total += len(functions)
        if tier == "fast":
            print("%-12s %4d tests: every test tagged none of %s" % (tier, len(functions), ", ".join(TIERS)))
        else:
            top = covering_ids(tiers, tier)
            print("%-12s %4d tests in %d suites or tests: %s" % (tier, len(functions), len(top), ", ".join(
                sorted(identifier.split("/")[-1] if "/" in identifier else identifier.split(".", 1)[-1] for identifier in top))))
        if not functions:
            print("test-tiers: the %s tier is empty: has its tag been renamed or dropped?" % tier, file=sys.stderr)
            status = 1
    if total != len(tiers):
        print("test-tiers: the tiers hold %d tests, the suite %d" % (total, len(tiers)), file=sys.stderr)
        status = 1
    print("%-12s %4d tests in %d suites" % ("all", len(tiers), len(suites)))
    return status


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "pattern" and len(sys.argv) == 4:
        print(pattern(sys.argv[2], sys.argv[3]))
    elif command == "summary" and len(sys.argv) == 3:
        sys.exit(summary(sys.argv[2]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
