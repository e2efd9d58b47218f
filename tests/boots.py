# SPDX-License-Identifier: MIT
"""tests/boots.py - the boot matrix: every QEMU boot of the test suite and
what it must show.

Data, not a front door: tests/run.py runs these boots, tests/mutate.py
names its mutants' subsets by them (main_fw) and builds their kernels with
their make_vars, tests/lab.py grades on them (tests/grading.py). The arch
list and the exit statuses come from tests/harness.py, which boots them.
Python standard library only.
"""
import re
from dataclasses import dataclass, field

from harness import ARCHES, EXIT_OK, EXIT_PANIC, ICOUNT_CPU, icount_options, kstack_strategies

DEFAULT_CMDLINE = "ktest=all"
# The console test's word (harness.Session types it when asked) and the
# receive interrupt's stall (harness.TYPE_GAP says why).
TYPED = "console.expect=stackshift console.rx_stall_us=30000"


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
    make_vars: dict = field(default_factory=dict)  # e.g. QEMU_CPU=qemu64
    group: str = ""                # "<name>:differ" or "<name>:same": compare CRNG test outputs
    bench: bool = False            # a user/bench/bench run: scripts/bench_report.py --check its log
    parallel: bool = False         # every vCPU a host thread (see qemu_extra)
    # regexes the log must contain only if the ktest= list runs that self-test
    # ("user.security": [...]): tests/run.py --ktest may leave it out
    expect_if_run: dict = field(default_factory=dict)


def ktest_selects(cmdline, test):
    """Whether the command line's ktest= list runs self-test `test`
    ("suite.name"), as kernel/ktest.c's selected() decides: "all", the suite
    or the test itself, unless "-suite" or "-suite.name" leaves it out."""
    m = re.search(r"(?:^|\s)ktest=(\S+)", cmdline)
    if not m:
        return False
    items = m.group(1).split(",")
    suite = test.split(".")[0]
    if f"-{suite}" in items or f"-{test}" in items:
        return False
    return "all" in items or suite in items or test in items


def replace_ktest(cmdline, ktest):
    """The command line with its ktest= list replaced (tests/run.py --ktest)."""
    return re.sub(r"\bktest=\S+", f"ktest={ktest}", cmdline)


def expectations(b):
    """Every regex boot b's log must contain: its expect, and the expect_if_run
    of each self-test its command line runs."""
    return b.expect + [p for test, patterns in b.expect_if_run.items()
                       if ktest_selects(b.cmdline, test) for p in patterns]


# The .kstack boots' self-tests: lab 4's grade (the prng's migration
# trials, the distribution of off, prng and prng-task) is part of
# migration_attack and distribution_and_bounds.
KSTACK_KTEST = "ktest=kstack,-kstack.migration_attack_prng,-kstack.distribution_and_bounds_prng"
KSTACK_TIMEOUT = 1800  # seconds: the .kstack boots (boot_matrix explains)


def turn_cpus(arch):
    """CPUs for the long boots whose vCPUs take turns on one host thread
    (qemu_extra). riscv64 gets two: QEMU 7.2 keeps a riscv vCPU that spins
    at `pause` on the host thread until a 100 ms kick, which four vCPUs in
    turn made cost 950 s for the stack offset suite; two in turn took 123 s,
    against 191 s (two) and 202 s (four) with a host thread each, and
    riscv64.sifive_u.kstack 144 s against 613 s. The suites need two CPUs;
    every CPU a machine has is brought up and tested by its main boot."""
    return 2 if arch == "riscv64" else 4


def booted(arch, smp):
    """What every boot must print: banner, memory map, CPUs described and online."""
    online = r"smp: 1 CPU online" if smp == 1 else rf"smp: {smp} CPUs online"
    return [r"stackshift \S+ \(" + arch + r"\)", r"memory: \d+ regions, \d+ MiB usable",
            rf"cpus: {smp} described by", online]


# The ASID bits of the CPUs the tests run on (kernel/mm/asid.c): QEMU 7.2's
# TCG offers no PCID on x86_64 (not even -cpu max,+pcid), 16 bits on arm64's
# max and on riscv64's rv64.
ASID_BITS = {"x86_64": 0, "arm64": 16, "riscv64": 16}


def asid_line(arch, limited=False):
    """The boot log's ASID line: all the hardware has, or mm.asid_limit=2's one value."""
    bits = ASID_BITS[arch]
    if bits == 0:
        return r"mm: ASIDs: 0 bits in hardware; none used \(every switch flushes the TLB\)"
    used = r"2 in use \(mm\.asid_limit\)" if limited else f"{1 << bits} in use"
    return rf"mm: ASIDs: {bits} bits in hardware; {used}"


# ---- each arch's own boots ---------------------------------------------------

