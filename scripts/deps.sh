#!/bin/sh
# scripts/deps.sh - make sure every Debian package the project uses is here.
#
#   scripts/deps.sh check     install what is missing when root, otherwise
#                             print the exact apt-get line and fail
#   scripts/deps.sh install   the same, plus the optional packages below
#                             (`make deps`)
#
# gnu-efi for arm64 cannot be installed beside the amd64 one; boot/efi/efi.mk
# downloads and unpacks it under build/ (it needs the arm64 foreign
# architecture, which this script adds when root). gnuplot-nox draws the
# benchmark plots (scripts/bench_report.py); about 3.5 MB, no X11.
# newlib-source is the tarball lib/user/newlib.mk builds the user C library from.
# device-tree-compiler (dtc) builds the test devicetrees in tests/dtb/.
# clang-format (14 in Debian 12, what .clang-format is written for) is
# `make format` and CI's `make check-format`.
# ccache lets the kernel variants make test builds share their compiles.
# frama-c-base (Frama-C 25: EVA and WP), why3 and the provers z3 and cvc4 are
# make verify's (docs/verification.md), which make test runs.
# chromium renders make bench's build/bench/index.html in a host test
# (tests/host/test_bench_html.py: the page loads, every image decodes, no
# table is empty); about 300 MB with its libraries.
# Optional (OPTIONAL, installed by `make deps` only, never required): none.
# make image BOARD=rpi4 fetches the Raspberry Pi 4's U-Boot (u-boot-rpi), TF-A
# (arm-trusted-firmware) and devicetree (from the arm64 kernel package) the
# same way, unpacked under build/rpi4-firmware by boot/rpi/fetch.sh (the same
# arm64 foreign architecture); nothing more to install.
set -eu

PACKAGES="make gcc libc6-dev python3 git
gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu
gcc-riscv64-linux-gnu binutils-riscv64-linux-gnu
qemu-system-x86 qemu-system-arm qemu-system-misc
gnu-efi ovmf qemu-efi-aarch64 opensbi u-boot-qemu
mtools gdb-multiarch newlib-source device-tree-compiler
gnuplot-nox clang-format chromium ccache
frama-c-base why3 z3 cvc4"
OPTIONAL=""

# Firmware files the boot paths load, and the package each comes from.
FIRMWARE="/usr/share/OVMF/OVMF_CODE_4M.fd:ovmf
/usr/share/OVMF/OVMF_VARS_4M.fd:ovmf
/usr/share/AAVMF/AAVMF_CODE.fd:qemu-efi-aarch64
/usr/share/AAVMF/AAVMF_VARS.fd:qemu-efi-aarch64
/usr/lib/u-boot/qemu_arm64/u-boot.bin:u-boot-qemu
/usr/lib/u-boot/qemu-riscv64_smode/u-boot.bin:u-boot-qemu
/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin:opensbi"

missing=""
wanted=$PACKAGES
if [ "${1:-check}" = install ] && [ "$(id -u)" = 0 ]; then
    for p in $OPTIONAL; do
        if apt-cache show "$p" >/dev/null 2>&1; then
            wanted="$wanted $p"
        else
            echo "deps: optional package $p is not in this system's Debian archive: skipped"
        fi
    done
fi
for p in $wanted; do
    if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
need_arm64=0
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    need_arm64=1
fi

if [ -n "$missing" ] || [ "$need_arm64" = 1 ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "deps: installing:$missing"
        [ "$need_arm64" = 1 ] && dpkg --add-architecture arm64
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
    else
        echo "deps: missing Debian packages. Run as root:" >&2
        [ "$need_arm64" = 1 ] && echo "  dpkg --add-architecture arm64" >&2
        echo "  apt-get update && apt-get install -y --no-install-recommends$missing" >&2
        exit 1
    fi
fi

status=0
for entry in $FIRMWARE; do
    file=${entry%%:*}
    pkg=${entry##*:}
    if [ ! -e "$file" ]; then
        echo "deps: firmware $file is missing: install the Debian package '$pkg'" >&2
        status=1
    fi
done
exit $status
