#!/usr/bin/env python3
"""Could the family's refuels teach FairFuel each driver's own consumption?

Reads the per-refuel lines the real-life month test prints (`refuel N: ... Ana 8.38 L true,
7.91 L est., 8740/8962 cents; ...`) and fits one factor per party to the period's true litres
(better data than a pump gives: the true fuel of every period, full fill or not), by least
squares and by ridge regression toward the car's overall factor. Prints the misallocated share
of the bills with each fit, unfitted, and with each party's true factor known in advance.

    FAIRFUEL_REAL_LIFE_SEED=2026 swift test --skip-build --scratch-path .build-tests -Xswiftc -O \\
        --filter 'realLifeMonth\\(' 2>&1 | scripts/refuel-fit.py

No third-party modules: the systems are a handful of parties wide.
"""
import re
import sys

LINE = re.compile(r"^refuel \d+: (\d+) cents, [\d.]+ L; (.*)$")
PARTY = re.compile(r"(\w+) ([\d.]+) L true, ([\d.]+) L est\., (\d+)/(\d+) cents")


def read(stream):
    bills = []
    for line in stream:
        match = LINE.match(line.strip())
        if not match:
            continue
        parties = {}
        for name, true, estimated, fair, _assigned in PARTY.findall(match.group(2)):
            parties[name] = (float(true), float(estimated), int(fair))
        if len(parties) > 1:  # a bill one party pays alone says nothing about the split
            bills.append((int(match.group(1)), parties))
    return bills


def misallocation(bills, factors):
    wrong = billed = 0.0
    for cost, parties in bills:
        weights = {p: factors.get(p, 1.0) * est for p, (_, est, _) in parties.items()}
        total = sum(weights.values())
        for party, (_, _, fair) in parties.items():
            wrong += abs(cost * weights[party] / total - fair)
        billed += cost
    return wrong / 2 / billed


def solve(matrix, vector):
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for row in range(n):
            if row != col and a[col][col] != 0:
                ratio = a[row][col] / a[col][col]
                a[row] = [x - ratio * y for x, y in zip(a[row], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def ridge(bills, names, strength):
    """Factors f minimising sum_k (sum_p f_p est_pk - true_k)^2 + strength * sum_p (f_p - g)^2."""
    rows = [[parties.get(p, (0, 0, 0))[1] for p in names] for _, parties in bills]
    truths = [sum(t for t, _, _ in parties.values()) for _, parties in bills]
    overall = sum(truths) / sum(sum(r) for r in rows)
    n = len(names)
    normal = [[sum(r[i] * r[j] for r in rows) + (strength if i == j else 0) for j in range(n)] for i in range(n)]
    right = [sum(r[i] * t for r, t in zip(rows, truths)) + strength * overall for i in range(n)]
    return dict(zip(names, solve(normal, right)))


def main():
    bills = read(sys.stdin)
    if not bills:
        sys.exit("no 'refuel N: ...' lines with two or more parties on standard input")
    names = sorted({p for _, parties in bills for p in parties})
    print(f"{len(bills)} bills shared by {', '.join(names)}")
    print(f"unfitted (the model's litres as they are): {misallocation(bills, {}) * 100:.2f} %")
    known = {p: sum(b[1][p][0] for b in bills if p in b[1]) / sum(b[1][p][1] for b in bills if p in b[1]) for p in names}
    print(f"each party's true factor known in advance: {misallocation(bills, known) * 100:.2f} %")
    for strength in (0, 1, 10, 100):
        factors = ridge(bills, names, strength)
        shown = ", ".join(f"{p} {f:.3f}" for p, f in factors.items())
        label = "least squares" if strength == 0 else f"ridge, strength {strength}"
        print(f"{label}: {misallocation(bills, factors) * 100:.2f} % ({shown})")


if __name__ == "__main__":
    main()
