#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/ipc_trace.py KERNEL_ELF TRACE_LOG --start MARK [options] -
where the instructions of a stretch of kernel execution go, per function,
counted exactly from a QEMU execution trace.

The one module that reads QEMU's execution logs and charges their
instructions to kernel symbols. Two uses: this command line (the windows
below, as CSV) and the legs of one IPC round trip (legs(), analyse():
scripts/ipc_stage_trace.py records such a log in make bench ICOUNT=1 and
writes ipc-stages.txt with lines_for(); scripts/ipc_stage_table.py makes
docs/ipc.md's tables from those files).

The trace is QEMU's own log of the guest, taken under -icount (so that
nothing but the guest decides what runs) with every translation block
logged when it is translated and each time it runs:

  qemu-system-<arch> ... -icount shift=0,align=off,sleep=off \\
      -d in_asm,exec,nochain -dfilter KSTART..KEND,0x400000..0x500000 \\
      -D trace.log

(`python3 -m scripts.ipc_trace_record ARCH OUT` records such a log of
`run=ipc_bench`, from its rounds between two programs; KSTART..KEND is
the kernel image, 0x400000.. the user programs' text, linker/user.ld).
`in_asm` gives each block's instructions and their addresses, `exec` a
line per block run ("Trace N: HOST [CPU/PC/FLAGS/CFLAGS]"), and `nochain`
makes QEMU log every run, not only the first of a chain.

KERNEL_ELF may also be a file of `nm -n` output.

A window starts at the first block at the address MARK (a kernel symbol,
SYMBOL+OFFSET, or a hex address; a system call from user mode starts at
x86_64 `x86_syscall_entry`, arm64 `arm64_vectors+0x400`, riscv64
`riscv_trap_entry`) and ends just before the first block
outside the kernel image (back in user mode), or at --end MARK (then
one that returns to user mode first is dropped). Every
instruction run in a window is charged to the kernel symbol it lies in
(nm), so inlined code counts in the function it was inlined into;
addresses outside the kernel are charged to "[user]". --require SYMBOL
keeps only the windows that ran that symbol (repeatable: all of them);
--forbid SYMBOL drops those that did. --skip N drops the first N windows
kept (warm-up), --windows N stops after N.

Output, CSV on stdout: `symbol,instructions,blocks`, the mean per window,
most instructions first, then a `TOTAL` row. By default only the windows
whose total is the most common one are kept (a timer tick or a first
run adds to a few): a total, and nearly every count, is then an exact
integer (windows of one total may still differ inside); --all averages
every window. The number of windows goes to stderr. --per-window prints
each window's total instead.

--singlestep reads a log taken with one instruction per translation block
(QEMU's `singlestep`, `-d exec,nochain` alone, as scripts/ipc_stage_trace.py
records): every "Trace" line is then one instruction at its address, and no
in_asm is needed.

A block that QEMU cut short under -icount (its cflags carry an
instruction count, low 9 bits) is charged only that many instructions.
An exception in the middle of a block (a page fault) would overcount
that block's tail; none happens on the IPC path.

Python standard library only; the host tests are
tests/host/test_ipc_trace.py on a stored trace (tests/vectors/ipc_trace/)
and tests/host/test_ipc_stage_table.py (the legs of made-up calls).
"""
import argparse
import bisect
import collections
import re
import statistics
import subprocess
import sys

IN_RE = re.compile(r"^IN:")
INSN_RE = re.compile(r"^(?:0x)?([0-9a-fA-F]{8,16}):\s")
EXEC_RE = re.compile(r"^Trace \d+: \S+ \[([0-9a-fA-F]+)/([0-9a-fA-F]+)/([0-9a-fA-F]+)/([0-9a-fA-F]+)\]")
CF_COUNT_MASK = 0x1FF  # QEMU's CF_COUNT_MASK: a block limited to that many instructions


NM = {"x86_64": "x86_64-linux-gnu-nm", "arm64": "aarch64-linux-gnu-nm",
      "riscv64": "riscv64-linux-gnu-nm"}


class Symbols:
    """The kernel's text symbols, looked up by address, from `nm -n` output."""

    def __init__(self, nm_text, what="the kernel"):
        self.addrs, self.names = [], []
        for line in nm_text.splitlines():
            parts = line.split()
            # mapping symbols ($x, $d) and local labels name no function
            if len(parts) == 3 and parts[1] in "tTwW" and not parts[2].startswith(("$", ".L")):
                self.addrs.append(int(parts[0], 16))
                self.names.append(parts[2])
        if not self.addrs:
            sys.exit(f"ipc_trace: no text symbols in {what}")
        ends = [int(p[0], 16) for p in (line.split() for line in nm_text.splitlines())
                if len(p) == 3 and p[2] in ("_kernel_end", "__bss_end", "_end")]
        self.lo, self.hi = self.addrs[0], max(ends) if ends else self.addrs[-1] + 0x100000

    @classmethod
    def of(cls, elf, nm="nm"):
        """An ELF file's symbols (read with nm), or a file of `nm -n` output
        (the host test's)."""
        with open(elf, "rb") as f:
            is_elf = f.read(4) == b"\x7fELF"
        if is_elf:
            text = subprocess.run([nm, "-n", elf], capture_output=True, text=True,
                                  check=True).stdout
        else:
            with open(elf) as f:
                text = f.read()
        return cls(text, elf)

    def inside(self, pc):
        return self.lo <= pc < self.hi

    def name(self, pc):
        if not self.inside(pc):
            return "[user]"
        i = bisect.bisect_right(self.addrs, pc) - 1
        return self.names[i] if i >= 0 else "[user]"

    def resolve(self, mark):
        """A marker: hex address, SYMBOL or SYMBOL+OFFSET."""
        if re.fullmatch(r"0x[0-9a-fA-F]+", mark):
            return int(mark, 16)
        sym, _, off = mark.partition("+")
        if sym not in self.names:
            sys.exit(f"ipc_trace: no symbol {sym!r} in the kernel")
        return self.addrs[self.names.index(sym)] + (int(off, 0) if off else 0)


def blocks(lines, singlestep=False):
    """[instruction addresses] per block run, in order; with singlestep,
    every "Trace" line is one instruction (no in_asm needed)."""
    if singlestep:
        for line in lines:
            m = EXEC_RE.match(line)
            if m:
                yield [int(m.group(2), 16)]
        return
    translated = {}  # first address -> the addresses of its longest translation
    pending = None  # the block being read from an in_asm entry
    for line in lines:
        if pending is not None:
            m = INSN_RE.match(line)
            if m:
                pending.append(int(m.group(1), 16))
                continue
            if line.strip() and not line.startswith(("Trace", "IN:", "----")):
                continue  # riscv64's "Priv: 1; Virt: 0", say
            old = translated.get(pending[0]) if pending else None
            # A copy cut short (an instruction count in its cflags) is a
            # prefix of the full block: keep the full one.
            if pending and not (old and old[: len(pending)] == pending):
                translated[pending[0]] = pending
            pending = None
        if IN_RE.match(line):
            pending = []
            continue
        m = EXEC_RE.match(line)
        if m:
            pc, cflags = int(m.group(2), 16), int(m.group(4), 16)
            insns = translated.get(pc)
            if insns is None:
                continue  # translated before the log began, or outside -dfilter
            count = cflags & CF_COUNT_MASK
            yield insns[:count] if count else insns


def windows(trace, syms, start, end, require, forbid):
    """Per window, {symbol: [instructions, blocks]}."""
    cur = None
    for insns in trace:
        pc = insns[0]
        if cur is None:
            if pc != start:
                continue
            cur = {}
        elif end is not None and pc != end and not syms.inside(pc):
            cur = None  # back in user mode without reaching --end: not a window
            continue
        elif pc == end or not syms.inside(pc):
            ran = set(cur)
            if all(r in ran for r in require) and not any(f in ran for f in forbid):
                yield cur
            cur = {} if pc == start else None
            if cur is None:
                continue
        for a in insns:
            row = cur.setdefault(syms.name(a), [0, 0])
            row[0] += 1
        cur.setdefault(syms.name(pc), [0, 0])[1] += 1


def calls(trace, marker):
    """Lists of instruction addresses, each from one entry into marker (an
    address in user mode every round trip runs) to the next."""
    call = None
    for insns in trace:
        for pc in insns:
            if pc == marker:
                if call is not None:
                    yield call
                call = []
            if call is not None:
                call.append(pc)


def kernel_runs(call, syms):
    """The runs of consecutive kernel addresses in one call."""
    runs, run = [], []
    for pc in call:
        if syms.inside(pc):
            run.append(pc)
        elif run:
            runs.append(run)
            run = []
    return runs + ([run] if run else [])


def analyse(log_path, marker, syms, singlestep=True):
    """The legs of one IPC round trip: {"call": Counter(function ->
    instructions), "reply": ..., "calls": (agreeing, complete, seen)} of the
    call whose call leg most calls share. A complete call has two kernel
    runs (the call leg, then the reply leg); one a timer tick split has
    more and is left out. None if no call was complete."""
    legs, seen = [], 0
    with open(log_path, errors="replace") as f:
        for call in calls(blocks(f, singlestep), marker):
            seen += 1
            runs = kernel_runs(call, syms)
            if len(runs) == 2:
                legs.append(runs)
    if not legs:
        return None
    common, agree = collections.Counter(len(r[0]) for r in legs).most_common(1)[0]
    runs = next(r for r in legs if len(r[0]) == common)
    out = {"calls": (agree, len(legs), seen)}
    for leg, run in zip(("call", "reply"), runs):
        out[leg] = collections.Counter(syms.name(pc) for pc in run)
    return out


def lines_for(path, result):
    """ipc-stages.txt's lines for one path ("fast" or "slow") of analyse()'s result."""
    if result is None:
        return [f"path {path} none: no complete call in the log"]
    agree, complete, seen = result["calls"]
    out = [f"path {path} calls {agree} {complete} {seen}"]
    for leg in ("call", "reply"):
        counts = result[leg]
        out.append(f"path {path} leg {leg} total {sum(counts.values())}")
        out += [f"path {path} leg {leg} function {fn} {n}"
                for fn, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
    return out


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("elf")
    ap.add_argument("trace")
    ap.add_argument("--start", required=True, help="window start: SYMBOL[+OFF] or 0xADDR")
    ap.add_argument("--end", help="window end (default: the first block outside the kernel)")
    ap.add_argument("--require", action="append", default=[], metavar="SYMBOL")
    ap.add_argument("--forbid", action="append", default=[], metavar="SYMBOL")
    ap.add_argument("--skip", type=int, default=0)
    ap.add_argument("--windows", type=int, default=0, help="stop after this many (0: all)")
    ap.add_argument("--per-window", action="store_true")
    ap.add_argument("--all", action="store_true",
                    help="average every window (default: only those of the most common total)")
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--singlestep", action="store_true",
                    help="one instruction per block, no in_asm (ipc_stage_trace's logs)")
    return ap.parse_args(argv)


def read_windows(args):
    """The windows kept: --skip and --windows applied."""
    syms = Symbols.of(args.elf, args.nm)
    start = syms.resolve(args.start)
    end = syms.resolve(args.end) if args.end else None
    kept = []
    with open(args.trace, errors="replace") as f:
        trace = blocks(f, args.singlestep)
        for i, w in enumerate(windows(trace, syms, start, end, args.require, args.forbid)):
            if i < args.skip:
                continue
            kept.append(w)
            if args.windows and len(kept) >= args.windows:
                break
    return kept


def print_means(kept, totals, seen):
    """The CSV: per symbol, the mean over the windows kept."""
    sums = {}
    for w in kept:
        for name, (n, b) in w.items():
            s = sums.setdefault(name, [0, 0])
            s[0] += n
            s[1] += b
    n = len(kept)
    print("symbol,instructions,blocks")
    for name, (ins, blk) in sorted(sums.items(), key=lambda kv: (-kv[1][0], kv[0])):
        print(f"{name},{ins / n:g},{blk / n:g}")
    print(f"TOTAL,{sum(totals) / n:g},{sum(s[1] for s in sums.values()) / n:g}")
    print(f"ipc_trace: {n} of {seen} windows, total {min(totals)}..{max(totals)}", file=sys.stderr)


def main(argv=None):
    args = parse_args(argv)
    kept = read_windows(args)
    if not kept:
        sys.exit("ipc_trace: no window matched")
    totals = [sum(r[0] for r in w.values()) for w in kept]
    if args.per_window:
        print("window,instructions")
        for i, t in enumerate(totals):
            print(f"{i},{t}")
        return 0
    seen = len(kept)
    if not args.all:
        typical = statistics.mode(totals)
        kept = [w for w, t in zip(kept, totals) if t == typical]
        totals = [typical] * len(kept)
    print_means(kept, totals, seen)
    return 0


if __name__ == "__main__":
    sys.exit(main())
