#!/usr/bin/env bash
# Builds the Debian package fairfuel_<version>_<arch>.deb from the static release build.
#
#   scripts/build-deb.sh                  # this machine's architecture: builds, then packages
#   scripts/build-deb.sh arm64 --bin-dir DIR --host-bin-dir .build/release
#                                         # package binaries built for a Pi (scripts/build-pi.sh)
#
# Options:
#   ARCH                 Debian architecture of the binaries (default: dpkg --print-architecture)
#   --bin-dir DIR        fairfuel and fairfueld built for ARCH (default: build them into .build/release;
#                        required when ARCH is not this machine's)
#   --host-bin-dir DIR   fairfuel and fairfueld that run here, for the man pages and completions
#                        (default: --bin-dir when ARCH is this machine's; else a debug build)
#   --board NAME         boards/NAME.toml becomes /etc/fairfuel/fairfuel.toml (default pi-zero-2w)
#   --out DIR            where the .deb goes (default .build/deb)
#   --lintian            run lintian on the result (fails on an error or an unoverridden warning)
#
# Layout, maintainer scripts and conffile: debian/README.md. Needs dpkg-dev (dpkg-shlibdeps),
# help2man and gzip; no root (dpkg-deb --root-owner-group).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
arch=""
bin_dir=""
host_bin_dir=""
board=pi-zero-2w
out="$root/.build/deb"
run_lintian=no

die() { echo "build-deb.sh: $*" >&2; exit 2; }
usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --bin-dir) [ $# -ge 2 ] || die "--bin-dir needs a directory"; bin_dir="$2"; shift 2 ;;
    --host-bin-dir) [ $# -ge 2 ] || die "--host-bin-dir needs a directory"; host_bin_dir="$2"; shift 2 ;;
    --board) [ $# -ge 2 ] || die "--board needs a profile name"; board="$2"; shift 2 ;;
    --out) [ $# -ge 2 ] || die "--out needs a directory"; out="$2"; shift 2 ;;
    --lintian) run_lintian=yes; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) [ -z "$arch" ] || die "one architecture only (got $arch and $1)"; arch="$1"; shift ;;
  esac
done

for tool in dpkg-deb dpkg-shlibdeps help2man gzip chrpath; do
  command -v "$tool" >/dev/null || die "$tool is missing (scripts/install-deps.sh installs it)"
done
host_arch="$(dpkg --print-architecture)"
arch="${arch:-$host_arch}"
case "$arch" in
  amd64|arm64) ;;
  *) die "unsupported architecture $arch (amd64 or arm64: Swift's Int must be 64 bits, see Int64PortabilityTests)" ;;
esac
[ -f "$root/boards/$board.toml" ] || die "no board profile boards/$board.toml"

# One version, in FairFuelVersion.swift; the changelog's top entry must agree.
version="$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' "$root/Sources/FairFuelService/FairFuelVersion.swift")"
[ -n "$version" ] || die "no version in Sources/FairFuelService/FairFuelVersion.swift"
changelog_version="$(sed -n '1s/^fairfuel (\([^)]*\)).*/\1/p' "$root/debian/changelog")"
[ "$changelog_version" = "$version" ] || die "debian/changelog is at $changelog_version, the code at $version: add a changelog entry"

if [ -z "$bin_dir" ]; then
  [ "$arch" = "$host_arch" ] || die "binaries for $arch cannot be built here by this script: build them (scripts/build-pi.sh) and pass --bin-dir"
  echo "Building fairfuel and fairfueld (release, static Swift runtime)..." >&2
  for product in fairfuel fairfueld; do
    (cd "$root" && swift build -c release --static-swift-stdlib --product "$product" >&2)
  done
  bin_dir="$root/.build/release"
fi
for binary in fairfuel fairfueld; do
  [ -x "$bin_dir/$binary" ] || die "no executable $bin_dir/$binary"
done
# The daemon's memory budget (issue 16): one String.replacing, contains(some StringProtocol) or
# firstRange(of:) anywhere in its code links the regex engine, 0.9 MB of binary and about 0.19 MB
# resident. Caught here, where the package test builds it, not months later by scripts/memory.sh.
if nm "$bin_dir/fairfueld" 2>/dev/null | grep -q '17_StringProcessing\|12_RegexParser'; then
  die "fairfueld links the regex engine (_StringProcessing): use FairFuelCore's firstRange(ofText:)/containsText, or a bound SQL parameter, instead of the standard library's string searches; 'nm $bin_dir/fairfueld | grep 17_StringProcessing | swift demangle' names the call"
