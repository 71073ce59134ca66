#!/usr/bin/env bash
# Install test of the Debian package, in a throw-away Debian 12 (bookworm) chroot made by
# debootstrap: apt install (dependencies resolved), `fairfuel version`, the user and the
# directories, `systemd-analyze verify` of the installed units, an upgrade over itself with
# a locally changed conffile kept, remove (store and conffile kept), purge (nothing left
# but the fairfuel user and group, which Debian policy leaves), lintian on the package.
#
#   sudo scripts/test-deb-install.sh [DEB]     # DEB: default, scripts/build-deb.sh builds one
#
# Skips (exit 0, with a message) when not root, without debootstrap, or without the Debian
# mirror. The chroot lives under a temporary directory, removed at the end; the minbase root
# file system is cached as a tarball in .build/debootstrap (FAIRFUEL_DEBOOTSTRAP_CACHE) for
# the next run. The only mount (/proc, for the chroot's commands) lives in a private mount
# namespace and dies with it: the CI machine is left as it was.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
mirror="${FAIRFUEL_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
cache="${FAIRFUEL_DEBOOTSTRAP_CACHE:-$root/.build/debootstrap}"
started=$SECONDS

passed=0
say() { echo "test-deb-install: $*" >&2; }
skip() { echo "test-deb-install: SKIPPED: $*"; echo "deb-install: 0 passed, 0 failed, 1 skipped"; exit 0; }
fail() { echo "test-deb-install: FAILED: $*" >&2; echo "deb-install: $passed passed, 1 failed"; exit 1; }
check() { local what="$1"; shift; if "$@"; then passed=$((passed + 1)); say "ok: $what"; else fail "$what"; fi; }

[ "$(id -u)" -eq 0 ] || skip "needs root (a chroot); run as root, as CI does"
command -v unshare >/dev/null || skip "unshare (util-linux) is missing"
command -v debootstrap >/dev/null || skip "debootstrap is not installed (scripts/install-deps.sh installs it)"
host="${mirror#*://}"; host="${host%%/*}"
timeout 10 bash -c "exec 3<>/dev/tcp/$host/80" 2>/dev/null || skip "the Debian mirror $host is unreachable"

deb="${1:-}"
if [ -z "$deb" ]; then
  deb="$("$root/scripts/build-deb.sh" --lintian)"
  say "package built and linted in $((SECONDS - started)) s"
fi
[ -f "$deb" ] || fail "no package $deb"
deb="$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")"
arch="$(dpkg-deb -f "$deb" Architecture)"
version="$(dpkg-deb -f "$deb" Version)"
[ "$arch" = "$(dpkg --print-architecture)" ] || skip "a $arch package cannot be installed on this $(dpkg --print-architecture) machine"

work="$(mktemp -d /tmp/fairfuel-deb-test.XXXXXX)"
[ "${FAIRFUEL_KEEP_CHROOT:-}" = 1 ] || trap 'rm -rf "$work"' EXIT
chroot_dir="$work/root"
# Each command runs in its own mount namespace with /proc mounted in the chroot (Swift reads its
# arguments from /proc/self/cmdline); the mount dies with the namespace, even on a crash.
in_root() {
  unshare --mount --propagation private -- sh -c 'mount -t proc proc "$0/proc" && exec chroot "$0" "$@"' \
    "$chroot_dir" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"
}
apt_in_root() { in_root apt-get -y -q -o Dpkg::Use-Pty=0 "$@" >>"$work/apt.log" 2>&1 || { tail -30 "$work/apt.log" >&2; fail "apt-get $*"; }; }

