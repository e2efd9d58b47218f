#!/bin/sh
# scripts/newlib.sh TARBALL TARGET CROSS_COMPILE PREFIX JOBS CFLAGS...
#
# with NEWLIB_CONFIGURE (the configure options) in the environment.
#
# Build newlib (libc.a, libm.a and the headers, no libgloss) from Debian's
# newlib-source tarball for one arch and install it into PREFIX, which is
# named after the cache key (lib/user/newlib.mk). The build runs in
# PREFIX.tmp and PREFIX appears only when everything succeeded, so an
# interrupted build is simply started again. Older builds for the same arch
# (other keys) are removed: the cache holds one per arch.
set -eu
tarball=$1 target=$2 cross=$3 prefix=$4 jobs=$5
shift 5
cflags="$*"
tmp=$prefix.tmp
rm -rf "$tmp" "$prefix"
mkdir -p "$tmp/src" "$tmp/build"
start=$(date +%s)
tar -xf "$tarball" -C "$tmp/src" --strip-components=1
cd "$tmp/build"
# shellcheck disable=SC2086 # NEWLIB_CONFIGURE is a list of options
../src/configure --target="$target" --prefix="$prefix" $NEWLIB_CONFIGURE \
    CC_FOR_TARGET="${cross}gcc" AS_FOR_TARGET="${cross}as" LD_FOR_TARGET="${cross}ld" \
    AR_FOR_TARGET="${cross}ar" RANLIB_FOR_TARGET="${cross}ranlib" NM_FOR_TARGET="${cross}nm" \
    OBJDUMP_FOR_TARGET="${cross}objdump" STRIP_FOR_TARGET="${cross}strip" \
    READELF_FOR_TARGET="${cross}readelf" CFLAGS_FOR_TARGET="$cflags" >configure.log 2>&1 ||
    { tail -20 configure.log; exit 1; }
make -j"$jobs" all-target-newlib >build.log 2>&1 || { tail -40 build.log; exit 1; }
make install-target-newlib >install.log 2>&1 || { tail -20 install.log; exit 1; }
cd /
# Installed as $prefix/$target/{include,lib}; flatten to $prefix/{include,lib}.
mv "$prefix/$target/include" "$prefix/$target/lib" "$tmp/"
rm -rf "$prefix" "$tmp/src" "$tmp/build"
mkdir -p "$prefix"
mv "$tmp/include" "$tmp/lib" "$prefix/"
rmdir "$tmp"
name=$(basename "$prefix")
for old in "$(dirname "$prefix")/${name%%-*}"-*; do
    [ "$old" = "$prefix" ] || rm -rf "$old"
done
echo "  NEWLIB  $target built in $(($(date +%s) - start)) s: $prefix"
