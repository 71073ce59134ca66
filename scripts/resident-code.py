#!/usr/bin/env python3
"""Which modules' code and data a running process keeps resident, from its own page tables.

    scripts/resident-code.py PID BINARY     # BINARY: the unstripped executable PID runs
    scripts/resident-code.py --touched FILE BINARY   # FILE: file offsets (hex, one a line) of the
                                            # code pages a run executed (scripts/memory.sh TOUCHED=1)
    scripts/resident-code.py --order FILE BINARY     # the symbols in those pages, in address order:
                                            # an lld --symbol-ordering-file (Sources/fairfueld/fairfueld.order)

For each mapping of the executable, reads which pages are present (/proc/PID/pagemap, bit 63;
needs the same user as PID or root) and splits each present page's 4 KiB between the symbols
that lie in it (`nm -n` of BINARY), by module: the Swift module named in the mangled symbol
(`$s13FairFuelStore...`), the Swift standard library, the Swift runtime (C++), or the section
(`.rela.dyn`, `.eh_frame`, ...) where no symbol covers the bytes. Prints KiB resident per module
beside the module's size in the binary, so the effect of linking fewer modules can be estimated.
Used by scripts/memory.sh; nothing is changed in the process (pages are only looked at).
"""
import bisect
import re
import struct
import subprocess
import sys
from collections import defaultdict

PAGE = 4096


def module_of(symbol):
    """The module a symbol's bytes belong to, from its (mangled) name."""
    if symbol.startswith("$s") or symbol.startswith("_$s"):
        body = symbol[symbol.index("$s") + 2:]
        match = re.match(r"(\d+)", body)
        if match:
            length = int(match.group(1))
            name = body[len(match.group(1)):len(match.group(1)) + length]
            if name == "s":
                return "Swift stdlib"
            return name
        return "Swift stdlib"  # $sS..., $ss...: standard library substitutions
    if symbol.startswith("_swift_stdlib_"):
        return "Swift stdlib Unicode data"
    if symbol.startswith("_ZN5swift") or symbol.startswith("swift_") or symbol.startswith("_swift"):
        return "Swift runtime"
    if symbol.startswith("_Z"):
        return "C++ (runtime, libstdc++ inlines)"
    return "C (shims, crt, other)"


