/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/text_patch.c - rewriting the entry code's call.
 *
 * CALL rel32 is E8 and a 32-bit displacement from the end of the 5-byte
 * instruction (SDM vol. 2A, "CALL"); only the displacement changes. x86
 * keeps instruction fetch coherent with stores, but a CPU may already hold
 * the old bytes: the protocol for cross-modifying code (SDM vol. 3A,
 * "Handling Self- and Cross-Modifying Code") has the other CPUs wait while
 * one writes, then each execute a serializing instruction: CPUID here.
 */
#include "kernel/arch_callbacks.h"
#include "lib/string.h"
#include "x86.h"

bool arch_text_patch_call(void *site, const void *target)
{
    uint8_t *insn = text_patch_alias(site);
    intptr_t rel = (intptr_t)target - ((intptr_t)site + 5);
    if (insn[0] != 0xe8 || rel != (int32_t)rel)
        return false;
    int32_t rel32 = (int32_t)rel;
    memcpy(insn + 1, &rel32, sizeof(rel32));
    arch_text_sync();
    return true;
}

void arch_text_sync(void)
{
    uint32_t r[4];
    x86_cpuid(0, 0, r);
}

void arch_serve_ipis(void)
{
    x86_tlb_serve_request();
}
