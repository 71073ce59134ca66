#!/usr/bin/env bash
# The memory benchmark of issue 16: resident memory of the daemon beside an empty static Swift
# program, in one run, from the kernel's own accounting (no page dropping anywhere):
#
#   empty    an empty static Swift program (`pause()` only), built here with swiftc -static-stdlib
#   idle     fairfueld started (store open, control socket up), the MCU not yet plugged in
#   busy     fairfueld while `fairfuel sim` plays the family week through the virtual MCU on a
#            pseudo-terminal, sped up; sampled every SAMPLE_S seconds: each sample, the max, the final
#
# For each: VmRSS, RssAnon, RssFile (/proc/PID/status), Pss, Pss_Anon (/proc/PID/smaps_rollup) in
# KiB, and the thread count; then the busy daemon's /proc/PID/smaps mapping by mapping, and the
# stripped sizes of fairfuel and fairfueld. Binaries are built as the .deb builds them
# (scripts/build-deb.sh: release, Swift runtime linked statically) and stripped as it strips them.
#
#   scripts/memory.sh                       # build, then measure
#   BIN_DIR=.build/release scripts/memory.sh   # binaries already built there (no build step)
#   SPEED=300 IDLE_SPEED=20000 SAMPLE_S=2 scripts/memory.sh   # the defaults: the daemon keeps up (all 24 trips, as the demo)
#   BOARD=boards/pi-4.toml scripts/memory.sh  # another board profile (default boards/pi-zero-2w.toml)
#   UPLINK=0 scripts/memory.sh    # skip the second week with [uplink] to a local Mosquitto (run by
#                                 # default when mosquitto is installed: the uplink's cost, issue 17)
#   TOUCHED=1 scripts/memory.sh   # also which 4 KiB code pages the daemon executed (a diagnostic: an
#                                 # LD_PRELOAD tracer faults each page once), beside those resident;
#                                 # TOUCHED_OUT=FILE keeps their file offsets; ORDER_OUT=FILE writes
#                                 # the symbols in them as lld's --symbol-ordering-file (scripts/daemon-order.sh
#                                 # uses it for fairfueld.order)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

speed=${SPEED:-300}
idle_speed=${IDLE_SPEED:-20000}
sample_s=${SAMPLE_S:-2}
board=${BOARD:-boards/pi-zero-2w.toml}
scenario=scenarios/family-week.scenario
scratch=${SCRATCH:-.build}
# shellcheck source=scripts/lib/daemon-rig.sh
. "$root/scripts/lib/daemon-rig.sh"
group=$(rig_group)
# UPLINK=auto (the default): when mosquitto is installed, a second daemon runs the same week with an
# [uplink] to a broker on loopback, for the uplink's cost beside the daemon without it (issue 17).
uplink=${UPLINK:-auto}
[ "$uplink" = auto ] && { command -v mosquitto >/dev/null && uplink=1 || uplink=0; }

if [ -z "${BIN_DIR:-}" ]; then
  ./scripts/install-deps.sh >&2
  for product in fairfuel fairfueld; do
    swift build -c release --static-swift-stdlib --product "$product" --scratch-path "$scratch" >&2
  done
  BIN_DIR="$scratch/release"
fi

rig_begin fairfuel-memory

# The binaries as the .deb ships them: stripped (scripts/build-deb.sh's flags).
# Each binary (and below, each shared library) is measured from a copy in 4 KiB pages that stay in
# memory: how big a piece of a file one page fault maps depends on the page cache's folios. This
# kernel (ext4 with large folios, Linux 6.16 on) caches a file written in large writes, as strip
# writes it, or read back by readahead after its pages were dropped, in folios of up to 2 MiB that a
# fault maps whole: the same code then read up to 1 MB more resident from run to run. In 4 KiB pages,
# as a board's kernel (Raspberry Pi OS, 6.12) caches its files, each fault maps the kernel's 64 KiB
# fault-around window. The copies go to tmpfs (/dev/shm: 4 KiB pages, never dropped) when it allows
# executing; else next to the rest, written in 4 KiB writes and synced (no page under writeback, which
# fault-around skips). Every binary measured here, the empty program too, is copied the same way.
strip_tool=$(command -v strip || command -v llvm-strip)
pages=$work/pages
if [ "$(findmnt -n -o FSTYPE /dev/shm 2>/dev/null)" = tmpfs ] && ! findmnt -n -o OPTIONS /dev/shm | grep -qw noexec; then
  pages=$(mktemp -d /dev/shm/fairfuel-memory.XXXXXX)
  children_dirs+=("$pages")
else
  mkdir "$pages"