# The firmware paths each arch boots through; the last is the one every
# other boot of the arch uses (main_fw).
FIRMWARE = {"x86_64": ["uefi"], "arm64": ["uefi", "uboot"], "riscv64": ["uboot"]}
# arm64: QEMU's virt has a GICv2 unless told otherwise; each boot says which it found.
GIC_SAYS = {"x86_64": [], "arm64": [r"gic: GICv2 distributor"], "riscv64": []}
# The strategy the 3-CPU boot asks for and cannot have: riscv64's CPU has no
# hardware random number instruction the kernel uses; elsewhere a bad name.
BAD_STRATEGY = {"x86_64": "bogus", "arm64": "bogus", "riscv64": "hw"}
# -icount, shift=3 rather than make bench's 0: the counter then advances 8
# per instruction, which the checks do not see, and the firmware's busy
# waits take an eighth of the instructions (x86_64's OVMF: 10 s, not 134 s).
ICOUNT3 = icount_options(3)

# A child's forged results come out marked, and none counts (each is a
# "not ok" the KTAP parser would fail the boot with): through the console
# server, through the kernel (init=off), in a ktest= boot (smp3).
FORGED = [r"(?m)^ *ok \d+ - security\.fake_output_refused$",
          r"(?m)^ *ok \d+ - security\.console_read_refused_while_served$",
          r"(?m)^not ok~ 1 - security\.forged_result", r"(?m)^ +ok~ 2 - security\.forged_indented",
          r"(?m)^not ok~ 3 - security\.forged_in_pieces",
          # after bytes some readers take for a line break or a blank,
          # and after the kernel's line (the guard is the kernel's, one
          # for the UART): marked all the same
          r"zz\x0bnot ok~ 81 - security\.forged_after_vt",
          r"zz\x1cnot ok~ 82 - security\.forged_after_fs",
          r"\xa0not ok~ 83 - security\.forged_after_nbsp",
          r"zz\u2028not ok~ 84 - security\.forged_after_u2028",
          r"zzpid \d+ \(test_security\): killed: ",
          r"(?m)^not ok~ 85 - security\.forged_after_kernel_line",
          r"(?s)\A(?!.*(not )?ok \d+ - security\.forged)"]


def main_boot(arch, fw):
    """The main self-tests on one firmware path, console input typed."""
    return Boot(f"{arch}.{fw}", arch, fw, parallel=True,
                cmdline=f"{DEFAULT_CMDLINE},-kstack,-attack,-fuzz,-soak {TYPED}",
                expect=booted(arch, 4) + GIC_SAYS[arch] +
                [r"console: input by interrupt",
                 r"kstack: strategy prng \(default\)", asid_line(arch)])


def suite_boots(arch, fw):
    """The suites with a boot of their own: ASIDs narrowed, the stack offset
    suite, the attack demonstrations, the fuzzer and the soak."""
    cpus = turn_cpus(arch)
    return [
        # One ASID value left (mm.asid_limit=2): every switch between two
        # user address spaces starts a new generation, whose flush is all
        # that keeps the next program from the last one's pages
        # (mm.asid_rollover); the shootdown tests run under it too.
        Boot(f"{arch}.{fw}.asid", arch, fw,
             cmdline="ktest=mm,user.tlb_shootdown mm.asid_limit=2",
             expect=booted(arch, 4) + [asid_line(arch, limited=True)]),
        # The stack offset suite has a boot of its own, the longest of all: a
        # clean make test (two boots at once on two cores) measured 451 s on
        # x86_64 and 755 s on arm64, so its timeout leaves room for a host
        # twice as busy.
        Boot(f"{arch}.{fw}.kstack", arch, fw, cmdline=KSTACK_KTEST, smp=cpus,
             expect=booted(arch, cpus), timeout=KSTACK_TIMEOUT),
        # The attack demonstrations (docs/attacks.md) have one too.
        Boot(f"{arch}.{fw}.attack", arch, fw, cmdline="ktest=attack", smp=cpus,
             expect=booted(arch, cpus), timeout=600),
        # The syscall fuzzer (10^5 calls) and the 20 s soak: a boot of their own.
        Boot(f"{arch}.{fw}.fuzz-soak", arch, fw, cmdline="ktest=fuzz,soak", smp=cpus,
             expect=booted(arch, cpus), timeout=600),
    ]


