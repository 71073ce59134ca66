#!/usr/bin/env python3
"""fairfueld's link order at function granularity (issue 16's memory).

The kernel maps code in 64 KiB fault-around windows, so the daemon's resident code is the number of
windows its executed functions fall in. `scripts/memory.sh TOUCHED=1` finds the 4 KiB pages it
executes; ordering every symbol in those pages together keeps the functions that merely share a
page with executed code resident too. Sanitizer coverage (`-sanitize-coverage=func`) says which
functions of our own code ran, one by one; the prebuilt Swift runtime and standard library are not
instrumented, so for them the page-level list stays.

    order-from-coverage.py --binary ASAN_FAIRFUELD --sancov DIR [DIR...] --objects OBJ_DIR... --pages ORDER > fairfueld.order

  --binary   the instrumented fairfueld (unstripped) whose run wrote the .sancov files
  --sancov   the coverage_dir of each run (ASAN_OPTIONS=coverage=1:coverage_dir=DIR), most common first:
             the daemon without an uplink, then with one; what only a later run ran comes after what
             an earlier one ran, so the daemon without an uplink never touches the uplink's code
  --objects  the release build's object directories of our modules (their defined functions are ours)
  --pages    the page-level order (TOUCHED=1 ORDER_OUT=... scripts/memory.sh) for everything else
"""
import argparse
import glob
import os
import struct
import subprocess
import sys
from bisect import bisect_right

MAGIC64 = 0xC0BFFFFFFFFFFF64


def covered_offsets(directory, binary):
    """Module offsets of the covered functions (one PC inside each) from the run's .sancov files."""
    name = os.path.basename(binary)
    offsets = set()
    files = glob.glob(os.path.join(directory, f"{name}.*.sancov"))
    if not files:
        sys.exit(f"no {name}.*.sancov in {directory}")
    for path in files:
        data = open(path, "rb").read()
        (magic,) = struct.unpack_from("<Q", data, 0)
        if magic != MAGIC64:
            sys.exit(f"{path}: not a 64-bit .sancov file")
        offsets.update(struct.unpack_from(f"<{(len(data) - 8) // 8}Q", data, 8))
    return offsets


def function_symbols(binary):
    """(address, size, name) of the binary's functions, by address."""
    out = subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    symbols = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in "tTwW":
            symbols.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
    symbols.sort()
    return symbols


def defined_in_objects(directories):
    names = set()
    for directory in directories:
        for obj in glob.glob(os.path.join(directory, "*.o")):
            out = subprocess.run(["nm", "--defined-only", obj], capture_output=True, text=True).stdout
            for line in out.splitlines():
                fields = line.split()
                if len(fields) == 3 and fields[1] in "tTwW":
                    names.add(fields[2])
    return names


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--sancov", nargs="+", required=True)
    parser.add_argument("--objects", nargs="+", required=True)
    parser.add_argument("--pages", required=True)
    arguments = parser.parse_args()

    symbols = function_symbols(arguments.binary)
    starts = [address for address, _, _ in symbols]
    executed = []
    seen = set()
    for directory in arguments.sancov:
        for offset in sorted(covered_offsets(directory, arguments.binary)):
            index = bisect_right(starts, offset) - 1
            if index < 0:
                continue
            address, size, name = symbols[index]
            if offset < address + max(size, 1) and name not in seen:
                seen.add(name)
                executed.append(name)
    ours = defined_in_objects(arguments.objects)
    ours_executed = [name for name in executed if name in ours]
    page_level = [line.strip() for line in open(arguments.pages) if line.strip() and not line.startswith("#")]
    theirs = [name for name in page_level if name not in ours and name not in seen]
    # Ours in executed pages that coverage did not see: inlined in the instrumented build but maybe
    # not in the release one, or neighbours of executed code. After the hot code, together.
    ours_maybe = [name for name in page_level if name in ours and name not in seen]

    print("# lld --symbol-ordering-file of fairfueld (Package.swift). First the functions of our modules the daemon")
    print("# ran while the family week played (sanitizer coverage, function by function), then the runtime's and")
    print("# standard library's symbols in the 4 KiB pages it executed (TOUCHED=1), which are not instrumented.")
    print("# Regenerate: scripts/daemon-order.sh (it relinks fairfueld: SwiftPM does not track this file).")
    print("# Last, our symbols in those pages that coverage did not see run (inlined where instrumented, or neighbours).")
    print(f"# {len(ours_executed)} of our functions ran; {len(theirs)} runtime and library symbols; {len(ours_maybe)} of ours maybe.")
    for name in ours_executed + theirs + ours_maybe:
        print(name)


if __name__ == "__main__":
    main()
