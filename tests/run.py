#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/run.py - run every test of the project and print one verdict line.

  host unit tests   build/host/test_* (lib/ compiled natively with ASan/UBSan)
  boot tests        each arch booted in QEMU through its firmware path(s);
                    the kernel's KTAP self-test lines are collected, and the
                    boot itself is checked (banner, memory map, CPU count,
                    exit status, no panic)

Every test is one line "ok ..." or "not ok ..."; the last line of the output
is "N passed, N failed" and the exit status is non-zero on any failure,
timeout or crash. Python standard library only.

  tests/run.py [--arch A] [--filter SUBSTR] [--jobs N] [--verbose] [--list]
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHES = ["x86_64", "arm64", "riscv64"]
DEFAULT_CMDLINE = "ktest=all"
EXIT_OK, EXIT_TESTS_FAILED, EXIT_PANIC = 0, 1, 3
ADDR2LINE = {"x86_64": "x86_64-linux-gnu-addr2line", "arm64": "aarch64-linux-gnu-addr2line",
             "riscv64": "riscv64-linux-gnu-addr2line"}


@dataclass
class Boot:
    """One QEMU boot and what it must show."""
    name: str
    arch: str
    boot: str                      # firmware path: uefi, uboot, ...
    cmdline: str = DEFAULT_CMDLINE
    qemu_extra: str = ""
    smp: int = 4
    status: int = EXIT_OK          # expected kernel exit status
    expect: list = field(default_factory=list)   # regexes the log must contain
    ktap: bool = True              # expect a complete KTAP block
    timeout: int = 240


def boot_matrix():
    firmware = {"x86_64": ["uefi"], "arm64": ["uefi", "uboot"], "riscv64": ["uboot"]}
    boots = []
    for arch in ARCHES:
        for fw in firmware[arch]:
            boots.append(Boot(f"{arch}.{fw}", arch, fw, expect=[
                r"stackshift \S+ \(" + arch + r"\)",
                r"memory: \d+ regions, \d+ MiB usable",
                r"cpus: 4 described by",
            ]))
        # A broken kernel must be caught and reported, on every arch: a
        # deliberate panic and an unhandled fault, each with the CPU, the
        # registers and a backtrace, and the panic exit status.
        fw = firmware[arch][-1]
        panic_report = [r"KERNEL PANIC on CPU \d+", r"Backtrace:", r"#1 +0x[0-9a-f]+"]
        boots.append(Boot(f"{arch}.{fw}.crash-panic", arch, fw, cmdline="crash=panic",
                          status=EXIT_PANIC, ktap=False,
                          expect=panic_report + [r"deliberate panic"]))
        boots.append(Boot(f"{arch}.{fw}.crash-fault", arch, fw, cmdline="crash=fault",
                          status=EXIT_PANIC, ktap=False, expect=panic_report))
    return boots


class Results:
    def __init__(self, verbose):
        self.passed = self.failed = 0
        self.verbose = verbose
        self.lock = threading.Lock()

    def report(self, ok, name, details=()):
        with self.lock:
            if ok:
                self.passed += 1
            else:
                self.failed += 1
            print(f"{'ok' if ok else 'not ok'} {self.passed + self.failed} - {name}")
            if not ok or self.verbose:
                for line in details:
                    print(f"    # {line}")
            sys.stdout.flush()


KTAP_LINE = re.compile(r"^(not ok|ok) \d+ - (\S+)")


def parse_ktap(lines):
    """(name, ok, diagnostics) for each result line; diagnostics precede it."""
    out, diag = [], []
    for line in lines:
        m = KTAP_LINE.match(line.strip())
        if m:
            out.append((m.group(2), m.group(1) == "ok", diag))
            diag = []
        elif line.strip().startswith("#"):
            diag.append(line.strip())
    return out


def run_host_tests(results, flt):
    hostdir = os.path.join(ROOT, "build", "host")
    for exe in sorted(os.listdir(hostdir)) if os.path.isdir(hostdir) else []:
        path = os.path.join(hostdir, exe)
        if not exe.startswith("test_") or "." in exe or not os.access(path, os.X_OK):
            continue
        if flt and flt not in f"host.{exe[5:]}":
            continue
        try:
            p = subprocess.run([path], capture_output=True, text=True, timeout=300)
            lines = p.stdout.splitlines() + p.stderr.splitlines()
        except subprocess.TimeoutExpired:
            results.report(False, f"host.{exe[5:]}", ["timed out"])
            continue
        cases = parse_ktap(lines)
        for name, ok, diag in cases:
            results.report(ok, f"host.{name}", diag)
        if p.returncode != 0 and all(ok for _, ok, _ in cases):
            results.report(False, f"host.{exe[5:]}.exit", [f"exit status {p.returncode}"]
                           + lines[-40:])