def icount_boots(arch, fw):
    """The boots that count instructions (-icount, one CPU)."""
    icount_cpu = {"QEMU_CPU": ICOUNT_CPU[arch]} if arch in ICOUNT_CPU else {}
    return [
        # A short `make bench ICOUNT=1`: the tables come out and `off` is the
        # fastest strategy on the invalid call (exact instruction counts).
        Boot(f"{arch}.{fw}.bench-icount", arch, fw, smp=1, ktap=False, bench=True,
             cmdline="run=bench run.args=300,3,all,1 kstack.debug run.driver run.control",
             qemu_extra=ICOUNT3, make_vars=icount_cpu,
             expect=[r"BENCH end", r"run=bench: exit status 0"], timeout=400),
        # A make IRQSOFF=1 kernel (build/<arch>-irqsoff) under -icount:
        # every IRQs-off window at most 5,000 instructions while the pool
        # hostile loop, an IPC storm and brk's 48 MiB run (irqsoff.*, user/
        # tests/test_irqsoff.c). One CPU: -icount runs the vCPUs in turn on
        # one host thread, so a CPU spinning for a lock another vCPU holds
        # counts instructions until QEMU switches vCPUs (1.7 million seen
        # with two), which measures QEMU's turns, not the kernel.
        Boot(f"{arch}.{fw}.irqsoff", arch, fw, smp=1,
             cmdline="ktest=irqsoff irqsoff.per_insn=8", qemu_extra=ICOUNT3,
             make_vars={"IRQSOFF": "1", **icount_cpu},
             expect=booted(arch, 1) + [r"irqsoff: timing every IRQs-off window"], timeout=600),
    ]


def console_boots(arch, fw):
    """Programs printing with and without init's console server."""
    return [
        # init starts the console server, which owns the UART and
        # takes its interrupt through a notification; the client's output
        # and the word typed in reach it through the server.
        Boot(f"{arch}.{fw}.init-console", arch, fw, ktap=False, timeout=120,
             cmdline="run=init run.args=hello_console:input",
             expect=[r"console_server: serving the (16550|PL011|SiFive) UART",
                     r"### INPUT PLEASE: stackshift",
                     r"(?m)^ *ok \d+ - ipc\.console_input_through_server",
                     r"(?m)^ *ok \d+ - ipc\.console_input_by_interrupt",
                     r"init: hello_console exit status 0",
                     r"init: console server: \d+ bytes written, \d+ received, [1-9]\d* interrupts",
                     r"init: console_server exit status 0",
                     r"run=init: exit status 0"]),
        # init=off: no console server, so programs print through the
        # kernel's debug console (the C library falls back to it).
        Boot(f"{arch}.{fw}.init-off", arch, fw, ktap=False, timeout=120,
             cmdline="init=off run=hello",
             expect=[r"hello from pid \d+ on cpu \d+", r"run=hello: exit status 0",
                     r"(?s)\A(?!.*console_server: serving)"]),
    ]


def gate_boots(arch, fw):
    """The image a user boots: no ktest=, no kstack.debug. A program from
    run= gets -EPERM from every debug call, even holding the control
    capability (run.control), and so does its child; the banner says so.
    Then the same with the debug calls compiled out (make DEBUG_CALLS=0):
    the banner says so and the calls answer -ENOSYS or -EPERM."""
    passed = [r"(?m)^ *ok \d+ - security\.gate_closed$", r"(?m)^ *ok \d+ - vuln\.absent$",
              r"run=test_security: exit status 0"]
    return [
        Boot(f"{arch}.{fw}.gate-closed", arch, fw, ktap=False, timeout=120,
             cmdline="run=test_security run.args=gate-closed run.control",
             expect=[r"kstack: strategy prng \(default\).*; debug calls off"] + passed + FORGED),
        Boot(f"{arch}.{fw}.gate-closed-nodebug", arch, fw, ktap=False, timeout=120,
             cmdline="run=test_security run.args=gate-closed run.control kstack.debug init=off",
             make_vars={"DEBUG_CALLS": "0"},
             expect=[r"kstack: strategy prng \(default\).*; debug calls off "
                     r"\(not built in\)"] + passed + FORGED),
    ]


def vuln_boots(arch, fw):
    """A kernel built with make VULN=1 (build/<arch>-vuln): the two
    deliberately vulnerable calls attacked under every strategy
    (user/demos/vuln_demo.c prints the vuln.* subtests); the banner warns
    about them."""
    return [Boot(f"{arch}.{fw}.vuln", arch, fw, cmdline="ktest=vuln",
                 make_vars={"VULN": "1"}, timeout=300,
                 expect=booted(arch, 4) + [r"vuln: WARNING: built with make VULN=1"])]


