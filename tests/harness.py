# SPDX-License-Identifier: MIT
"""tests/harness.py - the one place that boots the kernel in QEMU.

Every script that boots (tests/run.py, tests/lab.py through run.py,
tests/mutate.py through run.py, scripts/bench.py, scripts/longrun.py,
scripts/run_screen.py) goes through here:

  qemu_command()   the QEMU command line, from the Makefile (make print-qemu)
  prepare()        a copy of build/<dir>/disk.img with a kernel command line,
                   the firmware's variable store, and the command that boots them
  Session          one boot: QEMU in its own process group, the answer to
                   "### INPUT PLEASE:" typed, the serial output to a log (and
                   line by line to a callback), the timeout enforced with
                   every CPU's registers (QEMU's monitor) put in the log
  kernel_status()  the kernel's exit status from QEMU's exit code
  hung_pcs(), symbolize()   where the CPUs were, backtraces with names
  ktap_cases(), parse_ktap(), ktap_results(), outcomes()
                   KTAP: a boot's block, result lines, run.py's own output
  Progress         one progress line, rewritten in place on a terminal
  copy_tree()      a copy of the tree that keeps an arch's built objects

Python standard library only.
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHES = ["x86_64", "arm64", "riscv64"]
# The kernel's exit status, as kernel_status() reads it from QEMU's exit code.
EXIT_OK, EXIT_TESTS_FAILED, EXIT_PANIC = 0, 1, 3
# The console test asks for its word on the serial line; Session types it,
# one byte every TYPE_GAP seconds. The kernel's receive interrupt stalls
# (after draining the UART, before its EOI) for longer than that gap, so the
# next byte arrives while the interrupt is being handled, every time: the
# window in which a PL011 handler that cleared UARTICR after draining lost
# every later byte (kernel/dev/pl011.c, pl011_rx_irq_clear).
TYPE_GAP = 0.01
PIPE_CHUNK = 65536  # bytes: what a Linux pipe holds by default
PIPE_PAUSE = 0.02  # seconds to let a trickle of output gather (Session._pump)
INPUT_PROMPT = re.compile(rb"### INPUT PLEASE: (\S+)\s")  # the whole word, its line ended
ADDR2LINE = {"x86_64": "x86_64-linux-gnu-addr2line", "arm64": "aarch64-linux-gnu-addr2line",
             "riscv64": "riscv64-linux-gnu-addr2line"}
MONITOR_MARK = "\n### QEMU monitor at the timeout"


def _makefile_constant(name):
    """The value of `NAME = value` or `NAME := value` in the Makefile: the
    constants the Makefile and the scripts share, written there once."""
    with open(os.path.join(ROOT, "Makefile")) as f:
        for line in f:
            m = re.match(rf"{re.escape(name)} :?= (.*)$", line)
            if m:
                return m.group(1).strip()
    raise KeyError(f"Makefile defines no {name}")


# The CPU each arch counts instructions on (-icount): arm64's generic timer
# at 1 GHz (the Makefile's ICOUNT_CPU_<arch>); the others keep their default.
ICOUNT_CPU = {"arm64": _makefile_constant("ICOUNT_CPU_arm64")}


def icount_options(shift):
    """QEMU's -icount options with this shift (the Makefile's ICOUNT_QEMU):
    exact, repeatable instruction counts, the counter advancing 2^shift per
    instruction."""
    return _makefile_constant("ICOUNT_QEMU").replace("$(1)", str(shift))


# ---- the command line and the image ----------------------------------------

def qemu_command(arch, image, vars_path, boot=None, smp=None, extra=None, kernel_cmdline=None,
                 make_vars=None):
    """(the boot path's variable store template or "", QEMU's shell command
    line) as the Makefile builds them (make print-qemu). Arguments left None
    keep the Makefile's defaults; kernel_cmdline is for the boot paths that
    pass it to QEMU (-append), not on a disk; make_vars adds e.g. QEMU_CPU=qemu64."""
    args = [f"ARCH={arch}"] + ([f"BOOT={boot}"] if boot else []) + \
        [f"IMAGE={image}", f"VARS={vars_path}"] + \
        ([f"SMP={smp}"] if smp is not None else []) + \
        ([f"QEMU_EXTRA={extra}"] if extra is not None else []) + \
        ([f"KERNEL_CMDLINE={kernel_cmdline}"] if kernel_cmdline is not None else []) + \
        [f"{k}={v}" for k, v in (make_vars or {}).items()]
    out = subprocess.run(["make", "-s", "--no-print-directory", *args, "print-qemu"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    info = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    return info.get("VARS_TEMPLATE", ""), info["QEMU"]


def set_cmdline(image, cmdline):
    """Write the kernel command line into a disk image (boot/mkimage.py)."""
    subprocess.run([sys.executable, os.path.join(ROOT, "boot", "mkimage.py"),
                    "--set-cmdline", image, cmdline], check=True)


def prepare(arch, image, vars_path, cmdline, build=None, **qemu):
    """Copy build/<build or arch>/disk.img to image with cmdline on it, and
    the boot path's variable store (if it has one) to vars_path; the QEMU
    command line that boots them (qemu_command's keywords in qemu)."""
    shutil.copyfile(os.path.join(ROOT, "build", build or arch, "disk.img"), image)
    set_cmdline(image, cmdline)
    template, cmd = qemu_command(arch, image, vars_path, **qemu)
    if template:
        shutil.copyfile(template, vars_path)
    return cmd


# ---- one boot ----------------------------------------------------------------

def ask_monitor(sock_path, command):
    """What QEMU's monitor (a unix socket) answers to one command, or ''."""
    out = b""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(5)
            s.connect(sock_path)
            s.sendall(command.encode() + b"\n")
            deadline = time.time() + 5
            while time.time() < deadline:
                try:
                    chunk = s.recv(65536)
                except socket.timeout:
                    break
                if not chunk:
                    break
                out += chunk
                if out.count(b"(qemu)") >= 2:  # the banner's prompt, then the answer's
                    break
    except OSError as e:
        return f"(no answer from the QEMU monitor: {e})"
    return out.decode("utf-8", "replace").replace("\r", "")


class Session:
    """One QEMU boot. run() starts cmd (a shell command line) in its own
    process group, keeps every byte of its output in log_path, hands each
    line (decoded, without '\\r') to on_line, types the word the kernel asks
    for (answer=True; else stdin is /dev/null), and after `timeout` seconds
    puts every CPU's registers (QEMU's monitor) at the end of the log and
    kills the group. Afterwards: rc (QEMU's exit code, None on a timeout),
    status (the process's own), secs, timed_out, text()."""

    def __init__(self, cmd, log_path, timeout, on_line=None, answer=False):
        self.cmd, self.log_path, self.timeout = cmd, log_path, timeout
        self.on_line, self.answer = on_line, answer
        self.output, self.lock = bytearray(), threading.Lock()
        self.rc = self.status = self.proc = None
        self.secs, self.timed_out, self.regs = 0.0, False, None

    def stop(self):
        """Kill QEMU (the whole process group: the shell and QEMU)."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, AttributeError):
            pass

    def stop_later(self, secs):
        """stop() in secs seconds: for a machine that cannot power off."""
        t = threading.Timer(secs, self.stop)
        t.daemon = True
        t.start()

    def _expire(self, mon):
        """The timeout: where every CPU was, then the kill."""
        self.timed_out = True
        self.regs = ask_monitor(mon, "info registers -a")
        self.stop()

    def _type_when_asked(self):
        """Answer the kernel's "### INPUT PLEASE: <word>" by typing the word."""
        seen = 0
        while self.proc.poll() is None:
            with self.lock:
                m = INPUT_PROMPT.search(self.output, max(0, seen - 64))
                seen = len(self.output)
            if m:
                try:
                    for byte in m.group(1) + b"\r":
                        self.proc.stdin.write(bytes([byte]))
                        self.proc.stdin.flush()
                        time.sleep(TYPE_GAP)
                except OSError:
                    pass
                return
            time.sleep(0.2)

    def _pump(self, log):
        """Copy QEMU's output to the log and the line callback until it ends."""
        pending = b""
        while True:
            chunk = self.proc.stdout.read1(PIPE_CHUNK)
            if not chunk:
                break
            if len(chunk) < PIPE_CHUNK // 4:
                # QEMU writes the serial line a byte at a time: reading each
                # byte as it comes costs a wake-up and a pass through this
                # loop per byte, which took more host time than the guest
                # (a .kstack boot's 1.4 MB: 114 s against 45 s batched).
                # A short pause lets the pipe fill; it holds PIPE_CHUNK.
                time.sleep(PIPE_PAUSE)
            log.write(chunk)
            log.flush()
            if self.answer:  # the typist looks for the prompt in it
                with self.lock:
                    self.output += chunk
            if self.on_line:
                *lines, pending = (pending + chunk).split(b"\n")
                for line in lines:
                    self.on_line(line.decode("utf-8", "replace").replace("\r", "") + "\n")
        if pending and self.on_line:
            self.on_line(pending.decode("utf-8", "replace").replace("\r", ""))

    def run(self):
        """Boot, wait for the end or the timeout; returns self."""
        start = time.time()
        # A unix socket's path must be under 108 bytes (sockaddr_un), which a
        # deep checkout (a mutant's copy, a CI folder) can pass: a short one.
        mon_dir = tempfile.mkdtemp(prefix="stackshift-mon-")
        mon = os.path.join(mon_dir, "monitor")
        cmd = f"{self.cmd} -monitor unix:{mon},server=on,wait=off"
        try:
            with open(self.log_path, "wb") as log:
                self.proc = subprocess.Popen(
                    cmd, shell=True, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                    stdin=subprocess.PIPE if self.answer else subprocess.DEVNULL,
                    start_new_session=True)
                # A timer, not a check between lines: a guest that hangs
                # silently prints nothing.
                timer = threading.Timer(self.timeout, self._expire, args=(mon,))
                timer.start()
                if self.answer:
                    threading.Thread(target=self._type_when_asked, daemon=True).start()
                try:
                    self._pump(log)
                except KeyboardInterrupt:
                    self.stop()
                    raise
                finally:
                    timer.cancel()
                    self.status = self.proc.wait()
                    timer.join()
                if self.timed_out:
                    log.write(MONITOR_MARK.encode() + b": info registers -a\n"
                              + (self.regs or "").encode())
        finally:
            shutil.rmtree(mon_dir, ignore_errors=True)
        self.rc = None if self.timed_out else self.status
        self.secs = time.time() - start
        return self

    def text(self):
        """The whole log as text (the register dump included): log_text()."""
        with open(self.log_path, "rb") as f:
            return log_text(f.read())


def log_text(raw):
    """A serial log's bytes as text whose lines end at '\\n' alone: the UART's
    "\\r\\n" becomes "\\n", and every other '\\r' stays where it is, so that
    "o\\rk 1" cannot read as "ok 1"."""
    return re.sub(r"\r+(?=\n)", "", raw.decode("utf-8", "replace")).rstrip("\r")


def lines_of(text):
    """A log's lines, split at '\\n' only: str.splitlines() also splits at
    \\v, \\f, \\x1c-\\x1e, U+0085, U+2028 and U+2029, which a program may print
    in the middle of a line to start a fake one (lib/result_guard.h)."""
    return text.split("\n")


def boot(cmd, log_path, timeout, on_line=None, answer=False):
    """Session(...).run(): one boot, its outcome."""
    return Session(cmd, log_path, timeout, on_line, answer).run()


def kernel_status(arch, rc):
    """The kernel's exit status from QEMU's, per exit device (boot-notes)."""
    if arch == "x86_64":   # isa-debug-exit: (status << 1) | 1
        return rc >> 1 if rc & 1 else None
    return rc              # arm64 semihosting, riscv64 sifive_test: status itself


# ---- where the kernel was ----------------------------------------------------

BACKTRACE_ADDR = re.compile(r"#\d+ +(0x[0-9a-f]+)")


def symbolize(arch, lines, build=None):
    """Append function and line to backtrace addresses, using the kernel ELF."""
    elf = os.path.join(ROOT, "build", build or arch, "kernel.elf")
    tool = shutil.which(ADDR2LINE[arch])
    addrs = [m.group(1) for l in lines for m in [BACKTRACE_ADDR.search(l)] if m]
    if not addrs or not tool:
        return lines
    p = subprocess.run([tool, "-f", "-p", "-e", elf] + addrs, capture_output=True, text=True)
    names = dict(zip(addrs, p.stdout.splitlines()))
    return [l + ("  " + names[m.group(1)] if (m := BACKTRACE_ADDR.search(l))
                 and m.group(1) in names else "") for l in lines]


HUNG_PC = re.compile(r"^(?:CPU#(\d+)|.*\b(?:pc|PC|RIP)\s*[=:]?\s*([0-9a-f]{16}))", re.M)


def hung_pcs(arch, text):
    """'cpuN pc FUNCTION at FILE:LINE' for each CPU in the timeout's register dump."""
    dump = text.split(MONITOR_MARK.lstrip("\n"), 1)
    if len(dump) < 2:
        return []
    cpu, pcs = None, []
    for m in HUNG_PC.finditer(dump[1]):
        if m.group(1) is not None:
            cpu = m.group(1)
        elif cpu is not None:
            pcs.append((cpu, "0x" + m.group(2)))
            cpu = None
    named = symbolize(arch, [f"#0 {pc}" for _, pc in pcs])
    return [f"cpu{c} was at {line[3:]}" for (c, _), line in zip(pcs, named)]


def console_lines(text):
    """The serial console's lines of a log, without the timeout's register dump."""
    return lines_of(text.split(MONITOR_MARK, 1)[0])


# ---- KTAP ----------------------------------------------------------------------

# A result line: spaces (KTAP's indentation), nothing else, before "ok" or
# "not ok", matched against the line as it came: no strip(), which would
# also take away \x1c-\x1f and Unicode spaces such as NBSP.
KTAP_LINE = re.compile(r"^ *(not ok|ok) \d+ - (\S+)")
SUBTEST_LINE = re.compile(r"^ {4}# Subtest: (\S+)$")
KTAP_BLOCK = re.compile(r"^### BEGIN KTAP (\S+) (\S+)\n(.*?)^### END KTAP", re.S | re.M)
KTAP_CUT = re.compile(r"^### BEGIN KTAP \S+ \S+\n(.*)", re.S | re.M)


def parse_ktap(lines, ended=None):
    """(name, ok, diagnostics) for each result line; diagnostics precede it.
    A block cut short (`ended` says how: "timed out", "kernel panic") also
    fails the case it was in: the last "# Subtest:" header with no result."""
    out, diag, running = [], [], None
    for line in lines:
        m = KTAP_LINE.match(line)
        sub = SUBTEST_LINE.match(line)
        if sub:
            running = sub.group(1)
        elif m:
            out.append((m.group(2), m.group(1) == "ok", diag))
            diag = []
            if m.group(2) == running and not line.startswith(" "):
                running = None
        elif line.strip().startswith("#"):
            diag.append(line.strip())
    if ended and running:
        out.append((running, False, diag[-8:] + [f"did not finish: {ended}"]))
    return out


def ktap_cases(text, timed_out):
    """(complete, cases) of a boot log's KTAP block (### BEGIN/END KTAP):
    cases as parse_ktap gives them. Of a block with no end, what ran before
    the end still counts, and the case cut short fails."""
    m = KTAP_BLOCK.search(text)
    if m:
        return True, parse_ktap(lines_of(m.group(3)))
    cut = KTAP_CUT.search(text)
    ended = "timed out" if timed_out else "kernel panic" if "KERNEL PANIC" in text \
        else "the boot ended"
    return False, parse_ktap(lines_of(cut.group(1)) if cut else [], ended)


RESULT_LINE = re.compile(r"^( *)(not ok|ok) (\d+)(?: - (\S+))?")
PLAN_LINE = re.compile(r"^( *)1\.\.(\d+) *$")


def ktap_results(text, prefix="", after=False):
    """{name: (ok, diagnostics)} from KTAP text: a host test's, or tests/run.py's
    (whose lines already carry the boot's name). A name fails if any of its
    result lines fails: a later "ok" line for the same name (a forged one, say)
    does not undo a "not ok". The "#" lines before a result are its
    diagnostics (after it with `after`: tests/run.py prints them so). Nested
    subtests (indented) count under their own names; a plan "1..N" whose
    block ends with another number of results adds a failing "<prefix>ktap_plan"."""
    results, diag, plans, bad_plans = {}, [], {}, []

    def close(deeper_than):
        for ind in sorted(i for i in plans if i > deeper_than):
            want, seen = plans.pop(ind)
            if want != seen:
                bad_plans.append(f"a block planned {want} results and gave {seen}")

    for line in lines_of(text.replace("\r\n", "\n")):
        m, p = RESULT_LINE.match(line), PLAN_LINE.match(line)
        if p:
            ind = len(p.group(1))
            close(ind - 1)
            plans[ind] = [int(p.group(2)), 0]
        elif m:
            ind = len(m.group(1))
            close(ind)
            if ind in plans:
                plans[ind][1] += 1
            name = prefix + (m.group(4) or f"#{m.group(3)}")
            ok = m.group(2) == "ok"
            was_ok, was_diag = results.get(name, (True, []))
            results[name] = (was_ok and ok, was_diag + ([] if ok else diag))
            diag = []
        elif line.strip().startswith("#"):
            diag.append(line.strip())
            if after and results:
                last = next(reversed(results))
                if not results[last][0]:
                    results[last] = (False, results[last][1] + diag)
                diag = []
    close(-1)
    if bad_plans:
        results[prefix + "ktap_plan"] = (False, bad_plans)
    return results


def outcomes(stdout):
    """{test name: ok} from tests/run.py's 'ok N - name' / 'not ok N - name' lines."""
    return {mt.group(2): mt.group(1) == "ok" for mt in
            re.finditer(r"^(not ok|ok) \d+ - (\S+)", stdout, re.M)}


# ---- progress ------------------------------------------------------------------

class Progress:
    """One line of progress: rewritten in place on a terminal (with the
    seconds ticking), otherwise printed once per change."""

    def __init__(self, arch, stream=sys.stdout, prefix="stackshift"):
        self.arch, self.stream, self.tty = arch, stream, stream.isatty()
        self.prefix = prefix
        self.start, self.what, self.lock = time.time(), "booting through the firmware", \
            threading.Lock()
        self.stopped = threading.Event()
        self.shown = None
        if self.tty:
            threading.Thread(target=self._tick, daemon=True).start()
        else:
            self._show()

    def _line(self):
        return f"{self.prefix}: {self.arch} {self.what} ... {time.time() - self.start:.0f} s"

    def _show(self):
        with self.lock:
            if self.stopped.is_set():
                return
            if self.tty:
                self.stream.write("\r" + self._line() + "\x1b[K")
            elif self.what != self.shown:
                self.stream.write(self._line() + "\n")
            self.shown = self.what
            self.stream.flush()

    def _tick(self):
        while not self.stopped.wait(1.0):
            self._show()

    def note(self, text):
        """A line of its own above the progress line."""
        with self.lock:
            self.stream.write(("\r\x1b[K" if self.tty else "") + text + "\n")
            self.stream.flush()
            self.shown = None if self.tty else self.shown
        if self.tty:
            self._show()

    def set(self, what):
        """Show what is happening now."""
        if what != self.what:
            self.what = what
            self._show()

    def done(self):
        """The last update; the seconds since the start."""
        self._show()
        with self.lock:
            self.stopped.set()
            if self.tty:
                self.stream.write("\n")
                self.stream.flush()
        return time.time() - self.start


# ---- tree copies ---------------------------------------------------------------

# What a copy of build/<arch> leaves out: boot logs and images, and what
# only `make run` and the Pi 4 card use (make rebuilds them if asked).
NOT_COPIED = ("test", "disk.img", "run.img", "rpi4")


def copy_tree(dest, arch, root=ROOT, builds=None):
    """The sources plus build/<arch> (or build/host), mtimes kept so make
    rebuilds only what changes in the copy (a mutant, a lab's skeleton).
    builds: the build folders to copy (default: the arch's plain, -nodebug
    and -vuln ones); a lab's grading copies only what its boot's kernel uses."""
    def skip(d, names):
        top = os.path.abspath(d) == root
        return [n for n in names if (top and n in ("build", ".git")) or n == "__pycache__"]
    shutil.copytree(root, dest, ignore=skip, symlinks=True)
    if builds is None:
        builds = ["host"] if arch == "host" else [arch, f"{arch}-nodebug", f"{arch}-vuln"]
    if arch == "arm64":
        builds = list(builds) + ["gnu-efi-arm64"]
    for b in dict.fromkeys(builds):
        src = os.path.join(root, "build", b)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(dest, "build", b), symlinks=True,
                            ignore=lambda d, names: [n for n in names if n in NOT_COPIED])
    # newlib (lib/user/newlib.mk) is shared, not copied: it takes minutes to build.
    newlib = os.path.join(root, "build", "newlib")
    if os.path.isdir(newlib):
        os.makedirs(os.path.join(dest, "build"), exist_ok=True)
        os.symlink(os.path.realpath(newlib), os.path.join(dest, "build", "newlib"))