fi
if [ -z "$host_bin_dir" ]; then
  if [ "$arch" = "$host_arch" ]; then
    host_bin_dir="$bin_dir"
  else
    echo "Building fairfuel and fairfueld for this machine (man pages, completions)..." >&2
    for product in fairfuel fairfueld; do (cd "$root" && swift build --product "$product" >&2); done
    host_bin_dir="$root/.build/debug"
  fi
fi

case "$arch" in
  "$host_arch") strip_tool=strip ;;
  arm64) strip_tool=aarch64-linux-gnu-strip ;;
esac
command -v "$strip_tool" >/dev/null || strip_tool="$(command -v llvm-strip || echo /opt/swift/usr/bin/llvm-strip)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The staging tree sits where dpkg-shlibdeps looks for a package's files (debian/<package>).
stage="$work/src/debian/fairfuel"
share="$stage/usr/share"
doc="$share/doc/fairfuel"

# Binaries, stripped as Debian policy asks (the symbols stay in the build directory).
install -d "$stage/usr/bin" "$stage/usr/sbin"
install -m 0755 "$bin_dir/fairfuel" "$stage/usr/bin/fairfuel"
install -m 0755 "$bin_dir/fairfueld" "$stage/usr/sbin/fairfueld"
"$strip_tool" --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/fairfuel" "$stage/usr/sbin/fairfueld"
# SwiftPM links with RUNPATH $ORIGIN (for its own build tree); an installed binary finds its libraries in the system paths.
chrpath -d "$stage/usr/bin/fairfuel" "$stage/usr/sbin/fairfueld" >/dev/null

# systemd, udev, users and directories.
install -d "$stage/lib/systemd/system" "$stage/lib/udev/rules.d" "$stage/usr/lib/sysusers.d" "$stage/usr/lib/tmpfiles.d"
install -m 0644 "$root/systemd/fairfuel.service" "$root/systemd/fairfuel-usb-pull.service" "$stage/lib/systemd/system/"
# The web app, started by its socket (port 80) through systemd's proxy, and advertised by Avahi.
install -m 0644 "$root/systemd/fairfuel-web.socket" "$root/systemd/fairfuel-web.service" "$root/systemd/fairfuel-web-proxy.service" \
  "$stage/lib/systemd/system/"
install -d "$stage/etc/avahi/services"
install -m 0644 "$root/systemd/fairfuel-web.avahi.service" "$stage/etc/avahi/services/fairfuel-web.service"
install -m 0644 "$root/udev/99-fairfuel-mcu.rules" "$stage/lib/udev/rules.d/"
install -m 0644 "$root/debian/fairfuel.sysusers" "$stage/usr/lib/sysusers.d/fairfuel.conf"
install -m 0644 "$root/debian/fairfuel.tmpfiles" "$stage/usr/lib/tmpfiles.d/fairfuel.conf"

