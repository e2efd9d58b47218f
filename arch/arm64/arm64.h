/* SPDX-License-Identifier: MIT */
/* arch/arm64/arm64.h - arm64-private helpers (system registers, PSCI, traps, GIC, MMU). */
#ifndef ARCH_ARM64_ARM64_H
#define ARCH_ARM64_ARM64_H

#include "arch/arch.h"

/* Read a system register by name: READ_SYSREG(esr_el1). */
#define READ_SYSREG(reg)                                                                           \
    ({                                                                                             \
        uint64_t v_;                                                                               \
        __asm__ volatile("mrs %0, " #reg : "=r"(v_));                                              \
        v_;                                                                                        \
    })
#define WRITE_SYSREG(reg, v) __asm__ volatile("msr " #reg ", %0" : : "r"((uint64_t)(v)) : "memory")

/* PSCI function IDs (Arm DEN0022, "Function prototypes"): SMC32 calling convention. */
#define PSCI_VERSION    0x84000000u
#define PSCI_SYSTEM_OFF 0x84000008u

enum psci_conduit { PSCI_NONE, PSCI_HVC, PSCI_SMC };

/* cpu.c: the conduit /psci names (PSCI_NONE if there is no usable PSCI 0.2+). */
extern enum psci_conduit arm64_psci_conduit;
/* cpu.c: a PSCI call through the conduit; x0 of the result. */
uint64_t arm64_psci_call(uint32_t fn, uint64_t a1, uint64_t a2, uint64_t a3);

/* cpu.c: this CPU's vectors, per-CPU pointer and EL0/EL1 controls (every CPU, IRQs off). */
void arm64_cpu_init(struct cpu *c);

/* trap.c: called from vectors.S with IRQs masked (DAIF all set by the exception). */
void arm64_trap(struct trapframe *tf);
/* trap.c: an exception from EL1 that found its kernel stack overflowed; on
 * this CPU's emergency stack (vectors.S switched to it). */
__noreturn void arm64_stack_overflow(struct trapframe *tf);

struct fdt;
/* gic.c: find the GICv2 and the timer's interrupt (arch_init); handle an IRQ (arm64_trap). */
void arm64_gic_init(const struct fdt *f);
void arm64_irq(struct trapframe *tf);

/* mmu.c: whether PAN is on (for fault reports). */
bool arm64_has_pan(void);
/* mmu.c: the kernel's root table (physical), once arch_mmu_switch has run. */
uint64_t arm64_kernel_root(void);
/* mmu.c: the rest of arch_mmu_switch on a CPU whose TTBR1 is already the
 * kernel's (smp.c): TTBR0 = the empty table, PAN on. */
void arm64_mmu_cpu_init(void);
/* mmu.c: clean [va, va + len) from the data caches to the point of coherency. */
void arm64_dcache_clean_poc(const void *va, size_t len);

/* vectors.S: load a user trapframe at the top of this thread's kernel stack, ERET. */
__noreturn void arm64_return_to_user(struct trapframe *tf);
/* switch.S: change TTBR1_EL1 from the identity-mapped alias of the image. */
void arm64_replace_ttbr1(uint64_t root, uint64_t pa_minus_va);

#endif
