#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/uboot_env.py - U-Boot's environment in flash, with bootdelay=0.

  scripts/uboot_env.py U-BOOT.BIN OUT [--env-size BYTES] [--flash-size BYTES]

A board keeps U-Boot's environment in flash: `setenv bootdelay 0; saveenv`
writes it there once, and from then on U-Boot boots without its 2-second
"Hit any key to stop autoboot" countdown. This writes the image that
command would leave in QEMU virt's second flash bank (U-Boot qemu_arm64
reads its environment from the start of that bank): U-Boot's built-in
default environment, copied out of u-boot.bin, with bootdelay=0.

The stored form (U-Boot, doc "Environment Variables", env/common.c): a
little-endian CRC-32 of the data, then the data, "name=value" strings each
ended by a NUL, a second NUL after the last, padded with NULs to the
environment's size. U-Boot falls back to its default (and says "bad CRC")
if the CRC does not match, so a wrong image costs the 2 s, not the boot.
"""
import argparse
import os
import struct
import sys
import zlib

# The first variable of the built-in default environment, as U-Boot's
# include/env_default.h orders it when the board sets a boot command.
FIRST = b"bootcmd="


def default_env(firmware):
    """The built-in environment's variables, as bytes "name=value"."""
    start = firmware.find(FIRST)
    if start < 0:
        sys.exit("uboot_env: no default environment (no 'bootcmd=') in the firmware")
    end = firmware.find(b"\0\0", start)
    return firmware[start:end].split(b"\0")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("firmware")
    ap.add_argument("out")
    ap.add_argument("--env-size", type=int, default=0x40000)        # CONFIG_ENV_SIZE
    ap.add_argument("--flash-size", type=int, default=64 << 20)     # QEMU virt's bank
    args = ap.parse_args()
    with open(args.firmware, "rb") as f:
        env = [v for v in default_env(f.read()) if not v.startswith(b"bootdelay=")]
    data = b"\0".join(env + [b"bootdelay=0"]) + b"\0\0"
    if len(data) > args.env_size - 4:
        sys.exit(f"uboot_env: {len(data)} bytes do not fit in {args.env_size}")
    data = data.ljust(args.env_size - 4, b"\0")
    image = struct.pack("<I", zlib.crc32(data)) + data
    # Written aside, then renamed: boots started at once may each make it.
    tmp = f"{args.out}.{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(image.ljust(args.flash_size, b"\xff"))  # erased flash reads 0xff
    os.replace(tmp, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
