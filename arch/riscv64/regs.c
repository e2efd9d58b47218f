/* SPDX-License-Identifier: MIT */
/* arch/riscv64/regs.c - register dumps and frame-pointer walking for panic reports. */
#include "kernel/arch_callbacks.h"
#include "riscv.h"

extern char _etext[]; /* end of kernel text, from the linker script */

static const char *const reg_names[32] = {
    "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
    "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
    "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

void arch_print_regs(const struct trapframe *tf)
{
    for (int i = 1; i < 32; i += 4) {
        for (int j = i; j < i + 4 && j < 32; j++)
            kprintf("%s%-4s%016lx", j == i ? "  " : " ", reg_names[j], tf->x[j]);
        kprintf("\n");
    }
    kprintf("  sepc %016lx sstatus %016lx scause %016lx stval %016lx\n", tf->sepc, tf->sstatus,
            tf->scause, tf->stval);
    kprintf("  satp %016lx stvec %016lx sscratch %016lx\n", csr_read(satp), csr_read(stvec),
            csr_read(sscratch));
}

static bool is_text(uintptr_t a)
{
    return a >= (uintptr_t)_kernel_start && a < (uintptr_t)_etext;
}

/*
 * GCC's RISC-V frame with -fno-omit-frame-pointer (checked by disassembly:
 * `sd ra,8(sp); sd s0,0(sp); addi s0,sp,16`): s0 = the sp at entry, the
 * return address at s0 - 8, the caller's s0 at s0 - 16. A leaf function
 * (one that calls nothing) saves only s0, at s0 - 8, and keeps its return
 * address in ra. A leaf can only be the innermost frame, where a trap
 * stopped it: then s0 - 8 holds a stack address, not a text address, and
 * the return address is the trapframe's ra (noted by riscv_trap). The reads
 * go through arch_safe_read64, so a corrupt chain ends the backtrace
 * instead of faulting inside the panic report.
 */
void arch_frame_next(uintptr_t fp, uintptr_t *caller_fp, uintptr_t *ret_pc)
{
    uint64_t above, below;
    *caller_fp = *ret_pc = 0;
    if (arch_safe_read64(fp - 8, &above) || arch_safe_read64(fp - 16, &below))
        return;
    if (is_text(above)) {
        *ret_pc = above;
        *caller_fp = below;
        return;
    }
    *caller_fp = above;
    *ret_pc = riscv_trap_ra;
    riscv_trap_ra = 0; /* valid for the innermost frame only */
}