def smp_boots(arch, fw):
    """Other CPU counts boot too and report the right number. They also
    choose the stack offset strategy on the command line: a valid name
    (locked), and one unknown or (riscv64) one the CPU cannot do. smp3's
    user.security (not locked) has its child forge results in a ktest=
    boot. smp3 also runs the IPC tests with the IPC fastpath off
    (ipc.fastpath=0): every call takes the ordinary path, and the
    fastpath's transcript must come out the same as with it on."""
    bad = BAD_STRATEGY[arch]
    warning = (r"kstack: WARNING: kstack=hw is not available here; keeping prng" if bad == "hw"
               else r"kstack: WARNING: unknown kstack=bogus; valid: "
               + re.escape(" ".join(kstack_strategies())) + "; keeping prng")
    tests = "ktest=boot,user.smp_scheduler,user.security"
    return [
        Boot(f"{arch}.{fw}.smp1", arch, fw, smp=1,
             cmdline=f"{tests} kstack=pool kstack.lock",
             expect=booted(arch, 1) + GIC_SAYS[arch] + [r"kstack: strategy pool "]),
        Boot(f"{arch}.{fw}.smp3", arch, fw, smp=3,
             cmdline=f"{tests},user.ipc,user.ipc_fastpath kstack={bad} ipc.fastpath=0",
             expect=booted(arch, 3) + GIC_SAYS[arch] +
             [warning, r"kstack: strategy prng \(default\)", r"ipc: fastpath off"],
             expect_if_run={"user.security": FORGED}),
    ]


def many_cpu_boots(arch, fw):
    """Many CPUs: 16 on x86_64 and riscv64 (arm64 needs a GICv3 for more
    than 8: gicv3_boots), and on x86_64 more than MAX_CPUS described, of
    which the first 64 start. x86_64's runs every self-test (ktest=all: the
    stack offset suite, the attacks, the fuzzer and the soak too): a test
    that assumes the test matrix's CPU counts fails here. Its 16 vCPUs take
    turns on one host thread (not `parallel`): the same 532 checks cost
    465 s of host CPU with a thread per vCPU and 92 s in turn; the 4-CPU
    main boots keep the real concurrency. The stack offset boots' timeout:
    the suite's length on a host loaded well past its two cores."""
    if arch == "arm64":
        return gicv3_boots()
    x86 = arch == "x86_64"
    boots = [Boot(f"{arch}.{fw}.smp16", arch, fw, smp=16, parallel=not x86,
                  cmdline=DEFAULT_CMDLINE if x86 else "ktest=boot,user.smp_scheduler",
                  expect=booted(arch, 16), timeout=KSTACK_TIMEOUT if x86 else 240)]
    if x86:
        boots.append(Boot(f"{arch}.{fw}.smp70", arch, fw, smp=70, cmdline="ktest=boot", parallel=True,
                          expect=[r"cpus: 70 described by", r"smp: 70 CPUs described, using the first 64",
                                  r"smp: 64 CPUs online"], timeout=300))
    return boots


# What each crash= boot must print besides the panic report (crash_boots).
CRASHES = {
    "panic": [r"deliberate panic"],
    "fault": [r"KERNEL PANIC on CPU \d+: .*(fault|abort)"],
    # (the allowed uses first: a check refusing them is wrong too)
    "percpu": [r"crash=percpu: this_cpu\(\) allowed with preemption off and with "
               r"interrupts masked", r"this_cpu\(\) with preemption enabled"],
    "lock-to-user": [r"returning to user space with preempt count 1: .*"
                     r"last lock taken at kernel/syscall/sys_debug\.c:\d+"],
    "exec-user": [r"KERNEL PANIC on CPU \d+: .*(instruction fetch|instruction page fault)"],
    # Reported from the emergency stack, whole: the registers (the arch's
    # program counter, STACK_OVERFLOW_PC), a backtrace down the overflowed
    # stack to its limit of 32 frames, and the last line.
    "stack-overflow": [r"KERNEL PANIC on CPU \d+: kernel stack overflow in thread "
                       r"stack_overflow \(tid \d+, kernel thread\) at 0x[0-9a-f]+: stack "
                       r"\[0x[0-9a-f]+, 0x[0-9a-f]+\) with its guard page below; "
                       r"reported from this CPU's emergency stack",
                       None, r"#31 +0x[0-9a-f]+", r"System halted\."],
}
STACK_OVERFLOW_PC = {"x86_64": r"rip [0-9a-f]{16}", "arm64": r"elr [0-9a-f]{16}",
                     "riscv64": r"sepc [0-9a-f]{16}"}


def crash_boots(arch, fw):
    """A broken kernel must be caught and reported, on every arch, with the
    CPU, the registers and a backtrace, and the panic exit status."""
    panic_report = [r"KERNEL PANIC on CPU \d+", r"Backtrace:", r"#1 +0x[0-9a-f]+"]
    return [Boot(f"{arch}.{fw}.crash-{crash}", arch, fw, cmdline=f"crash={crash}",
                 status=EXIT_PANIC, ktap=False,
                 expect=panic_report + [STACK_OVERFLOW_PC[arch] if m is None else m for m in says])
            for crash, says in CRASHES.items()]


# Each arch's boots beyond the main ones, family by family, in this order.
ARCH_FAMILIES = [suite_boots, icount_boots, console_boots, gate_boots, vuln_boots, smp_boots,
                 many_cpu_boots, crash_boots]


