#!/usr/bin/env bash
# Runs FairFuel's udev rules through the real udev engine (`udevadm test`)
# against fake devices, without the hardware and without changing the machine:
# everything happens in a private mount namespace, over tmpfs copies of /dev,
# /run, /etc/udev/rules.d and a corner of /sys.
#
#   sudo udev/check-with-udevadm.sh
#
# Prints one line per fake device: what the rules gave it. Exit 77 when it
# cannot run here (not root, no unshare or udevadm, mounts refused).
# UdevRulesTests runs it and checks each line.
set -euo pipefail

rules_dir="$(cd "$(dirname "$0")" && pwd)"

if [[ "${FAIRFUEL_UDEV_NAMESPACE:-}" != 1 ]]; then
    [[ "$(id -u)" == 0 ]] || { echo "skip: needs root (for a private mount namespace)"; exit 77; }
    command -v unshare >/dev/null || { echo "skip: no unshare"; exit 77; }
    command -v udevadm >/dev/null || { echo "skip: no udevadm (apt-get install udev)"; exit 77; }
    FAIRFUEL_UDEV_NAMESPACE=1 exec unshare --mount --propagation private "$0" "$@" \
        || { echo "skip: unshare refused"; exit 77; }
fi

fake_parent=/sys/devices/virtual/bdi  # any sysfs directory will do: a tmpfs hides it
{
    mount -t tmpfs none /run && mkdir -p /run/udev \
        && mount -t tmpfs none /dev && mknod -m 666 /dev/null c 1 3 \
        && mount -t tmpfs none /etc/udev/rules.d \
        && mount -t tmpfs none "$fake_parent"
} 2>/dev/null || { echo "skip: mounts refused in the namespace"; exit 77; }
cp "$rules_dir"/*.rules /etc/udev/rules.d/
# The rules name group "fairfuel"; give this namespace one so GROUP= resolves.
cp /etc/group /run/group && echo "fairfuel:x:990:" >> /run/group && mount --bind /run/group /etc/group

device() {  # path-below-fake-parent subsystem-link uevent-text
    mkdir -p "$fake_parent/$1"
    printf "$3" > "$fake_parent/$1/uevent"
    ln -s "$2" "$fake_parent/$1/subsystem"
}
usb_tty() {  # port vid pid tty minor
    device "$1" /sys/bus/usb 'DEVTYPE=usb_device\n'
    echo "$2" > "$fake_parent/$1/idVendor"
    echo "$3" > "$fake_parent/$1/idProduct"
    device "$1/$1:1.0" /sys/bus/usb 'DEVTYPE=usb_interface\n'
    device "$1/$1:1.0/tty/$4" /sys/class/tty "MAJOR=166\nMINOR=$5\nDEVNAME=$4\n"
    echo "$1/$1:1.0/tty/$4"
}
platform_tty() {  # platform-device tty minor
    device "$1" /sys/bus/platform ''
    device "$1/tty/$2" /sys/class/tty "MAJOR=204\nMINOR=$3\nDEVNAME=$2\n"
    echo "$1/tty/$2"
}

# name | sysfs path of the fake tty
devices=(
    "mcu-rev-b|$(usb_tty 1-1 1209 4646 ttyACM0 0)"
    "dongle-gadget-from-laptop|$(usb_tty 1-2 1209 4647 ttyACM1 1)"
    "ch340|$(usb_tty 1-3 1a86 7523 ttyACM2 2)"
    "ftdi|$(usb_tty 1-4 0403 6001 ttyACM3 3)"
    "linux-gadget-default|$(usb_tty 1-5 0525 a4a7 ttyACM4 4)"
    "pi-zero-2w-uart|$(platform_tty 3f201000.serial ttyAMA0 64)"
    "pi-4-uart|$(platform_tty fe201000.serial ttyAMA0 65)"
    "other-pl011|$(platform_tty 107d001000.serial ttyAMA0 66)"
)
device gadget/tty/ttyGS0 /sys/class/tty 'MAJOR=244\nMINOR=0\nDEVNAME=ttyGS0\n'
devices+=("dongle-gadget-port|gadget/tty/ttyGS0")

for entry in "${devices[@]}"; do
    name="${entry%%|*}"
    out="$(SYSTEMD_DEVICE_VERIFY_SYSFS=0 udevadm test --action=add "$fake_parent/${entry#*|}" 2>&1 || true)"
    property() { grep -E "^$1=" <<<"$out" | tail -n 1 | cut -d= -f2- || true; }
    group="$(grep -oE 'fairfuel[^ ]*\.rules:[0-9]+ GROUP [0-9]+' <<<"$out" | tail -n 1 | awk '{print $3}' || true)"
    mode="$(grep -oE 'fairfuel[^ ]*\.rules:[0-9]+ MODE [0-7]+' <<<"$out" | tail -n 1 | awk '{print $3}' || true)"
    tags="$(property CURRENT_TAGS)"
    uaccess=no
    [[ "$tags" == *:uaccess:* ]] && uaccess=yes
    echo "$name links=$(property DEVLINKS) wants=$(property SYSTEMD_WANTS)" \
        "mm_ignore=$(property ID_MM_DEVICE_IGNORE) group=${group} mode=${mode} uaccess=${uaccess}"
    if grep -qiE 'invalid|unknown key|failed to parse' <<<"$out"; then
        grep -iE 'invalid|unknown key|failed to parse' <<<"$out" | sed 's/^/  rules error: /'
    fi
done
