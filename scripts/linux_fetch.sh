#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/linux_fetch.sh ARCH... - Debian's own Linux kernel, for the Linux
# rows of `make bench LINUX=1` and for `make conformance-linux`.
#
# For each ARCH (x86_64, arm64) it fetches, with `apt-get download` from the
# machine's Debian archive, the image package that linux-image-<debarch>
# resolves to and that version's linux-headers packages (plus the
# arch-independent -common part and the host's linux-kbuild, whose host
# tools build modules for either arch), and unpacks them under build/linux/:
#
#   build/linux/<arch>/vmlinuz     the kernel QEMU boots (-kernel)
#   build/linux/<arch>/config      its configuration
#   build/linux/<arch>/release     its version string (6.1.0-NN-amd64)
#   build/linux/<arch>/headers     the tree a module is built against (KDIR)
#   build/linux/debs/              the packages, kept: nothing is fetched twice
#
# Idempotent: a second run changes nothing. The arm64 packages need the
# arm64 foreign architecture in dpkg (scripts/deps.sh adds it when root);
# without it, as another user, the exact commands are printed and it fails.
# Debian 12 ships no riscv64 kernel (the port is not an official release
# architecture there): riscv64 is refused with that reason.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/build/linux
DEBS=$OUT/debs
mkdir -p "$DEBS"

deb_arch() {
    case $1 in
    x86_64) echo amd64 ;;
    arm64) echo arm64 ;;
    riscv64)
        echo "linux_fetch: Debian 12 ships no riscv64 kernel: no Linux rows for riscv64" >&2
        return 1 ;;
    *) echo "linux_fetch: unknown arch $1 (x86_64 or arm64)" >&2; return 1 ;;
    esac
}

# The package a metapackage depends on, e.g. linux-image-6.1.0-57-amd64.
resolve() {
    apt-cache depends "$1" 2>/dev/null | sed -n 's/^ *Depends: \([^ <>:]*\).*/\1/p' |
        grep "^$2" | head -n1
}

download() {
    ( cd "$DEBS" && for p in "$@"; do
        ls "${p%%:*}"_*.deb >/dev/null 2>&1 || apt-get download -q "$p" >/dev/null 2>&1 || {
            echo "linux_fetch: apt-get download $p failed; run: apt-get update" >&2
            exit 1
        }
    done )
}

unpack() {
    arch=$1
    da=$(deb_arch "$arch")
    dest=$OUT/$arch
    if [ -s "$dest/vmlinuz" ] && [ -d "$dest/headers" ]; then
        echo "linux_fetch: $arch: $(cat "$dest/release") (cached in build/linux/$arch)"
        return 0
    fi
    q=""
    [ "$da" = "$(dpkg --print-architecture)" ] || q=":$da"
    if [ -n "$q" ] && ! dpkg --print-foreign-architectures | grep -qx "$da"; then
        if [ "$(id -u)" != 0 ]; then
            echo "linux_fetch: Debian's $da packages need the $da architecture. Run as root:" >&2
            echo "  dpkg --add-architecture $da && apt-get update" >&2
            exit 1
        fi
        dpkg --add-architecture "$da"
        apt-get update -qq
    fi
    image=$(resolve "linux-image-$da$q" linux-image-)
    if [ -z "$image" ] && [ "$(id -u)" = 0 ]; then
        apt-get update -qq # a fresh machine's lists may be empty
        image=$(resolve "linux-image-$da$q" linux-image-)
    fi
    if [ -z "$image" ]; then
        echo "linux_fetch: linux-image-$da is not in the apt lists. Run: apt-get update" >&2
        exit 1
    fi
    release=${image#linux-image-}
    common=linux-headers-$(echo "$release" | sed 's/-[a-z0-9]*$//')-common
    kbuild=$(resolve "linux-headers-$release" linux-kbuild-)
    download "$image$q" "linux-headers-$release$q" "$common" "$kbuild"
    tmp=$OUT/tmp-$arch
    rm -rf "$tmp" && mkdir -p "$tmp"
    # Of the image only /boot (its modules are not used: 400 MB unpacked).
    dpkg-deb --fsys-tarfile "$DEBS/$image"_*.deb | tar -x -C "$tmp" ./boot
    for p in "linux-headers-$release" "$common" "$kbuild"; do
        dpkg-deb -x "$DEBS/$p"_*.deb "$tmp"
    done
    # The headers' Makefile includes the -common tree by absolute path:
    # point it at the unpacked copy (scripts/ and tools/ are relative links
    # to the host's linux-kbuild, which builds for either arch).
    src=$tmp/usr/src/linux-headers-$release
    sed -i "s|/usr/src/|$tmp/usr/src/|" "$src/Makefile"
    rm -rf "$dest" && mkdir -p "$dest"
    mv "$tmp" "$dest/root"
    ln -s "root/usr/src/linux-headers-$release" "$dest/headers"
    sed -i "s|$tmp/|$dest/root/|" "$dest/headers/Makefile"
    cp "$dest/root/boot/vmlinuz-$release" "$dest/vmlinuz"
    cp "$dest/root/boot/config-$release" "$dest/config"
    echo "$release" > "$dest/release"
    echo "linux_fetch: $arch: $release unpacked in build/linux/$arch"
}

[ $# -gt 0 ] || set -- x86_64 arm64
for a in "$@"; do
    unpack "$a"
done
