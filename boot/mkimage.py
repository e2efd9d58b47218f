#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""boot/mkimage.py - write the bootable disk image for one architecture.

The image is what a user would `dd` to a USB stick or SD card: an MBR
partition table with one FAT32 partition (type 0xEF, EFI system partition,
marked bootable) holding, as the arch needs:

  EFI/BOOT/BOOTX64.EFI or BOOTAA64.EFI   the UEFI loader (boot/efi/)
  stackshift/kernel.elf                  the kernel the UEFI loader reads
  stackshift/cmdline.txt                 the command line for the UEFI path
  stackshift/Image                       the Linux-style Image for U-Boot booti
  extlinux/extlinux.conf                 U-Boot distro boot configuration
  anything --file SRC=DEST adds          a board's firmware (make image BOARD=rpi4:
                                         config.txt, u-boot.bin, bl31.bin, the DTB)

The FAT file system is made and filled with mtools (mformat, mmd, mcopy),
which work on an image file without mounting it; the partition table is
written here (MBR layout: UEFI 2.10 section 5.2.1).

  mkimage.py --arch A --out disk.img --kernel kernel.elf [--efi X.EFI]
             [--image Image] --cmdline "..." [--file SRC=DEST ...]
             [--part-type 0x0c] [--volume LABEL]
  mkimage.py --set-cmdline disk.img "..."   rewrite the command line files
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile

SECTOR = 512
DISK_MB = 64
PART_START = 2048  # sectors: 1 MiB, the usual alignment
EFI_NAMES = {"x86_64": "BOOTX64.EFI", "arm64": "BOOTAA64.EFI", "riscv64": "BOOTRISCV64.EFI"}
HERE = os.path.dirname(os.path.abspath(__file__))


def mbr(total_sectors, part_type=0xEF):
    """A protective-free, plain MBR with one bootable partition: 0xEF (EFI
    system partition) by default; a Raspberry Pi's firmware looks for FAT
    types such as 0x0C (FAT32 with LBA)."""
    count = total_sectors - PART_START
    entry = struct.pack("<B3sB3sII", 0x80, b"\xfe\xff\xff", part_type, b"\xfe\xff\xff",
                        PART_START, count)
    return bytes(446) + entry + bytes(48) + b"\x55\xaa"


def mtools(*args):
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    subprocess.run(list(args), check=True, env=env, stdout=subprocess.DEVNULL)


def fat_target(image):
    return f"{image}@@{PART_START * SECTOR}"


def put_file(image, data_or_path, dest, is_data=False):
    if is_data:
        with tempfile.NamedTemporaryFile("wb", delete=False) as f:
            f.write(data_or_path)
            src = f.name
    else:
        src = data_or_path
    try:
        mtools("mcopy", "-o", "-i", fat_target(image), src, "::" + dest)
    finally:
        if is_data:
            os.unlink(src)


def extlinux_conf(cmdline):
    with open(os.path.join(HERE, "uboot", "extlinux.conf.in")) as f:
        return f.read().replace("@CMDLINE@", cmdline).encode()


def set_cmdline(image, cmdline, has_extlinux):
    put_file(image, (cmdline + "\n").encode(), "/stackshift/cmdline.txt", is_data=True)
    if has_extlinux:
        put_file(image, extlinux_conf(cmdline), "/extlinux/extlinux.conf", is_data=True)


def build(args):
    total = DISK_MB * 1024 * 1024 // SECTOR
    tmp = args.out + ".tmp"
    with open(tmp, "wb") as f:
        f.truncate(total * SECTOR)
        f.write(mbr(total, int(args.part_type, 0)))
    mtools("mformat", "-i", fat_target(tmp), "-F", "-v", args.volume,
           "-T", str(total - PART_START), "-h", "64", "-s", "32", "-H", str(PART_START), "::")
    mtools("mmd", "-i", fat_target(tmp), "::/stackshift")
    put_file(tmp, args.kernel, "/stackshift/kernel.elf")
    if args.efi:
        mtools("mmd", "-i", fat_target(tmp), "::/EFI", "::/EFI/BOOT")
        put_file(tmp, args.efi, "/EFI/BOOT/" + EFI_NAMES[args.arch])
    if args.image:
        mtools("mmd", "-i", fat_target(tmp), "::/extlinux")
        put_file(tmp, args.image, "/stackshift/Image")
    set_cmdline(tmp, args.cmdline, bool(args.image))
    for spec in args.file:
        src, dest = spec.split("=", 1)
        make_dirs(tmp, dest)
        put_file(tmp, src, "/" + dest)
    os.replace(tmp, args.out)
    kind = "FAT32 ESP" if int(args.part_type, 0) == 0xEF else f"FAT32, type {args.part_type}"
    print(f"  DISK    {args.out} ({DISK_MB} MiB, {kind})")


def make_dirs(image, dest):
    """The folders a --file destination needs, each made once."""
    listing = subprocess.run(["mdir", "-/", "-b", "-i", fat_target(image), "::/"],
                             capture_output=True, text=True,
                             env=dict(os.environ, MTOOLS_SKIP_CHECK="1")).stdout
    have = {line.strip().rstrip("/").lower() for line in listing.splitlines()}
    parts = dest.split("/")[:-1]
    for i in range(1, len(parts) + 1):
        folder = "::/" + "/".join(parts[:i])
        if folder.lower() not in have:
            mtools("mmd", "-i", fat_target(image), folder)
            have.add(folder.lower())


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--arch", choices=sorted(EFI_NAMES))
    p.add_argument("--out")
    p.add_argument("--kernel")
    p.add_argument("--efi")
    p.add_argument("--image")
    p.add_argument("--cmdline", default="")
    p.add_argument("--file", action="append", default=[], metavar="SRC=DEST",
                   help="also copy SRC to DEST on the FAT partition (folders made as needed)")
    p.add_argument("--part-type", default="0xef", help="MBR partition type (default 0xef)")
    p.add_argument("--volume", default="STACKSHIFT", help="FAT volume label")
    p.add_argument("--set-cmdline", nargs=2, metavar=("IMAGE", "CMDLINE"))
    args = p.parse_args()
    if args.set_cmdline:
        image, cmdline = args.set_cmdline
        listing = subprocess.run(["mdir", "-b", "-i", fat_target(image), "::/"],
                                 capture_output=True, text=True,
                                 env=dict(os.environ, MTOOLS_SKIP_CHECK="1")).stdout
        set_cmdline(image, cmdline, "extlinux" in listing)
        return
    if not (args.arch and args.out and args.kernel):
        p.error("--arch, --out and --kernel are required")
    build(args)


if __name__ == "__main__":
    sys.exit(main())
