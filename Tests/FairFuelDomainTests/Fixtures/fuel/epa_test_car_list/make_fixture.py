#!/usr/bin/env python3
"""Regenerates epa_2022_gasoline_paired.csv from the shared corpus copy of the
US EPA Test Car List, model year 2022 (public data).

Run from the project root:
    python3 Tests/FairFuelDomainTests/Fixtures/fuel/epa_test_car_list/make_fixture.py

Keeps one row per dynamometer test, only the columns the validation needs, only
for vehicles (Test Vehicle ID + configuration) with a gasoline FTP (city), HWFE
(highway) and US06 (aggressive) test. Drops electrified powertrains: any vehicle
whose FTP has a fourth bag (the hybrid test procedure), whose model name says
hybrid/PHEV/MHEV/plug-in, or any test whose fuel economy is the 9999.9999 filler.
"""
import csv
import os
import re
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(os.getcwd(), "..", "shared", "corpus", "fuel", "epa_test_car_list", "22-tstcar.csv")
OUTPUT = os.path.join(HERE, "epa_2022_gasoline_paired.csv")

CATEGORIES = ("FTP", "HWY", "US06")
ELECTRIFIED_NAME = re.compile(
    r"hybrid|phev|hev\b|4xe|prius|ioniq|insight|\d\d\de\b|xdrive45e|niro|energi|plug-in|recharge", re.I)
COLUMNS = [
    ("vehicle", "Test Vehicle ID"),
    ("configuration", "Test Veh Configuration #"),
    ("make", "Represented Test Veh Make"),
    ("model", "Represented Test Veh Model"),
    ("displacement_l", "Test Veh Displacement (L)"),
    ("test_weight_lb", "Equivalent Test Weight (lbs.)"),
    ("coef_a_lbf", "Target Coef A (lbf)"),
    ("coef_b_lbf_per_mph", "Target Coef B (lbf/mph)"),
    ("coef_c_lbf_per_mph2", "Target Coef C (lbf/mph**2)"),
    ("category", "Test Category"),
    ("mpg", "RND_ADJ_FE"),
    ("bag1_mpg", "FE Bag 1"),
    ("bag2_mpg", "FE Bag 2"),
    ("bag3_mpg", "FE Bag 3"),
]


def is_gasoline_test(row):
    fuel = row["Test Fuel Type Description"]
    procedure = row["Test Procedure Description"]
    return ("Gasoline" in fuel and "Cold CO" not in fuel and procedure != "Cold CO"
            and not procedure.startswith("Charge Depleting") and row["Test Category"] in CATEGORIES)


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else SOURCE
    with open(source, encoding="utf-8-sig", newline="") as f:
        rows = [r for r in csv.DictReader(f) if is_gasoline_test(r)]
    vehicles = defaultdict(list)
    for r in rows:
        vehicles[(r["Test Vehicle ID"], r["Test Veh Configuration #"])].append(r)
    kept = []
    for key in sorted(vehicles):
        tests = vehicles[key]
        if {t["Test Category"] for t in tests} != set(CATEGORIES):
            continue
        if any(t["FE Bag 4"] for t in tests if t["Test Category"] == "FTP"):
            continue
        if ELECTRIFIED_NAME.search(tests[0]["Represented Test Veh Model"]):
            continue
        if any(not (0 < float(t["RND_ADJ_FE"]) < 1000) for t in tests):
            continue
        kept.extend(sorted(tests, key=lambda t: (CATEGORIES.index(t["Test Category"]), t["Test Number"])))
    with open(OUTPUT, "w", newline="") as f:
        f.write("# US EPA Test Car List, model year 2022 (public data), via the shared corpus; "
                "trimmed by make_fixture.py: gasoline vehicles with FTP, HWY and US06 tests, electrified ones dropped\n")
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow([name for name, _ in COLUMNS])
        for t in kept:
            # No quoting needed downstream: names lose their commas and inch marks.
            writer.writerow([t[column].strip().replace(",", " ").replace('"', "in") for _, column in COLUMNS])
    print(f"{len({(t['Test Vehicle ID'], t['Test Veh Configuration #']) for t in kept})} vehicles, {len(kept)} tests -> {OUTPUT}")


if __name__ == "__main__":
    main()
