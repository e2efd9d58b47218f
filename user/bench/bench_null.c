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
        if (syscall1(SYS_kstack_set, id) != 0) {
            printf("bench_null: %-10s unavailable\n", names[id]);
            continue;
        }
        measure(9999); /* warm up */
        struct cost unk = measure(9999), pid = measure(SYS_getpid);
        printf("bench_null: %-10s", names[id]);
        row("unknown", unk);
        row("getpid", pid);
        printf("\n");
    }
    if (syscall1(SYS_kstack_set, KSTACK_OFF) == 0 && syscall1(SYS_latency_ctl, LATENCY_ON) == 0) {
        measure(9999);
        struct cost unk = measure(9999), pid = measure(SYS_getpid);
        syscall1(SYS_latency_ctl, LATENCY_OFF);
        printf("bench_null: %-10s", "off+timers");
        row("unknown", unk);
        row("getpid", pid);
        printf("\n");
    } else {
        printf("bench_null: off+timers unavailable (the timers need kstack.debug)\n");
    }
    /* kstack.erase (kernel/syscall/erase.c): off and pool, the stack cleared on the way out */
    const unsigned erased[] = {KSTACK_OFF, KSTACK_POOL};
    for (unsigned i = 0; i < 2; i++) {
        if (syscall1(SYS_kstack_set, erased[i]) != 0 ||
            syscall2(SYS_kstack_debug, KSTACK_DEBUG_ERASE, 1) != 0) {
            printf("bench_null: %s+erase unavailable (needs kstack.debug and run.control)\n",
                   names[erased[i]]);
            continue;
        }
        measure(9999);
        struct cost unk = measure(9999), pid = measure(SYS_getpid);
        syscall2(SYS_kstack_debug, KSTACK_DEBUG_ERASE, 0);
        printf("bench_null: %s+erase%*s", names[erased[i]], (int)(4 - strlen(names[erased[i]])),
               "");
        row("unknown", unk);
        row("getpid", pid);
        printf("\n");
    }
    syscall1(SYS_kstack_set, before);
    return 0;
}
