/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/text_patch.c - rewriting the entry code's call.
 *
 * The call is AUIPC ra, hi then JALR ra, lo(ra) (the entry code keeps the
 * assembler from relaxing it to a JAL): a 32-bit offset from the AUIPC, hi
 * rounded so that the sign-extended 12-bit lo makes up the rest
 * (unprivileged spec, "Integer Computational Instructions" and "Control
 * Transfer Instructions"). Both words change, through the patch window
 * (text_patch_alias; two pages, in case they straddle one), while the other
 * harts are stopped; each hart then runs FENCE.I, which orders its own instruction
 * fetches after the stores (the Zifencei chapter).
 */
#include "kernel/arch_callbacks.h"
#include "riscv.h"

#define AUIPC_RA 0x00000097u /* auipc ra, 0 */
#define JALR_RA  0x000080e7u /* jalr ra, 0(ra) */

bool arch_text_patch_call(void *site, const void *target)
{
    uint32_t *insn = text_patch_alias(site);
    int64_t offset = (intptr_t)target - (intptr_t)site;
    int64_t hi = (offset + 0x800) >> 12, lo = offset - (hi << 12);
    if ((insn[0] & 0xfff) != AUIPC_RA || (insn[1] & 0xfffff) != JALR_RA ||
        offset != (int32_t)offset)
        return false;
    insn[0] = AUIPC_RA | ((uint32_t)hi << 12);
    insn[1] = JALR_RA | ((uint32_t)lo << 20);
    arch_text_sync();
    return true;
}

void arch_text_sync(void)
{
    __asm__ volatile("fence rw, rw\n\tfence.i" : : : "memory");
}

void arch_serve_ipis(void) {}
