/* SPDX-License-Identifier: MIT */
/*
 * tests/kernel/test_asid.c - address spaces switched without a TLB flush
 * (kernel/mm/asid.c): user/tests/test_asid.c's programs, and what the
 * allocator did meanwhile. Their boot of their own, <arch>.<fw>.asid,
 * narrows the ASIDs to one value (mm.asid_limit=2), so every switch between
 * two user address spaces starts a new generation; the main boots run them
 * with every ASID the hardware has.
 */
#include "kernel/bootinfo.h"
#include "kernel/ktest.h"
#include "kernel/mm/asid.h"
#include "kernel/smp.h"
#include "kernel/task.h"
#include "lib/cmdline.h"

/* Few enough that test_asid's programs must run out of them. */
#define FEW_ASIDS 6

static int run_test_asid(const char *mode)
{
    const char *argv[] = {"test_asid", mode};
    int status = -1, pid = task_spawn_kernel("test_asid", 2, argv, TASK_GIFT_CONTROL);
    if (pid < 0)
        return pid;
    int got = task_wait(NULL, pid, &status);
    return got == pid ? status : got;
}

/* Six programs writing their own patterns at one address, on two CPUs. */
KTEST(mm, asid_rollover)
{
    uint64_t before = asid_rollovers();
    KEXPECT_EQ(run_test_asid("rollover"), 0);
    uint64_t rollovers = asid_rollovers() - before;
    ktest_note("%u ASIDs in use; %llu new generations during the test", asid_count(),
               (unsigned long long)rollovers);
    if (asid_count() && asid_count() <= FEW_ASIDS)
        KEXPECT(rollovers > 0);
}

/* A page unmapped and a new one mapped at its address while another CPU,
 * taking turns with another program, holds its translation. */
KTEST(mm, asid_stale_after_unmap)
{
    if (smp_online() < 2) {
        ktest_note("needs two CPUs: skipped");
        return;
    }
    KEXPECT_EQ(run_test_asid("unmap"), 0);
}

/* mm.asid_limit=N narrows the ASIDs to N, never beyond the hardware's. */
KTEST(mm, asid_limit_only_narrows)
{
    unsigned long hw = asid_hw_bits() ? 1ul << asid_hw_bits() : 0;
    unsigned long limit = cmdline_ulong(boot_info.cmdline, "mm.asid_limit", 0);
    KEXPECT(asid_count() <= hw);
    if (limit)
        KEXPECT(asid_count() <= limit);
    else
        KEXPECT_EQ(asid_count(), hw < 2 ? 0 : hw);
}
