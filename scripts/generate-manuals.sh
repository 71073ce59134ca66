#!/usr/bin/env bash
# Generates the man pages fairfuel(1) and fairfueld(8) from the commands' own --help
# (help2man), so that the options are written once, in the code.
#
#   scripts/generate-manuals.sh BIN_DIR VERSION OUT_DIR
#
# BIN_DIR holds fairfuel and fairfueld built for this machine. fairfuel(1) gets a
# COMMANDS section with every subcommand's help (`fairfuel help NAME`).
set -euo pipefail

[ $# -eq 3 ] || { echo "usage: generate-manuals.sh BIN_DIR VERSION OUT_DIR" >&2; exit 2; }
bin_dir="$1"; version="$2"; out="$3"
command -v help2man >/dev/null || { echo "generate-manuals.sh: help2man is missing (scripts/install-deps.sh installs it)" >&2; exit 2; }
mkdir -p "$out"
include="$(mktemp)"
trap 'rm -f "$include"' EXIT

# The subcommands, from the SUBCOMMANDS block of the top-level help.
subcommands="$("$bin_dir/fairfuel" --help | awk '/^SUBCOMMANDS:/ {on=1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on=0}')"
[ -n "$subcommands" ] || { echo "generate-manuals.sh: no subcommands in fairfuel --help" >&2; exit 1; }
{
  echo "[COMMANDS]"
  for name in $subcommands; do
    echo ".SS \"fairfuel $name\""
    echo ".nf"
    # roff: a leading dot or quote would be read as a request; backslashes escaped.
    "$bin_dir/fairfuel" help "$name" | sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"
    echo ".fi"
  done
  cat <<'TEXT'
[FILES]
.TP
.I /etc/fairfuel/fairfuel.toml
the board profile (a conffile; the profiles shipped are in /usr/share/fairfuel/boards)
.TP
.I /var/lib/fairfuel/fairfuel.db
the trip store (\-\-db or $FAIRFUEL_DB choose another)
.TP
.I /run/fairfuel/control.sock
the running service's control socket
.TP
.I /lib/systemd/system/fairfuel-web.socket
the web app's port (80): the first connection starts
.B fairfuel-web.service
(\fBfairfuel web\fR on 127.0.0.1:8080, the profile's [web]) through
.BR fairfuel-web-proxy.service ;
the app exits after [web] idle_exit_s without a request
.TP
.I /etc/avahi/services/fairfuel-web.service
advertises the web app on the home network as "FairFuel <host>" (_http._tcp)
[WEB APP]
.B fairfuel web
serves the family's phone-first pages and /api/v1 on the car's store. Nobody can log in until
.B fairfuel web user add NAME \-\-role family
has given them a password (read from standard input). The [web] table of the board profile gives
the address, the upload limit and the idle exit; see
.I /usr/share/doc/fairfuel/web.md.gz
(installed with the package's documentation).
[SEE ALSO]
.BR fairfueld (8),
.BR systemctl (1),
.BR journalctl (1)
TEXT
} > "$include"

help2man --no-info --section=1 --version-string="$version" --include="$include" \
  --name="who drove, how far, and who owes what at the pump" --output="$out/fairfuel.1" "$bin_dir/fairfuel"

cat > "$include" <<'TEXT'
[DESCRIPTION]
.B fairfueld
is the FairFuel dongle service, run by
.B fairfuel.service
as user fairfuel. It reads the MCU link, runs the drivers' sessions, measures trips,
keeps the store and answers the
.BR fairfuel (1)
command line on its control socket. It tells systemd when it is ready and pings its watchdog.
[FILES]
.TP
.I /etc/fairfuel/fairfuel.toml
the board profile read when \-\-board is not given
.TP
.I /var/lib/fairfuel/fairfuel.db
the trip store; deleted only by purging the package
.TP
.I /run/fairfuel/control.sock
the control socket
[SEE ALSO]
.BR fairfuel (1),
.BR systemd.service (5)
TEXT
help2man --no-info --section=8 --version-string="$version" --include="$include" \
  --name="the FairFuel in-car dongle service" --output="$out/fairfueld.8" "$bin_dir/fairfueld"
