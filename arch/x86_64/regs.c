/* SPDX-License-Identifier: MIT */
/* arch/x86_64/regs.c - register dumps and frame-pointer walking for panic reports. */
#include "kernel/arch_callbacks.h"
#include "x86.h"

void arch_print_regs(const struct trapframe *tf)
{
    kprintf("  rax %016lx rbx %016lx rcx %016lx rdx %016lx\n", tf->rax, tf->rbx, tf->rcx, tf->rdx);
    kprintf("  rsi %016lx rdi %016lx rbp %016lx rsp %016lx\n", tf->rsi, tf->rdi, tf->rbp, tf->rsp);
    kprintf("  r8  %016lx r9  %016lx r10 %016lx r11 %016lx\n", tf->r8, tf->r9, tf->r10, tf->r11);
    kprintf("  r12 %016lx r13 %016lx r14 %016lx r15 %016lx\n", tf->r12, tf->r13, tf->r14, tf->r15);
    kprintf("  rip %016lx rflags %08lx cs %04lx ss %04lx vector %lu error %#lx\n", tf->rip,
            tf->rflags, tf->cs, tf->ss, tf->vector, tf->error);
    kprintf("  cr0 %016lx cr2 %016lx cr3 %016lx cr4 %016lx\n", x86_read_cr0(), x86_read_cr2(),
            x86_read_cr3(), x86_read_cr4());
}

/* With frame pointers, [rbp] is the caller's rbp and [rbp + 8] the return
 * address. Read safely: a corrupt chain ends the backtrace, not the panic. */
void arch_frame_next(uintptr_t fp, uintptr_t *caller_fp, uintptr_t *ret_pc)
{
    uint64_t prev, ret;
    if (arch_safe_read64(fp, &prev) != 0 || arch_safe_read64(fp + 8, &ret) != 0)
        prev = ret = 0;
    *caller_fp = prev;
    *ret_pc = ret;
}