def arch_boots(arch):
    """One arch's boots: the main boot on each firmware path, then every
    family on the last path."""
    fw = FIRMWARE[arch][-1]
    boots = [main_boot(arch, path) for path in FIRMWARE[arch]]
    for family in ARCH_FAMILIES:
        boots += family(arch, fw)
    return boots


def boot_matrix():
    """Every boot of make test: each arch's firmware paths and their special
    boots, the crash boots, then the AIA machines, the boards, the bus, the
    entropy rows."""
    boots = [b for arch in ARCHES for b in arch_boots(arch)]
    # entropy_matrix() last: tests/mutate.py names each arch's last boot's firmware path.
    return boots + aia_boots() + board_boots() + bus_boots() + entropy_matrix()


def aia_boots():
    """riscv64 on the RISC-V Advanced Interrupt Architecture (docs/boards.md):
    QEMU virt with an APLIC that delivers directly (aia=aplic) and one that
    forwards MSIs to the harts' IMSICs (aia=aplic-imsic), on two CPUs. Each
    has two short boots: the console's input typed and taken by interrupt,
    the interrupt-to-driver tests (ipc.irq_*) and the console server, then
    a driver's level-triggered line still asserted at its ack (test_device
    still_asserted: the APLIC's MSIs need setipnum for it); and init's
    console server taking the typed input by interrupt."""
    modes = {
        "aplic": [r"aplic: @ 0xd000000, direct delivery: console source 10 to hart \d+ \(IDC \d+\)"],
        "aplic-imsic": [r"imsic: @ 0x28000000, 255 identities; hart \d+'s S-level file \(index \d+\) "
                        r"takes identity 10",
                        r"aplic: @ 0xd000000, MSI delivery: console source 10 to hart \d+ \(index \d+\)"],
    }
    boots = []
    for mode, says in modes.items():
        machine = {"QEMU_MACHINE": f"virt,aia={mode}"}
        boots += [
            Boot(f"riscv64.uboot.{mode}", "riscv64", "uboot", smp=2, make_vars=machine,
                 cmdline=f"ktest=boot,console,user.ipc_device,user.console_server {TYPED} "
                         f"run=test_device run.args=still_asserted run.driver run.control",
                 expect=booted("riscv64", 2) + says +
                 [r"console: input by interrupt",
                  r"(?m)^ *ok \d+ - ipc\.irq_fires_again_after_ack",
                  r"(?m)^ *ok \d+ - ipc\.irq_child_driver_got_interrupt",
                  r"(?m)^ *ok \d+ - ipc\.irq_still_asserted_fires_after_ack$",
                  r"run=test_device: exit status 0"]),
            Boot(f"riscv64.uboot.{mode}.init-console", "riscv64", "uboot", smp=2, make_vars=machine,
                 ktap=False, timeout=120, cmdline="run=init run.args=hello_console:input",
                 expect=says + [r"console_server: serving the 16550 UART",
                                r"### INPUT PLEASE: stackshift",
                                r"(?m)^ *ok \d+ - ipc\.console_input_through_server",
                                r"(?m)^ *ok \d+ - ipc\.console_input_by_interrupt",
                                r"init: console server: \d+ bytes written, \d+ received, "
                                r"[1-9]\d* interrupts",
                                r"run=init: exit status 0"]),
        ]
    return boots


# QEMU's models of real boards (docs/boards.md): arch, CPUs the kernel
# uses, and what the boot log must say about the board's own hardware.
BOARDS = {
    "sifive_u": ("riscv64", 4, [r"board: SiFive HiFive Unleashed A00 \(sifive,hifive-unleashed-a00\)",
                                r"console: sifive-uart @ 0x10010000", r"timer: SBI set_timer",
                                r"smp: starting 3 more CPUs by SBI HSM hart_start",
                                r"plic: @ 0xc000000, console source \d+ to hart \d+ S-mode context",
                                r"random: Zkr +absent", r"random: jitter +used"]),
    "versal": ("arm64", 2, [r"board: Xilinx Versal Virtual development board \(xlnx-versal-virt\)",
                            r"console: pl011 @ 0xff000000", r"firmware: PSCI 1\.1 via smc",
                            r"smp: starting 1 more CPU by PSCI CPU_ON via smc",
                            r"gic: GICv3 distributor 0xf9000000",
                            r"random: RNDR +absent",
                            r"random: virtio-rng found, used: 256 bits credited",
                            r"random: 256 bits credited: CRNG ready, reseeded from virtio-rng"]),
    "raspi3b": ("arm64", 4, [r"boot: booti via", r"board: Raspberry Pi 3 Model B \(raspberrypi,3-model-b\)",
                             r"console: ns16550 @ 0x3f215040",
                             r"psci: none; cpu@0 asks for spin-table \(release address 0xd8\)",
                             r"smp: starting 3 more CPUs by spin-table",
                             r"gic: BCM2836 local interrupt controller @ 0x40000000, BCM2835 "
                             r"controller chained",
                             r"gic: console interrupt: BCM2836 local INTID 93",
                             r"random: RNDR +absent",
                             r"random: bcm2835-rng found, used: 256 bits credited"]),
}