fi
in_small_pages() { dd if="$1" of="$2" bs=4096 status=none && chmod +x "$2" && sync "$2"; }
for binary in fairfuel fairfueld; do
  "$strip_tool" --strip-unneeded --remove-section=.comment --remove-section=.note \
    -o "$work/$binary.stripped" "$BIN_DIR/$binary"
  in_small_pages "$work/$binary.stripped" "$pages/$binary"
  rm "$work/$binary.stripped"
done
cli="$pages/fairfuel"
daemon="$pages/fairfueld"
daemon_env=()
if [ "${TOUCHED:-0}" = 1 ]; then
  # The kernel maps code in 64 KiB fault-around blocks: what the daemon executed is less than what
  # is resident. This tracer tells the two apart; the figures above it are then the traced run's.
  cat >"$work/touch-trace.c" <<'EOF_C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
/* A diagnostic (scripts/memory.sh TOUCHED=1): the executable's code is made inaccessible before it
   runs; each first execution of a 4 KiB page faults here, is recorded and made executable again. At
   exit, the pages touched (offsets from the mapping's start) go to $TOUCH_TRACE_OUT. */
static uintptr_t text_low, text_high;
static unsigned long text_offset;
static unsigned char *touched;
static void on_fault(int sig, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    (void)context;
    if (address < text_low || address >= text_high) { signal(sig, SIG_DFL); raise(sig); return; }
    uintptr_t page = address & ~(uintptr_t)4095;
    touched[(page - text_low) / 4096] = 1;
    mprotect((void *)page, 4096, PROT_READ | PROT_EXEC);
}
static void write_out(void) {
    const char *out = getenv("TOUCH_TRACE_OUT");
    FILE *file = out ? fopen(out, "w") : NULL;
    if (!file) return;
    for (uintptr_t i = 0; i < (text_high - text_low) / 4096; i++)
        if (touched[i]) fprintf(file, "%lx\n", text_offset + i * 4096);
    fclose(file);
}
__attribute__((constructor)) static void trace_text(void) {
    char exe[4096], line[4608], path[4096], perms[8];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    FILE *maps = fopen("/proc/self/maps", "r");
    if (n <= 0 || maps == NULL) return;
    exe[n] = 0;
    while (fgets(line, sizeof line, maps)) {
        unsigned long low, high, offset;
        path[0] = 0;
        if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095s", &low, &high, perms, &offset, path) >= 4
            && strcmp(path, exe) == 0 && strchr(perms, 'x')) { text_low = low; text_high = high; text_offset = offset; }
    }
    fclose(maps);
    if (!text_low) return;
    touched = calloc((text_high - text_low) / 4096, 1);
    struct sigaction action = { .sa_sigaction = on_fault, .sa_flags = SA_SIGINFO | SA_NODEFER };
    sigaction(SIGSEGV, &action, NULL);
    atexit(write_out);
    mprotect((void *)text_low, text_high - text_low, PROT_NONE);
}
EOF_C
  cc -shared -fPIC -O2 -o "$work/touch-trace.so" "$work/touch-trace.c"
  # The Swift runtime's crash handler would take SIGSEGV from the tracer.
  daemon_env=(env "LD_PRELOAD=$work/touch-trace.so" "TOUCH_TRACE_OUT=$work/touched.pages" SWIFT_BACKTRACE=enable=no)
fi

# The empty program: the floor every static Swift process on this machine pays (runtime, libc, ld.so).
empty_source="$work/empty.swift"
printf '#if canImport(Glibc)\nimport Glibc\n#endif\npause()\n' >"$empty_source"
empty_build=(swiftc -O -static-stdlib "$empty_source" -o "$work/empty.built")
"${empty_build[@]}"
in_small_pages "$work/empty.built" "$pages/empty"

