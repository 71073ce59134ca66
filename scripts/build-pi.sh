#!/usr/bin/env bash
# Builds the arm64 package for a Raspberry Pi, one of two ways (docs/raspberry-pi.md, section 4):
#
#   scripts/build-pi.sh native [--board NAME]            # ON a Pi 4 or 5, 64-bit Raspberry Pi OS / Debian 12,
#                                                        # Swift 6.3 for Debian 12 aarch64 installed
#   scripts/build-pi.sh cross --swift-sdk ID [--board NAME]
#                                                        # on an x86-64 Debian 12 machine, with a Swift SDK
#                                                        # for aarch64 Debian 12 installed (`swift sdk list`)
#
# Both build fairfuel and fairfueld (release, static Swift runtime) and then run
# scripts/build-deb.sh arm64, which writes .build/deb/fairfuel_<version>_arm64.deb.
# The board profile that becomes /etc/fairfuel/fairfuel.toml: native builds default to
# pi-4 (a Pi 4 or 5 building for itself, e.g. a bench unit), cross builds to pi-zero-2w (the
# dongle, which cannot compile Swift in its 512 MB). --board overrides either.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
die() { echo "build-pi.sh: $*" >&2; exit 2; }

[ $# -ge 1 ] || die "native or cross? (see the header of $0)"
way="$1"; shift
board=""
sdk=""
while [ $# -gt 0 ]; do
  case "$1" in
    --board) [ $# -ge 2 ] || die "--board needs a profile name"; board="$2"; shift 2 ;;
    --swift-sdk) [ $# -ge 2 ] || die "--swift-sdk needs an SDK id (swift sdk list)"; sdk="$2"; shift 2 ;;
    *) die "unknown option $1" ;;
  esac
done

case "$way" in
  native)
    [ "$(uname -m)" = aarch64 ] || die "native builds run on the Pi 4 or 5 itself (aarch64), not on $(uname -m)"
    board="${board:-pi-4}"
    "$root/scripts/install-deps.sh"
    for product in fairfuel fairfueld; do
      (cd "$root" && swift build -c release --static-swift-stdlib --product "$product")
    done
    exec "$root/scripts/build-deb.sh" arm64 --bin-dir "$root/.build/release" --board "$board"
    ;;
  cross)
    [ -n "$sdk" ] || die "cross builds need --swift-sdk ID (an aarch64 Debian 12 SDK; docs/raspberry-pi.md)"
    board="${board:-pi-zero-2w}"
    scratch="$root/.build-arm64"
    for product in fairfuel fairfueld; do
      (cd "$root" && swift build -c release --static-swift-stdlib --swift-sdk "$sdk" --scratch-path "$scratch" --product "$product")
    done
    # dpkg-shlibdeps reads the arm64 libraries' symbol files: install them beside the host's (multiarch).
    for library in libc6 libserialport0 libgps28 libsqlite3-0; do
      dpkg-query -W -f='${Status}' "$library:arm64" 2>/dev/null | grep -q "install ok installed" \
        || die "$library:arm64 is missing: sudo dpkg --add-architecture arm64 && sudo apt-get update && sudo apt-get install libc6:arm64 libserialport0:arm64 libgps28:arm64 libsqlite3-0:arm64"
    done
    exec "$root/scripts/build-deb.sh" arm64 --bin-dir "$scratch/release" --board "$board"
    ;;
  *) die "unknown way $way: native or cross" ;;
esac
