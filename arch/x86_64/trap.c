/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/trap.c - decide what an exception or interrupt means.
 * Exception names and error codes: SDM vol. 3A 6.3.1 (table 6-1), 6.15.
 */
#include "kernel/arch_callbacks.h"
#include "kernel/errno.h"
#include "x86.h"

static const char *const exception_names[32] = {
    "divide error (#DE)", "debug (#DB)", "NMI", "breakpoint (#BP)", "overflow (#OF)",
    "bound range (#BR)", "invalid opcode (#UD)", "device not available (#NM)",
    "double fault (#DF)", "coprocessor segment overrun", "invalid TSS (#TS)",
    "segment not present (#NP)", "stack fault (#SS)", "general protection (#GP)",
    "page fault (#PF)", "reserved 15", "x87 FP error (#MF)", "alignment check (#AC)",
    "machine check (#MC)", "SIMD FP error (#XM)", "virtualization (#VE)",
    "control protection (#CP)", "reserved 22", "reserved 23", "reserved 24",
    "reserved 25", "reserved 26", "reserved 27", "hypervisor injection (#HV)",
    "VMM communication (#VC)", "security (#SX)", "reserved 31",
};

void x86_trap(struct trapframe *tf)
{
    if (tf->vector == 14 || tf->vector == 13) {
        if (extable_fixup(tf))
            return;
    }
    if (tf->vector >= 32)
        panic_trap(tf, "unexpected interrupt, vector %lu", (unsigned long)tf->vector);
    if (tf->vector == 14) {
        /* Error code bits: P (protection, else not present), W, U, I (fetch). */
        panic_trap(tf, "page fault at address %#lx (%s, %s, %s mode%s)",
                   (unsigned long)x86_read_cr2(),
                   (tf->error & 1) ? "protection violation" : "page not present",
                   (tf->error & 2) ? "write" : "read", (tf->error & 4) ? "user" : "kernel",
                   (tf->error & 16) ? ", instruction fetch" : "");
    }
    panic_trap(tf, "%s, error code %#lx", exception_names[tf->vector],
               (unsigned long)tf->error);
}

int arch_safe_read64(uintptr_t addr, uint64_t *val)
{
    int err = 0;
    uint64_t v = 0;
    __asm__ volatile("1: movq (%2), %1\n"
                     "2:\n"
                     ".pushsection .text.fixup, \"ax\"\n"
                     "3: movl %3, %0\n"
                     "   jmp 2b\n"
                     ".popsection\n"
                     ".pushsection __ex_table, \"a\"\n"
                     ".balign 8\n"
                     ".quad 1b, 3b\n"
                     ".popsection\n"
                     : "+r"(err), "+r"(v)
                     : "r"(addr), "i"(-EFAULT)
                     : "memory");
    *val = v;
    return err;
}
