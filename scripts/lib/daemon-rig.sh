# shellcheck shell=bash
# The daemon rig shared by scripts/memory.sh and scripts/soak.sh --daemon: fairfueld on a
# throw-away store, fed by `fairfuel sim` on a pseudo-terminal, measured from outside through the
# kernel's own accounting. Source it; it defines functions only.

# rig_begin NAME: a scratch directory ($work, under /tmp) removed at exit, with every process in
# $children stopped and every directory in $children_dirs removed too.
rig_begin() {
  work=$(mktemp -d "/tmp/$1.XXXXXX")
  children=()
  children_dirs=()
  trap rig_end EXIT
}
rig_end() {
  local pid
  for pid in "${children[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work" "${children_dirs[@]}"
}

# VmRSS RssAnon RssFile Threads Pss Pss_Anon of PID, in KiB (/proc/PID/status, smaps_rollup).
rig_measure() {
  awk '/^VmRSS:/ { r = $2 } /^RssAnon:/ { a = $2 } /^RssFile:/ { f = $2 } /^Threads:/ { t = $2 }
       END { printf "%d %d %d %d", r, a, f, t }' "/proc/$1/status"
  awk '/^Pss:/ { p = $2 } /^Pss_Anon:/ { pa = $2 } END { printf " %d %d\n", p, pa }' "/proc/$1/smaps_rollup"
}

# rig_provision CLI DB SCENARIO: the family, provisioned from the scenario's driver lines (UID,
# driver URI, beacon), as the demo does.
rig_provision() {
  local cli=$1 db=$2 scenario=$3 name uid rest
  while read -r _ name _ _ uid rest; do
    local arguments=(provision driver add "$name" --db "$db" --tag "$uid")
    # shellcheck disable=SC2086  # rest is `uri URI beacon SPEC`
    set -- $rest
    while [ $# -ge 2 ]; do
      case "$1" in
        uri) arguments+=(--tag "$2") ;;
        beacon) [ "$2" = none ] || arguments+=(--beacon "$2") ;;
      esac
      shift 2
    done
    "$cli" "${arguments[@]}" >/dev/null
  done < <(grep '^driver ' "$scenario")
}

# rig_board SOURCE OUT GROUP [UPLINK_URL]: the board profile as the virtual MCU needs it (it says it
# is a rev B, on USB, as in `fairfuel demo`), the control socket's group, and an [uplink] table
# when a broker's URL is given.
rig_board() {
  sed -e 's/^mcu_board = .*/mcu_board = "fairfuel-rev-b"/' -e "s/^group = .*/group = \"$3\"/" "$1" >"$2"
  [ -z "${4:-}" ] || printf '\n[uplink]\nurl = "%s"\n' "$4" >>"$2"
}

# The control socket's group is looked up with getgrnam: on a board the package made it
# (sysusers), so /etc/group answers; where it does not exist, glibc would go on to the next NSS
# module (libnss_systemd, 0.3 MB resident) as no board does. This machine's own group stands in.
rig_group() {
  if getent group fairfuel >/dev/null; then echo fairfuel; else id -gn; fi
}

# rig_start_daemon CLI DAEMON BOARD LINK DB CONTROL ERRFILE [ENV...]: starts fairfueld in the
# background (RIG_DAEMON_PID) and waits until its control socket answers.
rig_start_daemon() {
  local cli=$1 daemon=$2 board=$3 link=$4 db=$5 control=$6 errors=$7
  shift 7
  "$@" "$daemon" --board "$board" --port "$link" --db "$db" --control "$control" 2>"$errors" &
  RIG_DAEMON_PID=$!
  for _ in $(seq 100); do
    "$cli" status --control "$control" >/dev/null 2>&1 && return 0
    kill -0 "$RIG_DAEMON_PID" 2>/dev/null || { cat "$errors" >&2; return 1; }
    sleep 0.1
  done
  echo "fairfueld did not answer on $control within 10 s" >&2
  return 1
}

# rig_mosquitto DIR: a Mosquitto broker on loopback and a free port (RIG_MQTT_PID, RIG_MQTT_PORT),
# anonymous, in memory only.
rig_mosquitto() {
  local dir=$1
  RIG_MQTT_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$RIG_MQTT_PORT" >"$dir/mosquitto.conf"
  mosquitto -c "$dir/mosquitto.conf" >"$dir/mosquitto.log" 2>&1 &
  RIG_MQTT_PID=$!
  for _ in $(seq 50); do
    (exec 3<>"/dev/tcp/127.0.0.1/$RIG_MQTT_PORT") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "mosquitto did not listen on $RIG_MQTT_PORT:" >&2
  cat "$dir/mosquitto.log" >&2
  return 1
}

# rig_uplink DIR: with UPLINK=1, a broker on loopback for the daemon to send to (its pid joins
# `children`, stopped at the end); RIG_UPLINK_URL is its URL, empty without UPLINK=1.
rig_uplink() {
  RIG_UPLINK_URL=""
  [ "${UPLINK:-0}" = 1 ] || return 0
  rig_mosquitto "$1" || return 1
  children+=("$RIG_MQTT_PID")
  RIG_UPLINK_URL="mqtt://127.0.0.1:$RIG_MQTT_PORT"
}
