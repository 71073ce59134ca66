#!/usr/bin/env bash
# Installs FairFuel on a dongle: the binary, the board profile, the udev rules and
# the systemd units (fairfuel.service and fairfuel-usb-pull.service), then the fairfuel
# system user, udev and systemd steps (both units enabled).
# Safe to run again (an existing /etc/fairfuel/board.toml is kept).
#
#   sudo scripts/install.sh                        # build, install, enable the service
#   sudo scripts/install.sh --no-build --now       # install what `swift build -c release --static-swift-stdlib` made, and start it
#   scripts/install.sh --destdir /tmp/stage --no-build --binary ./fairfuel   # stage into a directory, no root needed
#
# Options:
#   --prefix DIR     where bin/fairfuel goes (default /usr/local; the unit's ExecStart follows it)
#   --destdir DIR    stage everything under DIR (also DESTDIR=DIR); implies --no-system
#   --board NAME     the profile copied to /etc/fairfuel/board.toml when absent (default pi-zero-2w)
#   --uart           also install udev/99-fairfuel-mcu-uart.rules (implied by a profile with mcu_board "fairfuel-uart")
#   --binary PATH    install this binary instead of .build/release/fairfuel
#   --no-build       do not run `swift build -c release --static-swift-stdlib` first
#   --no-system      files only: no user, udev, or systemctl steps
#   --now            start (or restart) the service after enabling it
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/usr/local
destdir="${DESTDIR:-}"
board=pi-zero-2w
uart=no
binary=""
build=yes
system=yes
start=no

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "install.sh: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; prefix="$2"; shift 2 ;;
    --destdir) [ $# -ge 2 ] || die "--destdir needs a directory"; destdir="$2"; shift 2 ;;
    --board) [ $# -ge 2 ] || die "--board needs a profile name"; board="$2"; shift 2 ;;
    --uart) uart=yes; shift ;;
    --binary) [ $# -ge 2 ] || die "--binary needs a path"; binary="$2"; shift 2 ;;
    --no-build) build=no; shift ;;
    --no-system) system=no; shift ;;
    --now) start=yes; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done

case "$prefix" in /*) ;; *) die "--prefix must be an absolute path, not $prefix" ;; esac
prefix="${prefix%/}"
if [ -n "$destdir" ]; then
  destdir="$(mkdir -p "$destdir" && cd "$destdir" && pwd)"
  system=no   # a staging directory is not the running system
fi
[ -f "$root/boards/$board.toml" ] || die "no board profile boards/$board.toml"
# A profile whose MCU is on the UART (the Pi Zero 2 W's: its one USB port is the pull gadget's) needs the UART rule.
if grep -q '^mcu_board = "fairfuel-uart"' "$root/boards/$board.toml"; then uart=yes; fi
if [ -z "$destdir" ] && [ "$(id -u)" -ne 0 ]; then
  die "run as root (sudo), or stage with --destdir DIR"
fi

if [ -z "$binary" ]; then
  if [ "$build" = yes ]; then
    # The Swift runtime linked in: the Pi needs no toolchain, and it saves ~3 MB resident.
    echo "Building fairfuel (release, static Swift runtime)..." >&2
    (cd "$root" && swift build -c release --static-swift-stdlib --product fairfuel >&2)
  fi
  binary="$root/.build/release/fairfuel"
fi
[ -x "$binary" ] || die "no executable at $binary (build with: swift build -c release --static-swift-stdlib --product fairfuel)"

bindir="$prefix/bin"
etc="$destdir/etc"
say() { echo "  $*" >&2; }

echo "Installing into ${destdir:-/} (prefix $prefix)..." >&2
install -d -m 0755 "$destdir$bindir"
install -m 0755 "$binary" "$destdir$bindir/fairfuel"
say "$bindir/fairfuel"

# Board profiles: all of them for reference, and the active one unless it exists (local edits survive).
install -d -m 0755 "$etc/fairfuel" "$etc/fairfuel/boards"
install -m 0644 "$root"/boards/*.toml "$root/boards/README.md" "$etc/fairfuel/boards/"
say "/etc/fairfuel/boards/"
if [ -e "$etc/fairfuel/board.toml" ]; then
  say "/etc/fairfuel/board.toml kept (compare with /etc/fairfuel/boards/$board.toml)"
else
  install -m 0644 "$root/boards/$board.toml" "$etc/fairfuel/board.toml"
  say "/etc/fairfuel/board.toml (from boards/$board.toml)"
fi

# udev: stable names and owners for the MCU and the gadget port (udev/README.md).
install -d -m 0755 "$etc/udev/rules.d"
install -m 0644 "$root/udev/99-fairfuel-mcu.rules" "$etc/udev/rules.d/"
say "/etc/udev/rules.d/99-fairfuel-mcu.rules"
if [ "$uart" = yes ]; then
  install -m 0644 "$root/udev/99-fairfuel-mcu-uart.rules" "$etc/udev/rules.d/"
  say "/etc/udev/rules.d/99-fairfuel-mcu-uart.rules"
fi

# The units (the service, and the USB pull server the ttyGS0 udev rule starts), with ExecStart
# pointing where the binary went.
units="fairfuel.service fairfuel-usb-pull.service"
install -d -m 0755 "$etc/systemd/system"
unit="$(mktemp)"
trap 'rm -f "$unit"' EXIT
for name in $units; do
  sed "s#^ExecStart=/usr/local/bin/fairfuel #ExecStart=$bindir/fairfuel #" "$root/systemd/$name" > "$unit"
  install -m 0644 "$unit" "$etc/systemd/system/$name"
  say "/etc/systemd/system/$name"
done

if [ "$system" = no ]; then
  echo "Files installed; skipped the user, udev and systemctl steps." >&2
  exit 0
fi

# The service's own system user and group (the udev rules give the ports to the group).
if ! getent group fairfuel >/dev/null; then
  groupadd --system fairfuel
  say "group fairfuel created"
fi
if ! getent passwd fairfuel >/dev/null; then
  useradd --system --gid fairfuel --no-create-home --home-dir /var/lib/fairfuel \
    --shell /usr/sbin/nologin --comment "FairFuel service" fairfuel
  say "user fairfuel created"
fi

if command -v udevadm >/dev/null; then
  udevadm control --reload
  udevadm trigger --subsystem-match=tty --action=add
  say "udev rules reloaded"
fi

if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  # shellcheck disable=SC2086 # the unit names are words
  systemctl enable $units
  if [ "$start" = yes ]; then
    systemctl restart fairfuel.service
    say "fairfuel.service (re)started"
  fi
  echo "Done. Check with: systemctl status fairfuel; journalctl -u fairfuel -f" >&2
else
  echo "Done, but systemd is not running here: enable fairfuel.service on the target." >&2
fi
echo "People who should use the fairfuel CLI join the group: sudo usermod -aG fairfuel NAME" >&2
