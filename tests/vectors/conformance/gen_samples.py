#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The stackshift authors
"""tests/vectors/conformance/gen_samples.py - synthetic samples for
tools/kstack-conformance, in its input format, deterministic (every random
choice comes from a ChaCha20 keystream under a fixed key), gzip-compressed
with a zero timestamp so the files are byte-for-byte reproducible.

    python3 tests/vectors/conformance/gen_samples.py           # rewrite them
    python3 tests/vectors/conformance/gen_samples.py --check   # exit 1 if one differs

Each sample is 4 CPUs taking turns in an order drawn from the keystream,
131072 system calls (enough for every test's false-fail rate of 1e-8), and
1000 Bug 1 trials (`migrate` lines):

  good       pool-like: each CPU its own ChaCha20 keystream, a byte per call
  lfsr113    each CPU an LFSR113 seeded from the keystream (Linux 7.1's design)
  same-seed  good, but every CPU's keystream is the same (one seed for all)
  counter    Linux's old timestamp design: the next offset chosen at exit,
             ror32(old, 5) ^ (counter & 0xff), the counter advancing 238 ticks
             between calls on a CPU (239 one time in 16): a regular clock, as
             under QEMU -icount or in a tight loop on a quiet machine. Per
             CPU and chosen at exit, so Bug 1 applies
  off        no randomisation: every offset 0
  carry      a mask that rounds: ((raw & 0x3ff) + 15) & ~15
  biased     good, but offset 0 one time in 32 more than chance
  repeat     good, but the previous offset again one time in 4
  align8     good for an ABI that keeps 8 bytes: offsets (byte & 63) << 3,
             mask 0x1F8, said by a "geometry 8 64" line
  uniprocessor  good on one CPU, so no migrate lines: cross_cpu and
             migration are not applicable

tests/host/test_conformance.py runs the kit on each and checks every test's
verdict.
"""
import gzip
import io
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import refimpl  # noqa: E402

CPUS = 4
CALLS = 131072
TRIALS = 1000
KEY = bytes(range(0x40, 0x60))
TICKS_PER_CALL = 238


class Keystream:
    """Bytes of ChaCha20 keystream under KEY, nonce = LE32(label) || 0."""

    def __init__(self, label):
        self.nonce = struct.pack("<I", label) + bytes(8)
        self.block = 0
        self.buf = b""

    def byte(self):
        if not self.buf:
            self.buf = refimpl.chacha20_block(KEY, self.block, self.nonce)
            self.block += 1
        b, self.buf = self.buf[0], self.buf[1:]
        return b

    def word(self):
        return int.from_bytes(bytes(self.byte() for _ in range(4)), "little")


class PoolCpu:
    def __init__(self, label):
        self.ks = Keystream(label)

    def entry(self):
        return (self.ks.byte() & 63) << 4

    def exit(self, cpu):
        pass


class LfsrCpu:
    def __init__(self, label):
        ks = Keystream(label)
        self.g = refimpl.Lfsr113Bits([ks.word() for _ in range(4)])

    def entry(self):
        return self.g.next() & refimpl.OFFSET_MASK

    def exit(self, cpu):
        pass


class CounterCpu:
    """The stored per-CPU offset, updated at exit on whatever CPU the call
    ends on (exit(cpu) is that CPU's state)."""

    def __init__(self, label):
        self.ks = Keystream(label)
        self.stored = self.ks.word()
        self.clock = self.ks.word()

    def entry(self):
        return self.stored & refimpl.OFFSET_MASK

    def exit(self, cpu):
        cpu.clock += TICKS_PER_CALL + (self.ks.byte() < 16)  # a tick late 1 time in 16
        cpu.stored = ((cpu.stored >> 5) | (cpu.stored << 27)) & 0xFFFFFFFF
        cpu.stored ^= cpu.clock & 0xFF


class ConstantCpu:
    def __init__(self, label):
        pass

    def entry(self):
        return 0

    def exit(self, cpu):
        pass


class BiasedCpu(PoolCpu):
    """Offset 0 one time in 32 more than chance: a min-entropy of 4.4 bits."""

    def entry(self):
        return 0 if self.ks.byte() < 8 else super().entry()


class RepeatCpu(PoolCpu):
    """The previous offset again one time in 4: uniform, but serially dependent."""

    def __init__(self, label):
        super().__init__(label)
        self.last = super().entry()

    def entry(self):
        if self.ks.byte() >= 64:
            self.last = super().entry()
        return self.last


class Align8Cpu(PoolCpu):
    def entry(self):
        return (self.ks.byte() & 63) << 3


class CarryCpu(PoolCpu):
    def entry(self):
        raw = self.ks.byte() | self.ks.byte() << 8
        return ((raw & 0x3FF) + 15) & ~15


def sample_lines(make_cpu, labels, calls, geometry=None):
    cpus = [make_cpu(label) for label in labels]
    order = Keystream(1000)
    if geometry:
        yield "geometry %d %d" % geometry
    yield "# cpu offset thread call"
    for _ in range(calls):
        c = order.byte() % len(cpus)
        yield f"{c} {cpus[c].entry()} t{c} getpid"
        cpus[c].exit(cpus[c])
    if len(cpus) < 2:
        return  # a call cannot move: no Bug 1 trials
    yield "# migrate from to leaked next"
    for _ in range(TRIALS):
        leaked = cpus[0].entry()
        cpus[0].exit(cpus[1])  # the call ends on CPU 1
        nxt = cpus[0].entry()
        cpus[0].exit(cpus[0])
        yield f"migrate 0 1 {leaked} {nxt}"


SAMPLES = {
    "good": (PoolCpu, range(CPUS), CALLS),
    "lfsr113": (LfsrCpu, range(CPUS), CALLS),
    "same-seed": (PoolCpu, [7] * CPUS, CALLS),
    "counter": (CounterCpu, range(CPUS), CALLS),
    "off": (ConstantCpu, range(CPUS), CALLS),
    "carry": (CarryCpu, range(CPUS), CALLS),
    "biased": (BiasedCpu, range(CPUS), CALLS),
    "repeat": (RepeatCpu, range(CPUS), CALLS),
    "align8": (Align8Cpu, range(CPUS), CALLS, (8, 64)),
    "uniprocessor": (PoolCpu, [0], CALLS),
}


def compressed(lines):
    raw = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as z:
        z.write(("\n".join(lines) + "\n").encode())
    return raw.getvalue()


def main():
    check = "--check" in sys.argv[1:]
    stale = 0
    for name, spec in SAMPLES.items():
        data = compressed(sample_lines(*spec))
        path = os.path.join(HERE, name + ".txt.gz")
        if check:
            with open(path, "rb") as f:
                if f.read() != data:
                    print(f"{name}.txt.gz: differs from what gen_samples.py writes")
                    stale += 1
        else:
            with open(path, "wb") as f:
                f.write(data)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