# The shared libraries too (libc, libm, libserialport; libmosquitto, libssl and libcrypto for the
# uplink; fairfueld links SQLite statically) are read from copies written in 4 KiB writes
# (LD_LIBRARY_PATH), for the empty program and the daemon alike: the system's copies were cached by
# readahead, which on this kernel makes large folios (libc's code then reads all but wholly
# resident), where a board's kernel caches 4 KiB pages. SYSTEM_LIBS=1 measures with the system's copies as they are cached.
library_env=()
if [ "${SYSTEM_LIBS:-0}" != 1 ]; then
  mkdir "$pages/lib"
  libraries=$( { ldd "$daemon"; ldd "$pages/empty"; ldd "$(ldconfig -p | awk '/libmosquitto\.so\.1 / { print $NF; exit }')" 2>/dev/null || true; } |
    awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | sort -u)
  while read -r soname path; do
    in_small_pages "$path" "$pages/lib/$soname"
  done <<<"$libraries"
  library_env=(env "LD_LIBRARY_PATH=$pages/lib")
  if [ ${#daemon_env[@]} -gt 0 ]; then daemon_env+=("LD_LIBRARY_PATH=$pages/lib"); else daemon_env=("${library_env[@]}"); fi
fi

# VmRSS RssAnon RssFile Pss Pss_Anon Threads of PID, in KiB (threads a count).
measure() { rig_measure "$1"; }

row() {  # LABEL VmRSS RssAnon RssFile Threads Pss Pss_Anon
  printf "%-22s %8s %8s %8s %8s %8s %7s\n" "$1" "$2" "$3" "$4" "$6" "$7" "$5"
}

header() { row "" VmRSS RssAnon RssFile threads Pss Pss_Anon; }

# /proc/PID/smaps mapping by mapping (resident ones): what is the binary's text, its data, the
# heap, a thread's stack, a malloc arena, a library. Anonymous mappings are named by what sits
# next to them: the one right after the binary's data is its .bss; an 8 MiB one after a guard
# page is a thread stack; a 64 MiB-aligned reservation (mostly ---p) is a malloc arena.
breakdown() {
  awk -v exe="$2" '
    function flush() {
      if (start == "") return
      name = path
      if (path == exe) name = "binary " (perms ~ /x/ ? "text" : perms ~ /w/ ? "data" : atStart ? "read-only data (ELF tables, Swift metadata, eh_frame)" : "relro")
      else if (path == "" && prev_path == exe && prev_end == start) name = "binary .bss (anon)"
      else if (path == "" && prev_perms == "---p" && size >= 8000) name = "anon: thread stack?"
      else if (path == "" && size >= 60000) name = "anon: malloc arena?"
      else if (path == "") name = "anon"
      else if (path !~ /^\[/) { n = split(path, parts, "/"); name = parts[n] (perms ~ /x/ ? " text" : perms ~ /w/ ? " data" : " rodata") }
      if (rss > 0) printf "  %7d %7d %7d %8d  %s  %s\n", rss, pss, anon, size, perms, name
      total[name] += rss; totalAnon[name] += anon
      prev_path = path; prev_end = end; prev_perms = perms
    }
    /^[0-9a-f]+-[0-9a-f]+ / {
      flush()
      split($1, range, "-"); start = range[1]; end = range[2]; perms = $2; atStart = ($3 ~ /^0+$/); path = (NF >= 6 ? $6 : "")
      rss = pss = anon = size = 0
      next
    }
    /^Size:/ { size = $2 } /^Rss:/ { rss = $2 } /^Pss:/ { pss = $2 } /^Anonymous:/ { anon = $2 }
    BEGIN { printf "  %7s %7s %7s %8s  %s  %s\n", "Rss", "Pss", "Anon", "Size", "perm", "mapping (KiB)" }
    END { flush() }
  ' "/proc/$1/smaps"
}

echo "empty program: ${empty_build[*]}"
echo "  (source: $(tr '\n' ' ' <"$empty_source"))"
echo "fairfueld, fairfuel: $BIN_DIR, stripped as scripts/build-deb.sh strips them"
printf "stripped sizes: fairfueld %d bytes, fairfuel %d bytes, empty %d bytes\n" \
  "$(stat -c %s "$daemon")" "$(stat -c %s "$cli")" "$(stat -c %s "$pages/empty")"
echo "board profile: $board with mcu_board = \"fairfuel-rev-b\" (the virtual MCU's), control group = \"$group\"; busy: $scenario at ${speed}x (${idle_speed}x parked)"
echo
echo "resident memory, KiB:"
header

"${library_env[@]}" "$pages/empty" & empty_pid=$!
children+=("$empty_pid")
sleep 0.5
empty_figures=$(measure "$empty_pid")
# shellcheck disable=SC2086  # the figures are fields
row "empty static Swift" $empty_figures
kill "$empty_pid"

# week NAME [UPLINK_URL]: a daemon on a fresh store, measured idle, then busy while the virtual MCU
# plays the week; sets idle_figures, max and final, and leaves the daemon running (daemon_pid).
week() {
  local name=$1 url=${2:-}
  db="$work/$name.db"
  rig_provision "$cli" "$db" "$scenario"
  rig_board "$board" "$work/$name.toml" "$group" "$url"
  link="$work/$name.mcu"
  rig_start_daemon "$cli" "$daemon" "$work/$name.toml" "$link" "$db" "$work/$name.sock" "$work/$name.err" "${daemon_env[@]}"
  daemon_pid=$RIG_DAEMON_PID
  children+=("$daemon_pid")
  sleep 1
  idle_figures=$(measure "$daemon_pid")
  # shellcheck disable=SC2086
  row "$name idle" $idle_figures
  echo
  echo "$name idle, by mapping:"
  breakdown "$daemon_pid" "$daemon"
  echo

  "$cli" sim "$scenario" --speed "$speed" --idle-speed "$idle_speed" --link "$link" --quiet \
    >"$work/$name.sim.out" 2>"$work/$name.sim.err" &
  sim_pid=$!
  children+=("$sim_pid")
  echo "$name busy, every ${sample_s} s:"
  header
  max=(0 0 0 0 0 0)
  local samples=0 now i
  while kill -0 "$sim_pid" 2>/dev/null; do
    sleep "$sample_s"
    read -r -a now <<<"$(measure "$daemon_pid")"
    samples=$((samples + 1))
    for i in 0 1 2 3 4 5; do [ "${now[$i]}" -gt "${max[$i]}" ] && max[$i]=${now[$i]}; done
    row "  sample $samples" "${now[@]}"
  done
  wait "$sim_pid" || { echo "the sim failed:" >&2; cat "$work/$name.sim.err" >&2; exit 1; }
  # The service reads what is still on the line before the MCU's end is final.
  sleep 1
  read -r -a final <<<"$(measure "$daemon_pid")"
}

week fairfueld
off_idle=$idle_figures off_max=("${max[@]}") off_final=("${final[@]}")
echo
echo "fairfueld after the week, by mapping:"
breakdown "$daemon_pid" "$daemon"
if command -v python3 >/dev/null; then
  echo
  echo "fairfueld after the week, the executable's resident pages by module (scripts/resident-code.py):"
  python3 scripts/resident-code.py "$daemon_pid" "$BIN_DIR/fairfueld"
fi
kill -TERM "$daemon_pid"
wait "$daemon_pid" || true
if [ -s "$work/touched.pages" ]; then
  echo
  echo "TOUCHED=1: the code pages fairfueld executed from start to stop (4 KiB each), by module:"
  python3 scripts/resident-code.py --touched "$work/touched.pages" "$BIN_DIR/fairfueld"
  [ -z "${TOUCHED_OUT:-}" ] || cp "$work/touched.pages" "$TOUCHED_OUT"
  if [ -n "${ORDER_OUT:-}" ]; then
    { echo "# The code symbols in the 4 KiB pages fairfueld executed while scripts/memory.sh played the family week,"
      echo "# in address order: lld's --symbol-ordering-file at page granularity, and the input of"
      echo "# scripts/daemon-order.sh, which writes Sources/fairfueld/fairfueld.order from it and sanitizer coverage."
      python3 scripts/resident-code.py --order "$work/touched.pages" "$BIN_DIR/fairfueld"; } >"$ORDER_OUT"
    echo "symbol order for the next link: $ORDER_OUT ($(grep -vc '^#' "$ORDER_OUT") symbols)"
  fi
fi
off_sim=$(tail -n 1 "$work/fairfueld.sim.out")
off_trips=$("$cli" trips --json --db "$work/fairfueld.db" | grep -o '"id":[0-9]*' | wc -l)

if [ "$uplink" = 1 ]; then
  echo
  rig_mosquitto "$work"
  children+=("$RIG_MQTT_PID")
  echo "the same week with [uplink] url = \"mqtt://127.0.0.1:$RIG_MQTT_PORT\" (a local Mosquitto, plain TCP):"
  header
  week uplink "mqtt://127.0.0.1:$RIG_MQTT_PORT"
  grep -q "uplink connected" "$work/uplink.err" || { echo "the uplink never connected:" >&2; cat "$work/uplink.err" >&2; exit 1; }
  echo
  echo "uplink after the week, by mapping:"
  breakdown "$daemon_pid" "$daemon"
  kill -TERM "$daemon_pid"
  wait "$daemon_pid" || true
fi

echo
echo "summary, KiB:"
header
# shellcheck disable=SC2086
row "empty static Swift" $empty_figures
# shellcheck disable=SC2086
row "fairfueld idle" $off_idle
row "fairfueld busy, max" "${off_max[@]}"
row "fairfueld busy, final" "${off_final[@]}"
if [ "$uplink" = 1 ]; then
  # shellcheck disable=SC2086
  row "uplink on, idle" $idle_figures
  row "uplink on, busy, max" "${max[@]}"
  row "uplink on, busy, final" "${final[@]}"
  read -r -a off_idle_fields <<<"$off_idle"
  read -r -a on_idle_fields <<<"$idle_figures"
  row "uplink's cost, idle" $(for i in 0 1 2 3 4 5; do printf '%d ' $(( on_idle_fields[i] - off_idle_fields[i] )); done)
  row "uplink's cost, busy max" $(for i in 0 1 2 3 4 5; do printf '%d ' $(( max[i] - off_max[i] )); done)
  echo "uplink: $(grep -c '' "$work/mosquitto.log") broker log lines; trips stored with the uplink on: $("$cli" trips --json --db "$work/uplink.db" | grep -o '"id":[0-9]*' | wc -l)"
fi
echo
echo "sim: $off_sim"
echo "trips stored: $off_trips"
