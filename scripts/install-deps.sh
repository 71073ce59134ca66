#!/usr/bin/env bash
# Installs the Debian packages FairFuel builds and tests against, if missing.
# Safe to run again; uses sudo when not root.
set -euo pipefail

packages=(
  pkg-config
  libserialport-dev   # the MCU serial link (real UARTs and USB CDC ports)
  libgps-dev          # GNSS through a local gpsd
  libsqlite3-dev      # the trip store
  libssl-dev          # libcrypto (HMAC-SHA256, dlopen'ed by usb-serve and pull; the dongle needs only libssl3)
  gpsd                # the real daemon, started by the tests on a pseudo-terminal
  socat               # pseudo-terminal pairs between processes in the tests
  libxml2-utils       # xmllint: the GPX export is checked against the GPX 1.1 schema
  chromium            # headless rendering of the HTML report in its test
  dpkg-dev            # dpkg-shlibdeps and strip: scripts/build-deb.sh computes the package's Depends
  chrpath             # drops SwiftPM's RUNPATH $ORIGIN from the packaged binaries
  help2man            # fairfuel(1) and fairfueld(8), generated from the commands' --help
  lintian             # the package's check (scripts/build-deb.sh --lintian)
  debootstrap         # the throw-away bookworm root of the install test (scripts/test-deb-install.sh)
  libmosquitto-dev    # the MQTT uplink's client (libmosquitto, TLS through OpenSSL)
  mosquitto           # the real broker, started by the tests on loopback
  mosquitto-clients   # mosquitto_sub: an independent subscriber in the tests
  openssl             # the TLS tests make their CA, server and client certificates
  curl                # the web app's HTTPS test fetches a page verifying the server's certificate
  python3             # scripts/check-layers.sh reads the manifest's JSON (CI runs it before the tests)
  tzdata              # /usr/share/zoneinfo: the time zone tests, and `vehicle set --time-zone` on the dongle
  chromium-driver     # the web app's browser test drives headless chromium through it (scripts/test-web.sh)
  wrk                 # the web app's load benchmark (scripts/bench-web.sh)
  libjpeg-turbo-progs # djpeg decodes the stored receipt photos in their test; cjpeg makes scripts/bench-receipt-uploads.sh's photo
  postgresql          # the hub's database on PostgreSQL: initdb and pg_ctl, started by the tests in a temporary directory
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
echo "Installing: ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
