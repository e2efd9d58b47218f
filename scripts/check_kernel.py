#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/check_kernel.py ARCH KERNEL_ELF NM - build-time checks on the kernel.

Fails the build (exit 1, with the reason) when:
  * kernel/ includes an arch header other than arch/arch.h (the contract);
  * the image does not start with _start (booti and the loader enter at the
    first byte; on arm64/riscv64 the Image header lives there);
  * the image is bigger than the early page tables map (64 MiB), or on riscv64
    than the 32 MiB OpenSBI fw_jump leaves below the devicetree;
  * symbols are left undefined.
"""
import re
import subprocess
import sys
from pathlib import Path

MAX_IMAGE = {"x86_64": 64 << 20, "arm64": 64 << 20, "riscv64": 32 << 20}


def fail(msg):
    print(f"check_kernel: {msg}", file=sys.stderr)
    sys.exit(1)


def check_arch_includes():
    bad = []
    for path in sorted(Path("kernel").rglob("*.[ch]")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            m = re.match(r'\s*#\s*include\s*[<"](arch/[^>"]+)[>"]', line)
            if m and m.group(1) != "arch/arch.h":
                bad.append(f"{path}:{n}: includes {m.group(1)}")
    if bad:
        fail("kernel/ may include only arch/arch.h:\n  " + "\n  ".join(bad))


def symbols(nm, elf):
    out = subprocess.run([nm, elf], capture_output=True, text=True, check=True).stdout
    syms = {}
    undefined = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.append(parts[1])
        elif len(parts) == 3:
            syms[parts[2]] = int(parts[0], 16)
    return syms, undefined


def main():
    arch, elf, nm = sys.argv[1:4]
    check_arch_includes()
    syms, undefined = symbols(nm, elf)
    if undefined:
        fail("undefined symbols: " + ", ".join(undefined))
    if syms.get("_start") != syms.get("_kernel_start"):
        fail("_start is not the first byte of the image")
    size = syms["_kernel_end"] - syms["_kernel_start"]
    if size > MAX_IMAGE[arch]:
        fail(f"image is {size} bytes, more than the {MAX_IMAGE[arch]} the boot path allows")


if __name__ == "__main__":
    main()
