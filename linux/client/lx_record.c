/* SPDX-License-Identifier: MIT */
/*
 * linux/client/lx_record.c - records a conformance sample on Linux with the
 * recorder module (linux/recorder/): per CPU, CALLS probe calls pinned to
 * it, then TRIALS staged Bug 1 migrations, printed as
 *
 *   KSR s CPU DEPTH DEPTH ...        probe calls on CPU, in order
 *   KSR m FROM TO LEAKED NEXT        one clean trial (depths)
 *   KSR end CLEAN SPOILT
 *
 * scripts/linux_conformance.py turns depths into offsets (depth minus the
 * least depth seen) in the kit's format (tools/kstack-conformance).
 *
 * A trial (docs/porting.md, "Recording a sample on Linux"): this process
 * (T), pinned to CPU 0, makes a KSR_SLEEP call (its depth is LEAKED, taken
 * on CPU 0); a mover process pinned to CPU 1 moves T to CPU 1 while it
 * waits and wakes it, so the call ends on CPU 1. T then spins in user
 * mode, makes no system call, while the mover pins it back to CPU 0; T's
 * next call, a probe on CPU 0, gives NEXT. A design that picks the next
 * offset at a call's exit and keeps it per CPU leaves CPU 0's untouched
 * by the migrated call: NEXT == LEAKED. A trial counts only if each call
 * began and ended where the plan says.
 *
 *   lxargs=CALLS,TRIALS,CPUS
 */
#include "linux/client/lx_io.h"
#include "linux/client/lx_sys.h"
#include "linux/recorder/kstack_recorder.h"

#define AT_FDCWD        -100
#define O_RDONLY        0
#define O_RDWR          2
#define PROT_RW         3
#define MAP_SHARED_ANON 0x21 /* MAP_SHARED | MAP_ANONYMOUS */
#define SIGCHLD         17
#define SIGKILL         9

struct shared {
    volatile long phase; /* 1 T sleeps; 2 moved, woken; 3 T spins; 4 back on CPU 0; 9 stop */
    volatile long t_pid;
};

static int dev = -1;

static long pin(long pid, unsigned cpu)
{
    unsigned long mask = 1ul << cpu;
    return lx_syscall3(NR_sched_setaffinity, pid, sizeof(mask), &mask);
}

static long load_module(void)
{
    lx_syscall6(NR_mount, (long)"devtmpfs", (long)"/dev", (long)"devtmpfs", 0, 0, 0);
    long fd = lx_syscall3(NR_openat, AT_FDCWD, "/kstack_recorder.ko", O_RDONLY);
    if (fd < 0)
        return fd;
    long err = lx_syscall3(NR_finit_module, fd, "", 0);
    lx_syscall1(NR_close, fd);
    if (err < 0)
        return err;
    dev = (int)lx_syscall3(NR_openat, AT_FDCWD, "/dev/kstack_recorder", O_RDWR);
    return dev < 0 ? dev : 0;
}

static long probe(unsigned long cmd, struct ksr_reply *r)
{
    return lx_syscall3(NR_ioctl, dev, cmd, r);
}

static void samples(unsigned cpu, long calls)
{
    struct ksr_reply r;
    pin(0, cpu);
    for (long i = 0; i < calls; i++) {
        if (i % 32 == 0) {
            out_str(i ? "\nKSR s " : "KSR s ");
            out_u64(cpu);
        }
        probe(KSR_PROBE, &r);
        out_str(" ");
        out_u64(r.cpu_begin == cpu && r.cpu_end == cpu ? r.depth : 0);
    }
    out_str("\n");
    out_flush();
}

/* The mover (a child process on CPU 1): its half of every trial. */
static _Noreturn void mover(struct shared *sh)
{
    pin(0, 1);
    for (;;) {
        while (sh->phase != 1 || lx_syscall3(NR_ioctl, dev, KSR_WAITING, 0) != 1) {
            if (sh->phase == 9)
                lx_syscall1(NR_exit, 0);
            lx_syscall0(NR_sched_yield);
        }
        pin(sh->t_pid, 1);
        sh->phase = 2;
        lx_syscall3(NR_ioctl, dev, KSR_WAKE, 0);
        while (sh->phase != 3)
            lx_syscall0(NR_sched_yield);
        pin(sh->t_pid, 0);
        sh->phase = 4;
    }
}

/* One trial (T's half); 1 if clean. */
static int trial(struct shared *sh, struct ksr_reply *leaked, struct ksr_reply *next)
{
    sh->phase = 1;
    if (probe(KSR_SLEEP, leaked) != 0)
        return 0;
    sh->phase = 3;
    while (sh->phase != 4) /* user mode only: no call may end on CPU 0 */
        ;
    probe(KSR_PROBE, next);
    return leaked->cpu_begin == 0 && leaked->cpu_end == 1 && next->cpu_begin == 0 &&
           next->cpu_end == 0;
}

static void trials(long wanted)
{
    struct shared *sh =
        (struct shared *)lx_syscall6(NR_mmap, 0, 4096, PROT_RW, MAP_SHARED_ANON, -1, 0);
    long clean = 0, spoilt = 0;
    sh->phase = 0;
    sh->t_pid = lx_syscall0(NR_getpid);
    pin(0, 0);
    long child = lx_syscall6(NR_clone, SIGCHLD, 0, 0, 0, 0, 0);
    if (child == 0)
        mover(sh);
    while (clean < wanted && spoilt < 10 * wanted) {
        struct ksr_reply l, n;
        if (!trial(sh, &l, &n)) {
            spoilt++;
            continue;
        }
        clean++;
        out_str("KSR m 0 1 ");
        out_u64(l.depth);
        out_str(" ");
        out_u64(n.depth);
        out_str("\n");
    }
    sh->phase = 9;
    lx_syscall6(NR_wait4, child, 0, 0, 0, 0, 0);
    out_str("KSR end ");
    out_u64((uint64_t)clean);
    out_str(" ");
    out_u64((uint64_t)spoilt);
    out_str("\n");
    out_flush();
}

int lx_record(void)
{
    const char *args = env_get("lxargs");
    long calls = arg_number(args, 0, 60000), wanted = arg_number(args, 1, 200);
    long cpus = arg_number(args, 2, 2);
    long err = load_module();
    if (err) {
        out_str("KSR error: loading /kstack_recorder.ko or opening its device failed: -");
        out_u64((uint64_t)-err);
        out_str("\n");
        return 1;
    }
    out_str("KSR start " LX_ARCH "\n");
    for (unsigned cpu = 0; cpu < (unsigned)cpus; cpu++)
        samples(cpu, calls);
    if (cpus >= 2 && wanted > 0)
        trials(wanted);
    return 0;
}
