#!/usr/bin/env bash
# Our NMEA parser against minmea on the same sentences, in the same run.
#   scripts/bench-nmea-vs-minmea.sh [ROUNDS]          (default 5)
#   scripts/bench-nmea-vs-minmea.sh --smoke           (one round, 10 minmea passes: does it all still run)
#   MINMEA_DIR=/path/holding/minmea.c+minmea.h scripts/bench-nmea-vs-minmea.sh
# Not part of CI or the test suite: nothing there needs minmea or the network.
#
# minmea (kosma/minmea, WTFPL/MIT/LGPL) never enters this repository: without
# MINMEA_DIR its minmea.c and minmea.h are downloaded at the pinned commit into
# a temporary directory and checked against the pinned sha256; with MINMEA_DIR
# they are used as found (the script says whether they are the pinned ones).
# scripts/bench/minmea-driver.c is ours and only includes minmea.h.
#
# Both sides parse the sentences of the gpsd logs (the open corpus,
# Tests/FairFuelParsersTests/Fixtures/nmea/gpsd, a byte-for-byte copy of
# ../shared/corpus/nmea/gpsd's *.log), loaded into memory once, every sentence
# to a typed result with its checksum checked: minmea_sentence_id (strict) and
# minmea_parse_*, 200 timed passes per round; ours is the NMEAParsing
# benchmark "Parse sentences" (NMEADecoder.decode, malloc-counted by
# ordo-one/benchmark, up to 200 timed iterations), beside the lexer over the
# same logs as a byte stream. The rounds alternate which side runs first, because
# the machine is shared. The headline is the fastest pass of each side per
# round, the ratio taken within each round and the median over rounds: on a
# loaded machine a pass is slowed by whole time slices given to others (minmea's
# passes here clustered at 1/1, 1/2, 1/3, 1/4 of its best rate), and the
# longer passes are hit more often, so the medians, printed too, swing with
# the load (4.2x at load 12, 2.1x at load 7 in two runs here).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "${1:-}" = "--smoke" ]; then
  rounds=1
  passes="${MINMEA_PASSES:-10}"
else
  rounds="${1:-5}"
  passes="${MINMEA_PASSES:-200}"
fi
scratch="${BENCH_SCRATCH_PATH:-.build-store}"
corpus="$root/Tests/FairFuelParsersTests/Fixtures/nmea/gpsd"

# kosma/minmea at this commit (an older minmea: 80-character sentences, no GBS); the hashes
# are of its minmea.c and minmea.h as read from a stored copy of the repository.
minmea_commit=062714d80c33ff913d12a38a9756fb0414c08fb6
minmea_c_sha256=e502a727c5a22be63c6c17917dc4c999a563b19e2637fd2cd7e9e88a64b77d52
minmea_h_sha256=e875d73395d16ca9340db32907c981c7410c7b10a582b408e03af4380fa03d36

# minmea's code stays out of the repository: no tracked file of its name, none with its scanner.
if git -C "$root" ls-files | grep -qE '(^|/)minmea\.[ch]$' ||
  git -C "$root" grep -qI -e 'minmea_scan(' -e 'minmea_isfield(' -- ':!scripts/bench-nmea-vs-minmea.sh'; then
  echo "minmea's code is in the repository; remove it (take patterns, never their code)" >&2
  exit 1
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/nmea-vs-minmea.XXXXXX")"
trap 'rm -rf "$work"' EXIT

if [ -z "${MINMEA_DIR:-}" ]; then
  MINMEA_DIR="$work/minmea"
  mkdir -p "$MINMEA_DIR"
  for file in minmea.c minmea.h; do
    curl -fsSL --retry 3 -o "$MINMEA_DIR/$file" \
      "https://raw.githubusercontent.com/kosma/minmea/$minmea_commit/$file"
  done
  (cd "$MINMEA_DIR" && sha256sum -c --quiet <(printf '%s  minmea.c\n%s  minmea.h\n' \
    "$minmea_c_sha256" "$minmea_h_sha256")) || { echo "minmea download does not match the pinned sha256" >&2; exit 1; }
  minmea_version="kosma/minmea@$minmea_commit (downloaded, sha256 checked)"
