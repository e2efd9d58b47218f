/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_regs.c - the kernel must give back every register the ABI
 * (kernel/uapi/syscall.h) says it preserves. regs_check(nr), in
 * test_regs_<arch>.S, fills every general-purpose register with its own
 * pattern, makes system call nr, and returns a bit mask of the registers
 * that changed. Tried with a fast call, an unknown number, one that
 * reschedules, and one that sleeps, many times each.
 */
#include "lib/user/ulib.h"

unsigned long regs_check(long nr);

static void check(long nr, const char *name, int rounds)
{
    unsigned long bad = 0;
    for (int i = 0; i < rounds; i++)
        bad |= regs_check(nr);
    if (bad)
        ktap_note("%s: clobbered register mask %#lx", name, bad);
    ktap_check(bad == 0, "registers.preserved_across_%s", name);
}

#ifdef __aarch64__
/* arm64: every exception the kernel takes at EL1 parks x0 in TPIDRRO_EL0
 * for its stack overflow check (arch/arm64/vectors.S) and zeroes it again,
 * since EL0 can read it. A write from an unmapped user page makes the
 * kernel's copy fault at EL1, with kernel values in x0; sleeping lets this
 * CPU idle and take its timer interrupts in the kernel. */
static void check_tpidrro(void)
{
    unsigned long seen = 0;
    for (int i = 0; i < 50; i++) {
        if (i % 2)
            sleep_ns(1000000);
        else
            sys_write(1, (const void *)0x1000, 8); /* -EFAULT */
        unsigned long v;
        __asm__ volatile("mrs %0, tpidrro_el0" : "=r"(v));
        seen |= v;
    }
    if (seen)
        ktap_note("TPIDRRO_EL0 bits seen: %#lx", seen);
    ktap_check(seen == 0, "registers.tpidrro_el0_stays_zero");
}
#endif

int main(void)
{
    check(SYS_getpid, "getpid", 1000);
    check(9999, "unknown_syscall", 1000);
    check(SYS_yield, "yield", 200);
    check(SYS_getcpu, "getcpu", 1000);
    check(SYS_clock_gettime, "clock_gettime", 1000); /* its arguments are junk: an error */
#ifdef __aarch64__
    check_tpidrro();
#endif
    return ktap_done();
}
