/* SPDX-License-Identifier: MIT */
/*
 * tests/kernel/test_text_patch.c - rewriting kernel code (kernel/text_patch.c,
 * arch_text_patch_call): every other CPU is held while the code changes,
 * and only a call instruction is ever rewritten.
 */
#include "arch/arch.h"
#include "kernel/arch_callbacks.h"
#include "kernel/cpu.h"
#include "kernel/ktest.h"
#include "kernel/smp.h"
#include "kernel/syscall/path.h"
#include "kernel/text_patch.h"
#include "lib/string.h"

static void count_stopped(void *arg)
{
    *(unsigned *)arg = text_patch_cpus_stopped();
}

/* While fn runs, every other online CPU waits in text_patch_join. */
KTEST(boot, text_patch_stops_every_other_cpu)
{
    unsigned stopped = ~0u;
    text_patch_run(count_stopped, &stopped);
    KEXPECT_EQ(stopped, smp_online() - 1);
}

static void rewrite_off_entry(void *arg)
{
    *(bool *)arg =
        arch_text_patch_call((void *)syscall_dispatch_off, syscall_paths[KSTACK_POOL][0]);
}

/* The first instruction of a C function is no call: left as it is. */
KTEST(boot, text_patch_refuses_a_non_call)
{
    uint8_t before[8];
    memcpy(before, (const void *)syscall_dispatch_off, sizeof(before));
    bool rewritten = true;
    text_patch_run(rewrite_off_entry, &rewritten);
    KEXPECT(!rewritten);
    KEXPECT(memcmp(before, (const void *)syscall_dispatch_off, sizeof(before)) == 0);
}

/* Choosing the strategy in force again rewrites the call to what it was. */
KTEST(boot, text_patch_call_site_round_trip)
{
    uint8_t before[8];
    memcpy(before, arch_syscall_call_site, sizeof(before));
    syscall_path_select(syscall_path_strategy());
    KEXPECT(memcmp(before, arch_syscall_call_site, sizeof(before)) == 0);
}