else
  MINMEA_DIR="$(cd "$MINMEA_DIR" && pwd)"
  case "$MINMEA_DIR/" in
    "$root"/*) echo "MINMEA_DIR is inside the repository: keep minmea's code outside it" >&2; exit 1 ;;
  esac
  for file in minmea.c minmea.h; do
    [ -f "$MINMEA_DIR/$file" ] || { echo "MINMEA_DIR=$MINMEA_DIR has no $file" >&2; exit 1; }
  done
  if [ "$(sha256sum < "$MINMEA_DIR/minmea.c" | cut -d' ' -f1)" = "$minmea_c_sha256" ] &&
    [ "$(sha256sum < "$MINMEA_DIR/minmea.h" | cut -d' ' -f1)" = "$minmea_h_sha256" ]; then
    minmea_version="kosma/minmea@$minmea_commit (from $MINMEA_DIR, sha256 matches the pin)"
  else
    minmea_version="minmea from $MINMEA_DIR (NOT the pinned kosma/minmea@$minmea_commit)"
  fi
fi

echo "== building the minmea driver (cc -O2) and the NMEAParsing benchmark (release)"
cc -O2 -I"$MINMEA_DIR" -o "$work/minmea-driver" "$root/scripts/bench/minmea-driver.c" "$MINMEA_DIR/minmea.c" -lm
ours=(swift package --scratch-path "$scratch" benchmark --target NMEAParsing --no-progress)
filters=(--filter 'Parse sentences.*' --filter 'Lexer: text log bytes.*')
(cd "$root/Benchmarks" && "${ours[@]}" list > "$work/build.log" 2>&1) || { cat "$work/build.log" >&2; exit 1; }

run_minmea() { "$work/minmea-driver" "$corpus" "$passes" > "$work/minmea-$1.txt"; }
run_ours() {
  (cd "$root/Benchmarks" && "${ours[@]}" "${filters[@]}" --format influx --path stdout) > "$work/ours-$1.csv" 2> "$work/ours-$1.err" ||
    { cat "$work/ours-$1.err" "$work/ours-$1.csv" >&2; exit 1; }
}
for round in $(seq 1 "$rounds"); do
  echo "== round $round of $rounds"
  if [ $((round % 2)) -eq 1 ]; then run_minmea "$round"; run_ours "$round"; else run_ours "$round"; run_minmea "$round"; fi
done

echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $minmea_version"
python3 - "$work" "$rounds" <<'PY'
import statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])

def ours(round_):
    """(test, metric) -> {percentile: value} from the influx CSV (test names hold commas)."""
    values = {}
    for line in open(f"{work}/ours-{round_}.csv"):
        fields = line.rstrip("\n").split(",")
        if len(fields) < 15 or not fields[-6].replace(".", "").isdigit():
            continue
        test = ",".join(fields[8:-6]).strip("\"")
        values.setdefault((test, fields[6]), {})[float(fields[-6])] = float(fields[-5])
    return values

def pick(values, test_prefix, metric):
    found = [v for (test, m), v in values.items() if test.startswith(test_prefix) and m == metric]
    if len(found) != 1:
        sys.exit(f"no single '{test_prefix}' / '{metric}' in the benchmark output: {sorted(values)}")
    return found[0]

rows = []
for r in range(1, rounds + 1):
    minmea = dict(item.split("=") for item in open(f"{work}/minmea-{r}.txt").read().split())
    values = ours(r)
    parse = "Parse sentences"
    sentences = pick(values, parse, "sentences")[50.0]
    if int(sentences) != int(minmea["sentences"]):
        sys.exit(f"round {r}: the benchmark parsed {sentences:.0f} sentences, the minmea driver {minmea['sentences']}")
    mallocs = max(pick(values, parse, "Malloc(total)").values())
    rows.append({
        "ours": pick(values, parse, "sentences/s")[50.0],
        "minmea": float(minmea["median_sentences_per_s"]),
        "ours_best": pick(values, parse, "sentences/s")[0.0],
        "minmea_best": float(minmea["best_sentences_per_s"]),
        "mallocs": mallocs,
        "sentences": int(sentences),
        "decoded": pick(values, parse, "decoded")[50.0],
        "parsed": int(minmea["parsed"]),
        "lexer": pick(values, "Lexer: text log bytes", "bytes/s")[50.0],
        "lexer_mallocs": max(pick(values, "Lexer: text log bytes", "Malloc(total)").values()),
    })
    row = rows[-1]
    print(f"round {r}: best ours {row['ours_best'] / 1e6:.2f} / minmea {row['minmea_best'] / 1e6:.2f} M sentences/s "
          f"= {row['ours_best'] / row['minmea_best']:.2f}x; median ours {row['ours'] / 1e6:.2f} / minmea {row['minmea'] / 1e6:.2f} "
          f"= {row['ours'] / row['minmea']:.2f}x; lexer {row['lexer'] / 1e6:.0f} MB/s; mallocs {row['mallocs']:.0f}")

median = lambda key: statistics.median(row[key] for row in rows)
ratios = lambda ours, theirs: [row[ours] / row[theirs] for row in rows]
best_ratio = statistics.median(ratios("ours_best", "minmea_best"))
median_ratio = statistics.median(ratios("ours", "minmea"))
first = rows[0]
print()
print(f"sentences per pass          {first['sentences']} (decoded to a typed result: ours {first['decoded']:.0f}, minmea {first['parsed']})")
print(f"ours (NMEADecoder), best    {median('ours_best') / 1e6:.2f} M sentences/s (fastest iteration, median over rounds)")
print(f"minmea, best                {median('minmea_best') / 1e6:.2f} M sentences/s (fastest pass, median over rounds)")
print(f"ratio ours / minmea, best   {best_ratio:.2f}x (median of the rounds' ratios; {min(ratios('ours_best', 'minmea_best')):.2f}x to {max(ratios('ours_best', 'minmea_best')):.2f}x)")
print(f"medians                     ours {median('ours') / 1e6:.2f} M/s, minmea {median('minmea') / 1e6:.2f} M/s, ratio {median_ratio:.2f}x "
      f"(under load these swing with the time slices other processes take)")
print(f"mallocs per sentence (ours) {max(r['mallocs'] for r in rows) / first['sentences']:.6f} (largest malloc count of any iteration / sentences)")
print(f"lexer over the same logs    {median('lexer') / 1e6:.0f} MB/s (bytes/s p50, 4 KiB reads), "
      f"largest malloc count of any iteration {max(r['lexer_mallocs'] for r in rows):.0f}")
if best_ratio < 2:
    print("below the 2x lead the NMEA layer is held to")
PY
