/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_irqsoff.c - every IRQs-off window short, under load.
 *
 * For a kernel built with make IRQSOFF=1 (kernel/latency/irqsoff.h), booted
 * under QEMU -icount so that the counter counts instructions: the
 * tracker's records are reset on every CPU, then the work that used to
 * mask interrupts for long runs at once, with the latency timers on (their
 * drains) and `pool` in force:
 *   - on every CPU a hostile getpid loop: the pool empties, the tick asks
 *     for refills on the way back to user mode, the idle loop tops it up;
 *   - then the same loop with the background refills off (the pool hostile
 *     loop of kstack.pool_hostile): every 256th call finds the ring dry;
 *   - an IPC storm: round trips to an echo server on another CPU;
 *   - brk growing and shrinking by 48 MiB (the unmapping);
 *   - sleeps after the loops, while the idle loop tops the pool up.
 * irqsoff.max_within_bound: every CPU's longest window is at most
 * BOUND_INSNS instructions; the note names where each began and ended
 * ("#0 0x..." lines, which tests/run.py names with addr2line when the boot
 * fails). irqsoff.windows_seen: the tracker saw windows on every CPU.
 *
 * argv[1]: counter ticks per instruction, 2^shift of -icount.
 */
#include "kernel/uapi/kstack.h"
#include "kernel/uapi/latency.h"
#include "lib/user/ulib.h"
#include "user/common/bench_ipc.h"
#include "user/common/kstack_probe.h"

#define BOUND_INSNS   5000 /* the bound: any window longer delays an interrupt that long */
#define HOSTILE_CALLS 100000 /* per CPU and phase: more than the 65,536-byte pool */
#define IPC_CALLS     20000
#define BRK_BYTES     (48ul << 20)
#define BRK_ROUNDS    2
#define IDLE_NS       50000000 /* 50 ms: the idle loop refills 16 KiB or more */
#define MAX_CPUS_HERE 8
#define STACK_SIZE    (16 * 1024)

static unsigned long ncpus, per_insn = 1;
static volatile unsigned long hostile_done;
static char stacks[MAX_CPUS_HERE][STACK_SIZE] __attribute__((aligned(16)));

static long irqsoff(unsigned long cpu, struct latency_irqsoff *w, int reset)
{
    return syscall6(SYS_latency_ctl, LATENCY_IRQSOFF, cpu, (long)w, reset, 0, 0);
}

/* Pinned to CPU (long)arg: getpid as fast as it can. */
static void hostile(void *arg)
{
    sys_sched_setaffinity(0, 1ul << (unsigned long)arg);
    yield();
    for (long i = 0; i < HOSTILE_CALLS; i++)
        getpid();
    __atomic_fetch_add(&hostile_done, 1, __ATOMIC_RELEASE);
}

/* One hostile loop on every CPU, the caller's work meanwhile, then wait. */
static void hostile_everywhere(void (*meanwhile)(void))
{
    hostile_done = 0;
    for (unsigned long c = 0; c < ncpus; c++)
        thread_create(hostile, (void *)c, stacks[c], STACK_SIZE);
    meanwhile();
    while (__atomic_load_n(&hostile_done, __ATOMIC_ACQUIRE) < ncpus)
        yield();
}

static void ipc_storm(void)
{
    static struct hist h;
    long first_error = 0;
    int s = bench_ipc_start((int)(ncpus - 1), NULL);
    if (s < 0) {
        ktap_note("no echo server: the IPC storm did not run");
        return;
    }
    for (unsigned size = 0; size < BENCH_IPC_SIZES; size++)
        bench_ipc_round_trips(s, size, IPC_CALLS / BENCH_IPC_SIZES, 0, 0, 0, &h, &first_error);
}

static void brk_storm(void)
{
    char *base = sys_brk(0);
    for (int r = 0; r < BRK_ROUNDS; r++) {
        char *top = sys_brk(base + BRK_BYTES);
        for (char *p = base; p < top; p += 4096)
            *p = 1; /* touch every page */
        sys_brk(base);
    }
}

static void ipc_and_brk(void)
{
    ipc_storm();
    ktap_note("IPC storm done");
    brk_storm();
}

static void nothing(void) {}

/* Sleep: the idle loop tops the pool up meanwhile, a kilobyte at a time. */
static void idle_a_while(void)
{
    struct timespec ts = {0, IDLE_NS};
    sys_nanosleep(&ts, NULL);
}

/* CPU c's longest window against the bound; false if none was seen. */
static bool check_cpu(unsigned long c, bool *within)
{
    struct latency_irqsoff w;
    if (irqsoff(c, &w, 0) != 0)
        return false;
    unsigned long insns = w.longest / per_insn;
    ktap_note("cpu%lu: longest IRQs-off window %lu instructions (%lu ticks) of %lu windows; "
              "site below",
              c, insns, w.longest, w.windows);
    ktap_note("  opened #0 0x%lx", w.from);
    ktap_note("  closed #1 0x%lx", w.to);
    if (insns > BOUND_INSNS)
        *within = false;
    return w.windows > 0;
}

int main(int argc, char **argv)
{
    struct debug_stats ds;
    struct latency_irqsoff w;
    syscall1(SYS_debug_stats, &ds);
    ncpus = ds.cpus_online < MAX_CPUS_HERE ? ds.cpus_online : MAX_CPUS_HERE;
    if (argc > 1)
        per_insn = strtoul(argv[1], NULL, 0) ?: 1;
    if (irqsoff(0, &w, 0) == -ENOSYS) {
        ktap_skip("irqsoff.max_within_bound", "kernel built without make IRQSOFF=1");
        return ktap_done();
    }
    syscall1(SYS_latency_ctl, LATENCY_ON);
    kstack_set(KSTACK_POOL);
    for (unsigned long c = 0; c < ncpus; c++)
        irqsoff(c, &w, 1);
    hostile_everywhere(ipc_and_brk); /* the tick's and the idle loop's refills */
    idle_a_while();
    ktap_note("hostile loops, IPC storm and brk done");
    syscall2(SYS_kstack_debug, KSTACK_DEBUG_POOL_TICK, 0);
    hostile_everywhere(nothing); /* every 256th call dry: the path's refills */
    ktap_note("hostile loops with the background refills off done");
    syscall2(SYS_kstack_debug, KSTACK_DEBUG_POOL_TICK, 1);
    idle_a_while();
    bool within = true, seen = true;
    for (unsigned long c = 0; c < ncpus; c++)
        seen &= check_cpu(c, &within);
    ktap_check(seen, "irqsoff.windows_seen");
    ktap_check(within, "irqsoff.max_within_bound");
    /* Only now: switching the timers or the strategy stops every CPU while
     * one rewrites the path (kernel/text_patch.c), a window of its own that
     * the workload is not about. */
    syscall1(SYS_latency_ctl, LATENCY_OFF);
    kstack_set(KSTACK_DEFAULT);
    return ktap_done();
}