def board_boots():
    """Each board: the main self-tests (console input typed, by interrupt),
    the stack offset suite, and init's console server on the board's UART."""
    boots = []
    for board, (arch, cpus, says) in BOARDS.items():
        name = f"{arch}.{board}"
        boots += [
            Boot(name, arch, board, smp=cpus, parallel=True,
                 cmdline=f"{DEFAULT_CMDLINE},-kstack,-attack,-fuzz,-soak {TYPED}",
                 expect=booted(arch, cpus) + says + [r"counter: [1-9]\d* Hz",
                                                     r"console: input by interrupt"]),
            Boot(f"{name}.kstack", arch, board, smp=min(cpus, turn_cpus(arch)),
                 cmdline=KSTACK_KTEST, expect=booted(arch, min(cpus, turn_cpus(arch))),
                 timeout=KSTACK_TIMEOUT),
            Boot(f"{name}.init-console", arch, board, smp=cpus, ktap=False, timeout=120,
                 cmdline="run=init run.args=hello_console:input",
                 expect=[r"console_server: serving the (16550|PL011|SiFive) UART",
                         r"### INPUT PLEASE: stackshift",
                         r"(?m)^ *ok \d+ - ipc\.console_input_by_interrupt",
                         r"init: console server: \d+ bytes written, \d+ received, [1-9]\d* interrupts",
                         r"run=init: exit status 0"]),
        ]
    return boots


def bus_boots():
    """arm64 on QEMU virt with its UART and GIC moved onto a bus whose ranges
    are not 1:1 (tests/dtb/virt-bus.dts): the kernel must translate their
    reg (Devicetree Specification 2.3.8) and drive both; the console server
    takes typed input by interrupt through the translated GIC."""
    return [
        # The same tree without /chosen/stdout-path: no console, so the
        # kernel stops at once with the panic status instead of running mute.
        Boot("arm64.virt-no-console", "arm64", "virt-no-console", smp=2, ktap=False, timeout=60,
             status=EXIT_PANIC),
        Boot("arm64.virt-bus.init-console", "arm64", "virt-bus", smp=2, ktap=False, timeout=120,
             cmdline="run=init run.args=hello_console:input",
             expect=booted("arm64", 2) + [
                 r"gic: GICv2 distributor 0x8000000, CPU interface 0x8010000",
                 r"console: pl011 @ 0x9000000",
                 # Its virtio-mmio transports are all empty (and legacy):
                 # virtio_rng.c must pass every one over by its DeviceID.
                 r"random: virtio-rng +absent \(no compatible node holds one\)",
                 r"console_server: serving the PL011 UART",
                 r"### INPUT PLEASE: stackshift",
                 r"(?m)^ *ok \d+ - ipc\.console_input_by_interrupt",
                 r"run=init: exit status 0"]),
    ]


def gicv3_boots():
    """arm64 on a GICv3 (QEMU virt,gic-version=3): the main boot's self-tests on
    both firmware paths, 16 and 20 CPUs (past GICv2's limit of 8), a panic."""
    v3 = {"QEMU_MACHINE": "virt,acpi=off,gic-version=3"}
    says = [r"gic: GICv3 distributor \S+, \d+ redistributors? in \d+ regions?",
            r"gic: GICv3, \d+ INTIDs; timer INTID 27", r"console: input by interrupt"]
    return [
        Boot("arm64.uboot.gicv3", "arm64", "uboot", make_vars=v3, parallel=True,
             cmdline=f"{DEFAULT_CMDLINE},-kstack,-attack,-fuzz,-soak {TYPED}",
             expect=booted("arm64", 4) + says + [r"kstack: strategy prng \(default\)"]),
        Boot("arm64.uefi.gicv3", "arm64", "uefi", make_vars=v3, parallel=True,
             cmdline=f"ktest=boot,console,user.smp_scheduler,user.tlb_shootdown {TYPED}",
             expect=booted("arm64", 4) + says),
        Boot("arm64.uboot.gicv3-smp16", "arm64", "uboot", make_vars=v3, smp=16, parallel=True,
             cmdline="ktest=boot,user.smp_scheduler", timeout=600,
             expect=booted("arm64", 16) + says[:2] + [r"gic: GICv3 distributor \S+, 16 redistributors"]),
        # QEMU puts 16 CPUs in each Aff1 cluster: CPUs 16-19 (MPIDR 0x100-0x103)
        # are reached only through ICC_SGI1R_EL1's Aff1 (boot.ipis_reach_every_cpu).
        Boot("arm64.uboot.gicv3-smp20", "arm64", "uboot", make_vars=v3, smp=20, parallel=True,
             cmdline="ktest=boot", timeout=600,
             expect=booted("arm64", 20) + [r"cpu16: online \(hardware id 0x100\)"]),
        # The panic's IPI_STOP to the other CPUs, by SGI.
        Boot("arm64.uboot.gicv3-crash-panic", "arm64", "uboot", make_vars=v3, cmdline="crash=panic",
             status=EXIT_PANIC, ktap=False,
             expect=says[:2] + [r"KERNEL PANIC on CPU \d+: deliberate panic", r"Backtrace:"]),
    ]


