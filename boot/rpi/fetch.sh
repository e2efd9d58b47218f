#!/bin/sh
# SPDX-License-Identifier: MIT
# boot/rpi/fetch.sh - the Raspberry Pi 4 boot files Debian packages, and the
# Raspberry Pi 3 devicetree QEMU's raspi3b boot uses, fetched and unpacked
# (never installed) into one cached directory.
#
#   boot/rpi/fetch.sh DIR
#
# DIR gets, from Debian's arm64 packages (apt-get download, then dpkg-deb):
#   u-boot.bin               u-boot-rpi: /usr/lib/u-boot/rpi_4/u-boot.bin
#   u-boot-rpi_arm64.bin     u-boot-rpi: /usr/lib/u-boot/rpi_arm64/u-boot.bin, the
#                            64-bit build for the Pi 3 and 4, for BOARD=raspi3b
#   bl31.bin                 arm-trusted-firmware: /usr/lib/arm-trusted-firmware/rpi4/bl31.bin
#   bcm2711-rpi-4-b.dtb      the kernel package linux-image-arm64 depends on:
#                            /usr/lib/linux-image-*/broadcom/bcm2711-rpi-4-b.dtb,
#   bcm2837-rpi-3-b.dtb      the same package's Raspberry Pi 3 Model B tree, for
#                            BOARD=raspi3b (QEMU -dtb); these two are the only
#                            files taken out of it (the package is ~60 MB)
#   VERSIONS                 which package version each came from
# Run again, it does nothing while the files are there. Like boot/efi/efi.mk's
# gnu-efi:arm64, apt-get download needs arm64 as a dpkg foreign architecture
# (scripts/deps.sh adds it when root). Exit status 1, with the reason on
# stderr, when something cannot be fetched.
set -eu

DIR=${1:?usage: boot/rpi/fetch.sh DIR}
DTB=bcm2711-rpi-4-b.dtb
DTB3=bcm2837-rpi-3-b.dtb
if [ -f "$DIR/u-boot.bin" ] && [ -f "$DIR/u-boot-rpi_arm64.bin" ] && [ -f "$DIR/$DTB" ] &&
   [ -f "$DIR/$DTB3" ] &&
   { [ -f "$DIR/bl31.bin" ] || [ -f "$DIR/bl31.bin.missing" ]; }; then
    exit 0
fi
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    echo "rpi: fetching arm64 packages needs the arm64 dpkg architecture. Run once (as root):" >&2
    echo "    dpkg --add-architecture arm64 && apt-get update" >&2
    exit 1
fi
# The kernel package the metapackage currently points at (linux-image-6.1.0-NN-arm64).
KPKG=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null |
       sed -n 's/^ *Depends: \(linux-image-[^:]*\).*/\1/p' | head -n 1)
if [ -z "$KPKG" ]; then
    echo "rpi: apt-cache knows no linux-image-arm64:arm64 (apt-get update?)" >&2
    exit 1
fi

# A private staging folder: two builds fetching at once do not collide.
mkdir -p "$(dirname "$DIR")"
TMP=$(mktemp -d "$DIR.tmp.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
echo "  FETCH   u-boot-rpi arm-trusted-firmware $KPKG (arm64) -> $DIR"
(cd "$TMP" && apt-get -qq -o APT::Sandbox::User="$(id -un)" \
    download u-boot-rpi:arm64 arm-trusted-firmware:arm64 "$KPKG:arm64")
dpkg-deb -x "$TMP"/u-boot-rpi_*_arm64.deb "$TMP/root"
dpkg-deb -x "$TMP"/arm-trusted-firmware_*_arm64.deb "$TMP/root"
# Only the DTB: tar reads the data archive and writes that one member.
dpkg-deb --fsys-tarfile "$TMP/${KPKG}"_*_arm64.deb |
    tar -x -C "$TMP/root" --wildcards "./usr/lib/linux-image-*/broadcom/$DTB" \
        "./usr/lib/linux-image-*/broadcom/$DTB3"

cp "$TMP/root/usr/lib/u-boot/rpi_4/u-boot.bin" "$TMP/u-boot.bin"
cp "$TMP/root/usr/lib/u-boot/rpi_arm64/u-boot.bin" "$TMP/u-boot-rpi_arm64.bin"
if [ -f "$TMP/root/usr/lib/arm-trusted-firmware/rpi4/bl31.bin" ]; then
    cp "$TMP/root/usr/lib/arm-trusted-firmware/rpi4/bl31.bin" "$TMP/bl31.bin"
else
    echo "rpi: arm-trusted-firmware has no rpi4/bl31.bin: the card gets no armstub" >&2
    : > "$TMP/bl31.bin.missing"
fi
cp "$TMP"/root/usr/lib/linux-image-*/broadcom/$DTB "$TMP/$DTB"
cp "$TMP"/root/usr/lib/linux-image-*/broadcom/$DTB3 "$TMP/$DTB3"
for deb in "$TMP"/*.deb; do
    dpkg-deb -f "$deb" Package Version | sed 's/^[A-Za-z]*: //' | paste -sd ' ' >> "$TMP/VERSIONS"
done

rm -rf "$DIR" && mkdir -p "$DIR"
mv "$TMP/u-boot.bin" "$TMP/u-boot-rpi_arm64.bin" "$TMP/$DTB" "$TMP/$DTB3" "$TMP/VERSIONS" "$DIR/"
mv "$TMP"/bl31.bin* "$DIR/"