def symbol_order(touched_file, binary):
    """Prints the names of the code symbols that lie in the executed pages, each once, in address order."""
    segments = []
    for line in subprocess.run(["readelf", "-lW", binary], capture_output=True, text=True, check=True).stdout.splitlines():
        fields = line.split()
        if fields and fields[0] == "LOAD":
            segments.append((int(fields[1], 16), int(fields[2], 16), int(fields[4], 16)))
    pages = set()
    with open(touched_file) as lines:
        for line in lines:
            offset = int(line, 16)
            segment = next(s for s in segments if s[0] <= offset < s[0] + s[2])
            pages.add((offset + segment[1] - segment[0]) // PAGE)
    seen = set()
    nm = subprocess.run(["nm", "-n", "-S", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    for line in nm.splitlines():
        fields = line.split(maxsplit=3)
        if len(fields) == 4 and fields[2] in "tTwW" and fields[3] not in seen:
            start = int(fields[0], 16)
            end = start + max(int(fields[1], 16), 1)
            if any(page in pages for page in range(start // PAGE, (end - 1) // PAGE + 1)):
                seen.add(fields[3])
                print(fields[3])


def main():
    if sys.argv[1] == "--order":
        symbol_order(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1] == "--touched":
        pid, touched_file, binary = sys.argv[1], sys.argv[2], sys.argv[3]
    else:
        pid, touched_file, binary = sys.argv[1], None, sys.argv[2]
    # ELF layout: the LOAD segments (offset -> vaddr) and the sections (for bytes without symbols).
    segments = []
    for line in subprocess.run(["readelf", "-lW", binary], capture_output=True, text=True, check=True).stdout.splitlines():
        fields = line.split()
        if fields and fields[0] == "LOAD":
            segments.append((int(fields[1], 16), int(fields[2], 16), int(fields[4], 16)))
    sections = []
    for line in subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout.splitlines():
        match = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if match and int(match.group(2), 16) > 0:
            sections.append((int(match.group(2), 16), int(match.group(2), 16) + int(match.group(3), 16), match.group(1)))
    sections.sort()
    section_starts = [s[0] for s in sections]

    def section_of(address):
        index = bisect.bisect_right(section_starts, address) - 1
        if index >= 0 and sections[index][0] <= address < sections[index][1]:
            return sections[index][2]
        return "(padding)"

    symbols = []
    nm = subprocess.run(["nm", "-n", "-S", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    for line in nm.splitlines():
        fields = line.split(maxsplit=3)
        if len(fields) == 4:
            start, size = int(fields[0], 16), int(fields[1], 16)
            if size > 0:
                symbols.append((start, start + size, module_of(fields[3])))
    symbols.sort()
    starts = [s[0] for s in symbols]

    # Size of each module in the binary (symbol bytes), for scale.
    in_binary = defaultdict(int)
    for start, end, module in symbols:
        in_binary[module] += end - start

    resident = defaultdict(int)

    def count_page(perms, page):
        """Splits the 4 KiB at ELF address `page` between the symbols (or the section) there."""
        covered = 0
        i = max(0, bisect.bisect_right(starts, page) - 1)
        while i < len(symbols) and symbols[i][0] < page + PAGE:
            start, end, module = symbols[i]
            overlap = min(end, page + PAGE) - max(start, page)
            if overlap > 0:
                resident[(perms, module)] += overlap
                covered += overlap
            i += 1
        if covered < PAGE:
            resident[(perms, section_of(page) if covered == 0 else "(between symbols)")] += PAGE - covered

    def delta_of(offset):
        segment = next((s for s in segments if s[0] <= offset < s[0] + max(s[2], 1)), None)
        return (segment[1] - segment[0]) if segment else 0

    if pid == "--touched":
        with open(touched_file) as pages:
            for line in pages:
                offset = int(line, 16)
                count_page("r-xp", offset + delta_of(offset))
        report(resident, in_binary, binary, "executed code pages")
        return
    mappings = []
    with open(f"/proc/{pid}/maps") as maps:
        for line in maps:
            fields = line.split()
            if len(fields) >= 6 and fields[5] == subprocess.os.path.realpath(f"/proc/{pid}/exe"):
                low, high = (int(x, 16) for x in fields[0].split("-"))
                mappings.append((low, high, int(fields[2], 16), fields[1]))
    with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        for low, high, offset, perms in mappings:
            delta = delta_of(offset)
            pagemap.seek(low // PAGE * 8)
            entries = pagemap.read((high - low) // PAGE * 8)
            for index in range((high - low) // PAGE):
                (entry,) = struct.unpack_from("<Q", entries, index * 8)
                if entry >> 63 & 1:
                    count_page(perms, offset + index * PAGE + delta)  # the page's address in the ELF layout
    report(resident, in_binary, binary, "resident pages")


def report(resident, in_binary, binary, what):
    by_perms = defaultdict(int)
    for (perms, _), count in resident.items():
        by_perms[perms] += count
    print(f"  {what} of {binary} by mapping: " + ", ".join(f"{p} {c // 1024} KiB" for p, c in sorted(by_perms.items())))
    print(f"  {'KiB res.':>8} {'KiB in binary':>13}  perm  module (or section)")
    for (perms, module), count in sorted(resident.items(), key=lambda item: -item[1]):
        if count >= 8 * 1024:
            size = f"{in_binary[module] // 1024:>13}" if module in in_binary else f"{'':>13}"
            print(f"  {count // 1024:>8} {size}  {perms}  {module}")


if __name__ == "__main__":
    main()