# The entropy rows' self-tests and what their logs say.
RNG_QUIET = "ktest=random"
RNG_NO_SOURCES = "ktest=random rng.no_cpu rng.no_firmware"
RNG_READY = r"random: \d+ bits credited: CRNG ready"
RNG_WEAK = r"random: CRNG NOT SEEDED: only \d+ of 256 bits credited; its output is weak"
RNG_DETERMINISTIC = r"random: CRNG NOT SEEDED: only 0 of 256 bits credited; its output is deterministic"
RNG_NOT_SEEDED = r"random: CRNG NOT SEEDED: only 0 of 256 bits credited"
# rng.credit_late: unseeded at boot, seeded by the first reseed, which
# random.late_seed_reseeds_offset_generators forces and then checks that
# every CPU redrew its prng and siphash seeds (docs/porting.md, MUST 6).
RNG_LATE = r"random: CRNG NOT SEEDED: only 0 of 256 bits credited; seeded at the first reseed\s"


def rng_source_rows():
    """(arch, fw, name, make_vars, qemu_extra, cmdline, expect) of each CPU
    and firmware configuration: which seed sources it finds and uses."""
    return [
        # x86_64: RDSEED/RDRAND on -cpu max; firmware or jitter without them.
        # (QEMU 7.2's TCG "max" CPU has RDRAND but not RDSEED.)
        ("x86_64", "uefi", "rng-max", {}, "", f"{RNG_QUIET} rng.credit_late",
         [r"random: RDSEED +(found, used|absent)", r"random: RDRAND +found, used",
          r"random: EFI RNG +found, used: 64 bytes", RNG_LATE]),
        ("x86_64", "uefi", "rng-qemu64-efi", {"QEMU_CPU": "qemu64"}, "", RNG_QUIET,
         [r"random: RDSEED +absent", r"random: RDRAND +absent",
          r"random: EFI RNG +found, used: 64 bytes", RNG_READY]),
        ("x86_64", "uefi", "rng-qemu64-jitter", {"QEMU_CPU": "qemu64", "QEMU_RNG": ""}, "", RNG_QUIET,
         [r"random: RDRAND +absent", r"random: EFI RNG +absent", r"random: jitter +used", RNG_WEAK]),
        # arm64: RNDRRS/RNDR on -cpu max; rng-seed on a Cortex-A72; jitter without both.
        ("arm64", "uboot", "rng-max", {}, "", f"{RNG_QUIET} rng.credit_late",
         [r"random: RNDRRS +found, used", r"random: RNDR +found, used", RNG_LATE]),
        ("arm64", "uboot", "rng-a72", {"QEMU_CPU": "cortex-a72"}, "", RNG_QUIET,
         [r"random: RNDRRS +absent", r"random: rng-seed +found, used: 32 bytes", RNG_READY]),
        ("arm64", "uboot", "rng-a72-nodtbrng",
         {"QEMU_CPU": "cortex-a72", "QEMU_MACHINE": "virt,acpi=off,dtb-randomness=off"}, "", RNG_QUIET,
         [r"random: RNDR +absent", r"random: rng-seed +absent", r"random: jitter +used", RNG_WEAK]),
        # riscv64: Zkr listed but not enabled by Debian's OpenSBI; absent without it.
        ("riscv64", "uboot", "rng-zkr", {"QEMU_CPU": "rv64,zkr=true"}, "", RNG_QUIET,
         [r"random: Zkr +found, not used: present but not enabled by firmware",
          r"random: rng-seed +found, used", RNG_READY]),
        ("riscv64", "uboot", "rng-nozkr", {}, "", RNG_QUIET,
         [r"random: Zkr +absent", r"random: rng-seed +found, used", RNG_READY]),
    ]