# Board profiles for reference, the active one as the conffile; the opt-in udev rules
# (the UART MCU would take a Pi's Bluetooth UART on a USB-MCU dongle; the laptop's rule is a laptop's).
install -d "$share/fairfuel/boards" "$share/fairfuel/udev" "$stage/etc/fairfuel"
install -m 0644 "$root"/boards/*.toml "$share/fairfuel/boards/"
install -m 0644 "$root/udev/99-fairfuel-mcu-uart.rules" "$root/udev/70-fairfuel-laptop.rules" "$share/fairfuel/udev/"
install -m 0644 "$root/boards/$board.toml" "$stage/etc/fairfuel/fairfuel.toml"

# Man pages and completions, generated from the commands' own help (one source of truth).
install -d "$share/man/man1" "$share/man/man8"
"$root/scripts/generate-manuals.sh" "$host_bin_dir" "$version" "$work/man"
gzip -9n -c "$work/man/fairfuel.1" > "$share/man/man1/fairfuel.1.gz"
gzip -9n -c "$work/man/fairfueld.8" > "$share/man/man8/fairfueld.8.gz"
install -d "$share/bash-completion/completions" "$share/zsh/vendor-completions" "$share/fish/vendor_completions.d"
# bash-completion sources the file: no #! line.
"$host_bin_dir/fairfuel" --generate-completion-script bash | sed '1{/^#!/d}' > "$share/bash-completion/completions/fairfuel"
"$host_bin_dir/fairfuel" --generate-completion-script zsh > "$share/zsh/vendor-completions/_fairfuel"
"$host_bin_dir/fairfuel" --generate-completion-script fish > "$share/fish/vendor_completions.d/fairfuel.fish"

# Documentation: DEP-5 copyright, the changelog (a native package: changelog.gz), the profiles' README.
install -d "$doc" "$share/lintian/overrides"
install -m 0644 "$root/debian/copyright" "$doc/copyright"
gzip -9n -c "$root/debian/changelog" > "$doc/changelog.gz"
gzip -9n -c "$root/boards/README.md" > "$doc/README.boards.md.gz"
# The web app's guide (the units and the man page point at it) and its API's OpenAPI document.
gzip -9n -c "$root/docs/web.md" > "$doc/web.md.gz"
gzip -9n -c "$root/docs/openapi.json" > "$doc/openapi.json.gz"
install -m 0644 "$root/debian/lintian-overrides" "$share/lintian/overrides/fairfuel"

find "$stage" -type d -exec chmod 0755 {} +
find "$stage" -type f ! -path "$stage/usr/bin/*" ! -path "$stage/usr/sbin/*" -exec chmod 0644 {} +

# Depends: what dpkg-shlibdeps finds the binaries link (libc6, libserialport0, libsqlite3-0),
# plus passwd for the postinst's groupadd/useradd where systemd-sysusers is absent. libgps28 is
# loaded with dlopen, only where gnss.source is gpsd, and libmosquitto1 only with an [uplink]:
# debian/control.in recommends both.
install -d "$stage/DEBIAN"   # dpkg-shlibdeps finds the package root by it
printf 'Source: fairfuel\nMaintainer: x <x@x>\n\nPackage: fairfuel\nArchitecture: any\n' > "$work/src/debian/control"
shlibs="$(cd "$work/src" && DEB_HOST_ARCH="$arch" dpkg-shlibdeps -O -e debian/fairfuel/usr/bin/fairfuel -e debian/fairfuel/usr/sbin/fairfueld 2>"$work/shlibdeps.err")" \
  || { cat "$work/shlibdeps.err" >&2; die "dpkg-shlibdeps failed (for $arch: install the $arch C libraries, see docs/raspberry-pi.md)"; }
grep -v "^$" "$work/shlibdeps.err" >&2 || true
depends="${shlibs#shlibs:Depends=}, passwd"
# fairfueld's relative relocations are packed (DT_RELR, Package.swift), which ld.so reads from glibc 2.36
# (the binary needs GLIBC_ABI_DT_RELR); dpkg-shlibdeps goes by symbols only and may ask for less.
if readelf -d "$stage/usr/sbin/fairfueld" | grep -q '(RELR)'; then
  depends="$(echo "$depends" | sed -E 's/libc6 \(>= 2\.(3[0-5]|[12][0-9])[^)]*\)/libc6 (>= 2.36)/')"
fi

install -d "$stage/DEBIAN"
installed_size="$(du -sk --exclude=DEBIAN "$stage" | cut -f1)"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$installed_size/" -e "s/@DEPENDS@/$depends/" \
  "$root/debian/control.in" > "$stage/DEBIAN/control"
printf '%s\n' /etc/fairfuel/fairfuel.toml /etc/avahi/services/fairfuel-web.service > "$stage/DEBIAN/conffiles"
for script in postinst prerm postrm; do install -m 0755 "$root/debian/$script" "$stage/DEBIAN/$script"; done
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/conffiles"

(cd "$stage" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) > "$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/md5sums"

install -d "$out"
deb="$out/fairfuel_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >&2
echo "$deb"
echo "build-deb.sh: $(basename "$deb"): $(du -k "$deb" | cut -f1) KiB, Depends: $depends" >&2

if [ "$run_lintian" = yes ]; then
  command -v lintian >/dev/null || die "lintian is missing (scripts/install-deps.sh installs it)"
  lintian --fail-on error,warning --display-info "$deb" >&2
fi
