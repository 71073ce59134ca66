#!/usr/bin/env python3
"""Regenerates the *.zdump golden files: the system's zdump (glibc) reading the fixtures beside this script.

    cd Tests/FairFuelCoreTests/Fixtures/tzif && ./make-golden.py

One line per zdump -v line, at each transition and one second before it, for 1800..1969 and 1970..2039
(the file's table) and 2040..2099 (the footer's TZ rule): UTC seconds since 1970, seconds east of UTC, the
abbreviation, isdst.
"""
import calendar, os, re, subprocess, time

ZONES = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Chatham", "America/Sao_Paulo"]
LINE = re.compile(r"^\S+\s+(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d -?\d+) UT = .* (\S+) isdst=(\d) gmtoff=(-?\d+)$")

for zone in ZONES:
    rows = []
    for years in ("1800,1970", "1970,2040", "2040,2100"):
        output = subprocess.run(["zdump", "-v", "-c", years, os.path.abspath(zone.replace("/", "_") + ".tzif")], check=True, capture_output=True, text=True).stdout
        for line in output.splitlines():
            match = LINE.match(line)
            if not match:
                continue  # the "= NULL" lines at the ends of time
            utc = calendar.timegm(time.strptime(match.group(1), "%a %b %d %H:%M:%S %Y"))
            rows.append(f"{utc} {match.group(4)} {match.group(2)} {match.group(3)}")
    with open(zone.replace("/", "_") + ".zdump", "w") as out:
        out.write(f"# zdump -v -c Y1,Y2 {zone} for 1800,1970 1970,2040 2040,2100 (make-golden.py)\n")
        out.write("# utc_seconds offset_seconds abbreviation isdst\n")
        out.write("\n".join(rows) + "\n")