def rng_fault_rows():
    """Injected faults: the source is reported failed, nothing hangs or
    panics, and the CRNG is seeded from what is left (or says it is not)."""
    rows = []
    faults = {"x86_64": ("uefi", "rdrand", "RDRAND", RNG_READY),
              "arm64": ("uboot", "rndrrs", "RNDRRS", RNG_READY),
              "riscv64": ("uboot", "rng-seed", "rng-seed", r"random: CRNG NOT SEEDED")}
    for arch, (fw, src, name, outcome) in faults.items():
        for mode, why in (("stuck", r"failed (health test|self-test)|failed: all \d+ bytes are equal"),
                          ("ones", r"failed (self-test|health test)|failed: all \d+ bytes are equal"),
                          ("intermittent", r"failed self-test|used"),
                          ("fail", r"failed|absent")):
            if src == "rng-seed" and mode == "intermittent":
                continue
            rows.append((arch, fw, f"rng-inject-{mode}", {}, "", f"{RNG_QUIET} rng.inject={src}:{mode}",
                         [rf"random: {name} +(found, not used: ({why})|absent)", outcome]))
    return rows


def rng_twin_boots():
    """Two boots with a real source give different CRNG output; two boots under
    -icount with every nondeterministic source off give the same, and say so.
    On riscv64 the 10 MHz time CSR advances every 100 instructions, so the
    jitter deltas are a periodic pattern (credited 0 bits) whose phase
    depends on when U-Boot's disk reads finished: not seeded, but not
    bit-for-bit repeatable either, so only x86_64 and arm64 compare outputs."""
    boots = []
    for arch, fw in (("x86_64", "uefi"), ("arm64", "uboot"), ("riscv64", "uboot")):
        same = arch != "riscv64"
        for twin in "ab":
            boots.append(Boot(f"{arch}.{fw}.rng-twin-{twin}", arch, fw, cmdline=RNG_QUIET,
                              group=f"{arch}-real:differ", expect=[RNG_READY]))
            boots.append(Boot(f"{arch}.{fw}.rng-icount-{twin}", arch, fw, cmdline=RNG_NO_SOURCES,
                              qemu_extra=ICOUNT3, smp=1,
                              group=f"{arch}-icount:same" if same else "",
                              expect=[RNG_DETERMINISTIC if same else RNG_NOT_SEEDED], timeout=400))
    return boots


def entropy_matrix():
    """Which seed sources each configuration finds, uses and credits."""
    boots = [Boot(f"{arch}.{fw}.{name}", arch, fw, cmdline=cmdline, qemu_extra=extra,
                  make_vars=make_vars, expect=expect)
             for arch, fw, name, make_vars, extra, cmdline, expect
             in rng_source_rows() + rng_fault_rows()]
    return boots + rng_twin_boots()


def qemu_extra(b):
    """The boot's QEMU options, and how TCG runs its vCPUs. A `parallel`
    boot gets QEMU's default, a host thread per vCPU: CPUs really run at
    once, which the SMP, TLB shootdown and lock tests want. Every other boot
    has one thread take the vCPUs in turn (-accel tcg,thread=single; -icount
    implies it): with two boots of four vCPUs on two host cores, a vCPU
    spinning for another that the host has descheduled burns whole host time
    slices, and the x86_64 stack offset suite took 181 s alone that way
    against 58 s in turn. Races still happen in turn (vCPUs switch between
    translated blocks): kstack.integrity's crng16 count shows them. Not on
    riscv64: QEMU 7.2 ends a translated block at its spin hint (`pause`)
    but stays on the same vCPU until a 100 ms kick, where x86's `pause` and
    arm64's `yield` hand the thread on; its stack offset suite took 950 s
    in turn."""
    if b.parallel or (b.arch == "riscv64" and b.smp > 2) or "-icount" in b.qemu_extra:
        return b.qemu_extra
    return f"{b.qemu_extra} -accel tcg,thread=single".strip()



def build_dir(b):
    """build/<arch>, build/<arch>-nodebug for a kernel without debug calls,
    build/<arch>-vuln for one with the deliberately vulnerable calls,
    build/<arch>-irqsoff for one with the IRQs-off tracker (the Makefile's BUILD)."""
    return (b.arch + ("-nodebug" if b.make_vars.get("DEBUG_CALLS") == "0" else "")
            + ("-vuln" if b.make_vars.get("VULN") == "1" else "")
            + ("-irqsoff" if b.make_vars.get("IRQSOFF") == "1" else ""))


def boot_cmdline(cmdline):
    """A self-test boot opens the debug gate explicitly (kstack.debug): ktest=
    alone no longer does, and the self-tests read offsets and timers."""
    if "ktest=" in cmdline and "kstack.debug" not in cmdline.split():
        return cmdline + " kstack.debug"
    return cmdline


def main_fw(arch):
    """The firmware path whose boots the mutants and the labs name (the
    arch's last one in the matrix)."""
    return [b.boot for b in boot_matrix() if b.arch == arch][-1]