def qemu_command(b, image, vars_path):
    out = subprocess.run(
        ["make", "-s", "--no-print-directory", f"ARCH={b.arch}", f"BOOT={b.boot}",
         f"IMAGE={image}", f"VARS={vars_path}", f"SMP={b.smp}", f"QEMU_EXTRA={b.qemu_extra}",
         "print-qemu"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    info = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    return info.get("VARS_TEMPLATE", ""), info["QEMU"]


def kernel_status(arch, rc):
    """The kernel's exit status from QEMU's, per exit device (boot-notes)."""
    if arch == "x86_64":   # isa-debug-exit: (status << 1) | 1
        return rc >> 1 if rc & 1 else None
    return rc              # arm64 semihosting, riscv64 sifive_test: status itself


def symbolize(arch, lines):
    """Append function and line to backtrace addresses, using the kernel ELF."""
    elf = os.path.join(ROOT, "build", arch, "kernel.elf")
    tool = shutil.which(ADDR2LINE[arch])
    addrs = [m.group(1) for l in lines for m in [re.search(r"#\d+ +(0x[0-9a-f]+)", l)] if m]
    if not addrs or not tool:
        return lines
    p = subprocess.run([tool, "-f", "-p", "-e", elf] + addrs, capture_output=True, text=True)
    names = dict(zip(addrs, p.stdout.splitlines()))
    return [l + ("  " + names[m.group(1)] if (m := re.search(r"#\d+ +(0x[0-9a-f]+)", l))
                 and m.group(1) in names else "") for l in lines]


def run_qemu(cmd, log_path, timeout):
    """Run QEMU in its own process group; returns (rc or None on timeout, seconds)."""
    start = time.time()
    with open(log_path, "wb") as log:
        p = subprocess.Popen(cmd, shell=True, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=log,
                             stderr=subprocess.STDOUT, start_new_session=True)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            rc = None
    return rc, time.time() - start


def run_boot(b, results):
    workdir = os.path.join(ROOT, "build", b.arch, "test")
    os.makedirs(workdir, exist_ok=True)
    image = os.path.join(workdir, f"{b.name}.img")
    vars_path = os.path.join(workdir, f"{b.name}.vars")
    shutil.copyfile(os.path.join(ROOT, "build", b.arch, "disk.img"), image)
    if b.cmdline != DEFAULT_CMDLINE:
        subprocess.run([sys.executable, os.path.join(ROOT, "boot", "mkimage.py"),
                        "--set-cmdline", image, b.cmdline], check=True)
    template, cmd = qemu_command(b, image, vars_path)
    if template:
        shutil.copyfile(template, vars_path)
    log_path = os.path.join(workdir, f"{b.name}.log")
    rc, secs = run_qemu(cmd, log_path, b.timeout)
    text = open(log_path, "rb").read().decode("utf-8", "replace").replace("\r", "")
    lines = text.splitlines()
    tail = symbolize(b.arch, lines[-40:])
    problems = []
    if rc is None:
        problems.append(f"timed out after {b.timeout} s")
    elif kernel_status(b.arch, rc) != b.status:
        problems.append(f"QEMU exit code {rc}, expected kernel status {b.status}")
    if b.status != EXIT_PANIC and "KERNEL PANIC" in text:
        problems.append("kernel panic")
    for pattern in b.expect:
        if not re.search(pattern, text):
            problems.append(f"missing /{pattern}/ in the serial log")
    if b.ktap:
        m = re.search(r"### BEGIN KTAP (\S+) (\S+)\n(.*?)### END KTAP", text, re.S)
        if not m:
            problems.append("no complete KTAP block (### BEGIN/END KTAP)")
        else:
            for name, ok, diag in parse_ktap(m.group(3).splitlines()):
                results.report(ok, f"{b.name}.{name}", diag)
    details = problems + ([f"serial log {log_path}, last 40 lines:"] + tail if problems else
                          [f"{secs:.1f} s"])
    results.report(not problems, f"{b.name}.boot", details)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", choices=ARCHES, action="append")
    ap.add_argument("--filter", default="")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--no-host", action="store_true")
    args = ap.parse_args()
    boots = [b for b in boot_matrix()
             if (not args.arch or b.arch in args.arch) and args.filter in b.name]
    if args.list:
        for b in boots:
            print(f"{b.name}: cmdline '{b.cmdline}' {b.qemu_extra}")
        return 0
    results = Results(args.verbose)
    started = time.time()
    if not args.no_host:
        run_host_tests(results, args.filter)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for f in [pool.submit(run_boot, b, results) for b in boots]:
            f.result()
    print(f"# {len(boots)} boots in {time.time() - started:.0f} s")
    print(f"{results.passed} passed, {results.failed} failed")
    return 1 if results.failed or results.passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