# A bookworm minbase root with systemd and dbus (as on a Pi: systemd-sysusers, systemd-tmpfiles, the
# units' targets, and systemd's dbus, which apt would otherwise add as a Recommends and keep; procps
# for the unit's /bin/kill), debootstrapped once, then unpacked
# from the cached tarball. systemd is installed, not running: nothing is started.
tarball="$cache/bookworm-minbase-systemd-$arch.tar.gz"
phase=$SECONDS
mkdir -p "$chroot_dir"
if [ ! -f "$tarball" ]; then
  say "debootstrap bookworm (minbase) from $mirror..."
  debootstrap --variant=minbase --include=systemd,procps,dbus --arch="$arch" bookworm "$chroot_dir" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; skip "debootstrap failed (network?)"; }
  rm -rf "$chroot_dir"/var/cache/apt/archives/*.deb
  mkdir -p "$cache"
  tar -C "$chroot_dir" -czf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
else
  tar -C "$chroot_dir" -xzf "$tarball"
fi
cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
say "root file system ready in $((SECONDS - phase)) s"
apt_in_root update

# What the root holds before: every path and the content of /etc, to compare after the purge.
snapshot() {
  (cd "$chroot_dir" && find . -xdev \( -path ./var/lib/apt -o -path ./var/cache -o -path ./var/log -o -path ./tmp \
    -o -path ./var/lib/dpkg -o -path ./proc -o -path ./dev \) -prune -o -print | sort)
}
snapshot > "$work/before.txt"

# 1. Install with apt: the dependencies dpkg-shlibdeps computed come from the mirror.
phase=$SECONDS
cp "$deb" "$chroot_dir/tmp/"
apt_in_root install "/tmp/$(basename "$deb")"
say "installed with its dependencies in $((SECONDS - phase)) s"
in_root /usr/bin/fairfuel version > "$work/version.txt" 2>&1 || { cat "$work/version.txt" >&2; fail "fairfuel version"; }
sed 's/^/  /' "$work/version.txt" >&2
check "fairfuel version runs (the C libraries resolved)" grep -q "^fairfuel $version " "$work/version.txt"
check "fairfueld --version" [ "$(in_root /usr/sbin/fairfueld --version)" = "fairfueld $version" ]
status=0; in_root /usr/sbin/fairfueld --bogus 2>/dev/null || status=$?
check "fairfueld refuses a bad option with status 64" [ "$status" -eq 64 ]
check "the fairfuel user and group exist" in_root getent passwd fairfuel >/dev/null
check "/var/lib/fairfuel is fairfuel's, 0750" [ "$(in_root stat -c '%U:%G %a' /var/lib/fairfuel)" = "fairfuel:fairfuel 750" ]
check "the conffile is the board profile" cmp -s "$chroot_dir/etc/fairfuel/fairfuel.toml" "$root/boards/pi-zero-2w.toml"
check "fairfuel.service is enabled" [ -L "$chroot_dir/etc/systemd/system/multi-user.target.wants/fairfuel.service" ]
check "the man pages are there" [ -s "$chroot_dir/usr/share/man/man8/fairfueld.8.gz" ]
check "fairfuel(1) has the web app's section" bash -c 'zcat "$0" | grep -q "^\.SH \"WEB APP\""' "$chroot_dir/usr/share/man/man1/fairfuel.1.gz"
for file in lib/systemd/system/fairfuel-web.socket lib/systemd/system/fairfuel-web.service lib/systemd/system/fairfuel-web-proxy.service \
            etc/avahi/services/fairfuel-web.service usr/share/doc/fairfuel/web.md.gz usr/share/doc/fairfuel/openapi.json.gz; do
  check "/$file is installed" [ -s "$chroot_dir/$file" ]
done
check "fairfuel-web.socket is enabled" [ -L "$chroot_dir/etc/systemd/system/sockets.target.wants/fairfuel-web.socket" ]
check "the Avahi file is a conffile" bash -c 'dpkg-deb -I "$0" conffiles | grep -qx /etc/avahi/services/fairfuel-web.service' "$deb"
# The uplink: libmosquitto1 (loaded with dlopen) is recommended, so apt installed it; the unit hands
# the service its broker password (LoadCredential=) and lets it reach a broker off the loopback.
check "the control file Recommends libmosquitto1" bash -c 'dpkg-deb -f "$0" Recommends | tr -d " " | tr "," "\n" | grep -qx libmosquitto1' "$deb"
check "apt installed the recommended libmosquitto1" [ "$(in_root dpkg-query -W -f='${Status}' libmosquitto1 2>/dev/null)" = "install ok installed" ]
unit="$chroot_dir/lib/systemd/system/fairfuel.service"
check "the unit loads the uplink's credentials" grep -qx "LoadCredential=mqtt:/etc/fairfuel/mqtt.credentials" "$unit"
check "the unit does not confine IP to the loopback" bash -c '! grep -q "^IPAddressDeny=" "$0"' "$unit"

# 2. The installed units, as systemd reads them from the installed tree.
if command -v systemd-analyze >/dev/null; then
  if systemd-analyze verify --man=no --root="$chroot_dir" fairfuel.service fairfuel-usb-pull.service \
       fairfuel-web.socket fairfuel-web.service fairfuel-web-proxy.service >"$work/verify.log" 2>&1 \
     && ! grep -q "fairfuel" "$work/verify.log"; then
    passed=$((passed + 1)); say "ok: systemd-analyze verify of the installed units"
  else
    cat "$work/verify.log" >&2; fail "systemd-analyze verify"
  fi
else
  say "systemd-analyze is not on this machine: the installed units were not verified"
fi

# 3. Upgrade over itself (the same package, version +1), a locally edited conffile kept.
echo "# edited by the technician" >> "$chroot_dir/etc/fairfuel/fairfuel.toml"
cp "$chroot_dir/etc/fairfuel/fairfuel.toml" "$work/edited.toml"
echo "store" > "$chroot_dir/var/lib/fairfuel/fairfuel.db"
dpkg-deb -R "$deb" "$work/next"
sed -i "s/^Version: .*/Version: ${version}+test1/" "$work/next/DEBIAN/control"
dpkg-deb --root-owner-group --build "$work/next" "$chroot_dir/tmp/fairfuel_next.deb" >/dev/null
apt_in_root -o Dpkg::Options::=--force-confdef install /tmp/fairfuel_next.deb
check "upgraded to ${version}+test1" [ "$(in_root dpkg-query -W -f='${Version}' fairfuel)" = "${version}+test1" ]
check "the edited conffile is kept across the upgrade" cmp -s "$chroot_dir/etc/fairfuel/fairfuel.toml" "$work/edited.toml"
check "the store is kept across the upgrade" [ -f "$chroot_dir/var/lib/fairfuel/fairfuel.db" ]

