/* SPDX-License-Identifier: MIT */
/* arch/riscv64/riscv.h - riscv64-private helpers: CSR access, shared state. */
#ifndef ARCH_RISCV64_RISCV_H
#define ARCH_RISCV64_RISCV_H

#include "arch/arch.h"
#include "lib/fdt.h"

/* CSR access by name (Zicsr); the name is pasted into the instruction. */
#define csr_read(csr)                                                                              \
    ({                                                                                             \
        unsigned long v_;                                                                          \
        __asm__ volatile("csrr %0, " #csr : "=r"(v_));                                             \
        v_;                                                                                        \
    })
#define csr_write(csr, val)                                                                        \
    __asm__ volatile("csrw " #csr ", %0" : : "r"((unsigned long)(val)) : "memory")

/* scause (priv spec 4.1.8): bit 63 set for interrupts, the code below it. */
#define SCAUSE_INTERRUPT (1ul << 63)
/* sstatus.SPP (priv spec 4.1.1): the trap came from S mode. */
#define SSTATUS_SPP      (1ul << 8)

/* trap.c: called from vectors.S with interrupts off. */
void riscv_trap(struct trapframe *tf);
/* trap.c: the ra of the trap being reported, for regs.c's leaf frames. */
extern uintptr_t riscv_trap_ra;
/* time.c: the time CSR's frequency from the devicetree (f may be NULL). */
void riscv_time_init(const struct fdt *f, uint32_t boot_hart);
/* power.c: find the sifive,test0 exit device (f may be NULL). */
void riscv_power_init(const struct fdt *f);

#endif
