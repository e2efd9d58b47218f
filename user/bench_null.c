/* SPDX-License-Identifier: MIT */
/*
 * user/bench_null.c - the cost of the bare system call path, measured from
 * user space: the fastest of 200 unknown-number calls (entry, bounds check,
 * exit) and of 200 getpid() calls, in counter ticks, minus nothing (the
 * empty measurement is printed beside them). Under QEMU with
 * `-icount shift=0` the x86 TSC counts guest instructions, so the numbers
 * are path lengths: boot with run=bench_null on the command line.
 */
#include "lib/user/ulib.h"

static inline uint64_t ticks(void)
{
#if defined(__x86_64__)
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
#elif defined(__aarch64__)
    uint64_t v;
    __asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v));
    return v;
#else
    uint64_t v;
    __asm__ volatile("rdtime %0" : "=r"(v));
    return v;
#endif
}

static uint64_t fastest(long nr)
{
    uint64_t best = ~0ull;
    for (int i = 0; i < 200; i++) {
        uint64_t t0 = ticks();
        if (nr >= 0)
            syscall0(nr);
        uint64_t d = ticks() - t0;
        best = d < best ? d : best;
    }
    return best;
}

int main(void)
{
    printf("bench_null: fastest of 200, in counter ticks: empty %lu, unknown syscall %lu, "
           "getpid %lu\n", (unsigned long)fastest(-1), (unsigned long)fastest(9999),
           (unsigned long)fastest(SYS_getpid));
    return 0;
}
