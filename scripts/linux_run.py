#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/linux_run.py - boot Debian's own Linux kernel in the same QEMU as
stackshift, with a small initramfs of our own, and keep its serial log.

  python3 -m scripts.linux_run --arch ARCH --mode bench|record --log FILE
                       [--args A,B,C] [--name NAME] [--kstack on|off]
                       [--icount 0|1] [--smp N] [--timeout S]

The kernel is build/linux/<arch>/vmlinuz (scripts/linux_fetch.sh). The
initramfs, written here as a gzip'd newc cpio (the format of the kernel's
Documentation/driver-api/early-userspace/buffer-format.rst), holds
/dev/console, /dev (devtmpfs is mounted there), /init (linux/client/, built
by `make linux-client`: `lxmode=` picks the benchmark or the recorder) and,
for the recorder, /kstack_recorder.ko (linux/recorder/, `make
linux-recorder`). The kernel command line adds randomize_kstack_offset=on
or =off. QEMU: the machine, CPU model, memory and -icount settings of the
stackshift rows of `make bench ICOUNT=1` (scripts/bench.py: one CPU,
-icount shift=0,align=off,sleep=off, arm64's 1 GHz generic timer), booted
with -kernel instead of through the firmware: the firmware is long gone
when a system call is timed. The boot goes through tests/harness.py like
every other. Python standard library only.
"""
import argparse
import gzip
import os
import sys

from tests import harness  # the one place that boots QEMU

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ICOUNT = harness.icount_options(0)  # scripts/bench.py's
MACHINE = {
    "x86_64": ("qemu-system-x86_64 -machine q35 -cpu max -device virtio-rng-pci", "ttyS0"),
    "arm64": ("qemu-system-aarch64 -M virt -device virtio-rng-device", "ttyAMA0"),
}
ARM64_CPU = {0: "max", 1: harness.ICOUNT_CPU["arm64"]}


def cpio_entry(name, mode, data=b"", rdev=(0, 0), ino=1):
    """One newc record: a 110-byte ASCII header, the name, the data, each
    padded to 4 bytes."""
    fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(name) + 1, 0]
    head = b"070701" + b"".join(b"%08X" % f for f in fields)
    out = head + name.encode() + b"\0"
    out += b"\0" * (-len(out) % 4) + data
    return out + b"\0" * (-len(out) % 4)


def initramfs(path, files):
    """Write the gzip'd cpio: /dev, /dev/console, then (name, file) pairs."""
    blob = cpio_entry("dev", 0o40755, ino=1) + \
        cpio_entry("dev/console", 0o20600, rdev=(5, 1), ino=2)
    for i, (name, src) in enumerate(files, 3):
        with open(src, "rb") as f:
            blob += cpio_entry(name, 0o100755, f.read(), ino=i)
    blob += cpio_entry("TRAILER!!!", 0, ino=0)
    with gzip.open(path, "wb", compresslevel=6) as f:
        f.write(blob)


def command(arch, kernel, initrd, cmdline, icount, smp):
    """The QEMU command line (a shell string, as harness.boot takes it)."""
    base, console = MACHINE[arch]
    cpu = f" -cpu {ARM64_CPU[icount]}" if arch == "arm64" else ""
    return (f"{base}{cpu} -smp {smp} -m 512M -kernel {kernel} -initrd {initrd} "
            f"-append '{cmdline} console={console}' -nic none -nographic -no-reboot "
            f"-serial mon:stdio -monitor none" + (f" {ICOUNT}" if icount else ""))


def run(arch, mode, log, args="", name="", kstack="on", icount=0, smp=1, timeout=600,
        on_line=None, extra=""):
    """Boot once; the harness's Session (text(), secs, timed_out)."""
    d = os.path.join(ROOT, "build", "linux", arch)
    files = [("init", os.path.join(d, "lxinit"))]
    if mode.startswith("record"):
        files.append(("kstack_recorder.ko", os.path.join(d, "recorder", "kstack_recorder.ko")))
    for _, src in files + [("", os.path.join(d, "vmlinuz"))]:
        if not os.path.exists(src):
            raise SystemExit(f"linux_run: {os.path.relpath(src, ROOT)} is missing: "
                             "make linux-client linux-recorder (scripts/linux_fetch.sh)")
    os.makedirs(os.path.dirname(os.path.abspath(log)), exist_ok=True)
    initrd = log[:-len(".log")] + ".cpio.gz" if log.endswith(".log") else log + ".cpio.gz"
    initramfs(initrd, files)
    cmdline = (f"quiet panic=-1 randomize_kstack_offset={kstack} lxmode={mode}"
               + (f" lxargs={args}" if args else "") + (f" lxname={name}" if name else "")
               + (f" {extra}" if extra else ""))
    cmd = command(arch, os.path.join(d, "vmlinuz"), initrd, cmdline, icount, smp)
    return harness.boot(cmd, log, timeout, on_line=on_line)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", required=True, choices=sorted(MACHINE))
    ap.add_argument("--mode", required=True, choices=["bench", "record", "record+bench"])
    ap.add_argument("--log", required=True)
    ap.add_argument("--args", default="")
    ap.add_argument("--name", default="")
    ap.add_argument("--kstack", default="on", choices=["on", "off"])
    ap.add_argument("--icount", type=int, default=0)
    ap.add_argument("--smp", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=600)
    a = ap.parse_args(argv)
    s = run(a.arch, a.mode, a.log, a.args, a.name, a.kstack, a.icount, a.smp, a.timeout)
    print(f"linux_run: {a.arch} {a.mode}: {s.secs:.0f} s"
          + (" (timed out)" if s.timed_out else "") + f", log {a.log}")
    return 1 if s.timed_out else 0


if __name__ == "__main__":
    sys.exit(main())
