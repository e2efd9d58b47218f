/* SPDX-License-Identifier: MIT */
/*
 * user/bench/bench_null.c - the cost of the bare system call path, measured from
 * user space around one system call instruction, for every stack offset
 * strategy: the fastest and the mean of 2000 unknown-number calls (entry,
 * bounds check, exit) and of 2000 getpid() calls, in counter ticks, with the
 * cost of an empty measurement printed beside them (not subtracted).
 *
 * The counter is the kernel's latency counter (lib/user/counter.h): TSC,
 * PMCCNTR_EL0 (else CNTVCT_EL0), cycle (else time). Under QEMU with
 * `-icount shift=0,align=off,sleep=off` each counts guest instructions (on
 * arm64 CNTVCT_EL0 needs `cntfrq=1000000000` for that), so the numbers are
 * path lengths: boot with run=bench_null on the command line.
 *
 * A last row, "off+timers", repeats strategy off with the kernel's latency
 * timers on (kernel/latency/; needs kstack.debug): its difference from the
 * `off` row is the timers' own cost per call. "off+erase" and "pool+erase"
 * repeat off and pool with kstack.erase on (kernel/syscall/erase.c).
 */
#include "kernel/uapi/kstack.h"
#include "lib/user/counter.h"
#include "lib/user/ulib.h"

#define CALLS 2000

static unsigned long kind;

struct cost {
    uint64_t min, sum;
};

static struct cost measure(long nr)
{
    struct cost c = {~0ull, 0};
    for (int i = 0; i < CALLS; i++) {
        uint64_t t0 = counter_begin(kind);
        if (nr >= 0)
            raw_syscall0(nr);
        uint64_t d = counter_end(kind) - t0;
        c.min = d < c.min ? d : c.min;
        c.sum += d;
    }
    return c;
}

static void row(const char *name, struct cost c)
{
    printf(" %6lu %6lu.%02lu", (unsigned long)c.min, (unsigned long)(c.sum / CALLS),
           (unsigned long)(c.sum % CALLS * 100 / CALLS));
    (void)name;
}

/* Both calls timed once warm: the unknown number, then getpid. */
static void measure_both(struct cost *unk, struct cost *pid)
{
    measure(9999); /* warm up */
    *unk = measure(9999);
    *pid = measure(SYS_getpid);
}

static void print_row(const char *label, struct cost unk, struct cost pid)
{
    printf("bench_null: %-10s", label);
    row("unknown", unk);
    row("getpid", pid);
    printf("\n");
}

/* off with the latency timers on. */
static void timers_row(void)
{
    struct cost unk, pid;
    if (syscall1(SYS_kstack_set, KSTACK_OFF) != 0 || syscall1(SYS_latency_ctl, LATENCY_ON) != 0) {
        printf("bench_null: off+timers unavailable (the timers need kstack.debug)\n");
        return;
    }
    measure_both(&unk, &pid);
    syscall1(SYS_latency_ctl, LATENCY_OFF);
    print_row("off+timers", unk, pid);
}

/* kstack.erase (kernel/syscall/erase.c): off and pool, the stack cleared on the way out */
static void erase_rows(const char *const *names)
{
    const unsigned erased[] = {KSTACK_OFF, KSTACK_POOL};
    for (unsigned i = 0; i < 2; i++) {
        struct cost unk, pid;
        char label[32];
        if (syscall1(SYS_kstack_set, erased[i]) != 0 ||
            syscall2(SYS_kstack_debug, KSTACK_DEBUG_ERASE, 1) != 0) {
            printf("bench_null: %s+erase unavailable (needs kstack.debug and run.control)\n",
                   names[erased[i]]);
            continue;
        }
        measure_both(&unk, &pid);
        syscall2(SYS_kstack_debug, KSTACK_DEBUG_ERASE, 0);
        snprintf(label, sizeof(label), "%s+erase", names[erased[i]]);
        print_row(label, unk, pid);
    }
}

int main(void)
{
    static const char *const names[KSTACK_NR] = KSTACK_NAMES;
    struct latency_status st;
    syscall2(SYS_latency_ctl, LATENCY_STATUS, &st);
    kind = st.counter;
    long before = syscall0(SYS_kstack_get);
    struct cost empty = measure(-1);
    printf("bench_null: %d calls each, counter ticks, min and mean; empty measurement %lu\n", CALLS,
           (unsigned long)empty.min);
    printf("bench_null: %-10s %6s %9s %6s %9s\n", "strategy", "unk", "mean", "getpid", "mean");
    for (unsigned id = 0; id < KSTACK_NR; id++) {
        struct cost unk, pid;
        if (syscall1(SYS_kstack_set, id) != 0) {
            printf("bench_null: %-10s unavailable\n", names[id]);
            continue;
        }
        measure_both(&unk, &pid);
        print_row(names[id], unk, pid);
    }
    timers_row();
    erase_rows(names);
    syscall1(SYS_kstack_set, before);
    return 0;
}