# 4. Remove: the programs go, the configuration and the store stay.
apt_in_root remove fairfuel
check "remove: fairfuel is gone" [ ! -e "$chroot_dir/usr/bin/fairfuel" ]
check "remove: fairfueld is gone" [ ! -e "$chroot_dir/usr/sbin/fairfueld" ]
check "remove: the conffile stays" cmp -s "$chroot_dir/etc/fairfuel/fairfuel.toml" "$work/edited.toml"
check "remove: the store stays" [ -f "$chroot_dir/var/lib/fairfuel/fairfuel.db" ]

# 5. Purge (and the libraries apt pulled in): nothing is left but the user and group.
apt_in_root purge --autoremove fairfuel
check "purge: dpkg forgot the package" [ -z "$(in_root dpkg-query -W -f='${Status}' fairfuel 2>/dev/null || true)" ]
check "purge: the store is gone" [ ! -e "$chroot_dir/var/lib/fairfuel" ]
check "purge: /etc/fairfuel is gone" [ ! -e "$chroot_dir/etc/fairfuel" ]
snapshot > "$work/after.txt"
# Allowed to differ: the backups of the user databases that useradd/groupadd leave (passwd-, group-, ...).
left="$(diff "$work/before.txt" "$work/after.txt" | grep '^[<>]' | grep -Ev '^> \./etc/(passwd|group|shadow|gshadow)-$' || true)"
[ -z "$left" ] || { echo "$left" >&2; fail "purge left files behind"; }
passed=$((passed + 1)); say "ok: after the purge the root holds the same files as before"
check "the fairfuel user and group stay (Debian policy: never remove a system user)" in_root getent group fairfuel >/dev/null

echo "test-deb-install: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB) installed, upgraded, removed and purged in $((SECONDS - started)) s"
echo "deb-install: $passed passed, 0 failed"
