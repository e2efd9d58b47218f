/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/text_patch.c - rewriting the entry code's call.
 *
 * BL is 0b100101 and a signed 26-bit word offset from the instruction
 * itself (Arm ARM, "BL"). The new word goes in through the patch window
 * (text_patch_alias: the only writable mapping of code), then, while the
 * window is still mapped, arch_sync_icache() cleans it to the Point of
 * Unification by that address and invalidates it from every CPU's
 * instruction cache (by address where the I-cache is PIPT, so any alias of
 * the physical line will do; all of it otherwise); each CPU then needs a
 * context synchronization event (ISB) before it fetches it.
 */
#include "arm64.h"
#include "kernel/arch_callbacks.h"

#define BL_OPCODE 0x94000000u
#define BL_IMM26  0x03ffffffu

bool arch_text_patch_call(void *site, const void *target)
{
    uint32_t *insn = text_patch_alias(site);
    intptr_t words = ((intptr_t)target - (intptr_t)site) / 4;
    if ((*insn & ~BL_IMM26) != BL_OPCODE || words >= (1 << 25) || words < -(1 << 25))
        return false;
    WRITE_ONCE(*insn, BL_OPCODE | ((uint32_t)words & BL_IMM26));
    arch_sync_icache(insn, sizeof(*insn));
    arch_text_sync();
    return true;
}

void arch_text_sync(void)
{
    __asm__ volatile("isb" : : : "memory");
}

void arch_serve_ipis(void) {}
