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
#define csr_set(csr, bits)                                                                         \
    __asm__ volatile("csrs " #csr ", %0" : : "r"((unsigned long)(bits)) : "memory")
#define csr_clear(csr, bits)                                                                       \
    __asm__ volatile("csrc " #csr ", %0" : : "r"((unsigned long)(bits)) : "memory")

/* satp's fields are in impl.h (arch_aspace_activate); the kernel's tables
 * use ASID 0 (mmu.c). */
/* scause (priv spec 4.1.8): bit 63 set for interrupts, the code below it. */
#define SCAUSE_INTERRUPT   (1ul << 63)
/* sstatus (priv spec 4.1.1): SIE and FS are in impl.h. */
#define SSTATUS_SPIE       (1ul << 5)  /* SIE before the trap; sret restores it */
#define SSTATUS_SPP        (1ul << 8)  /* the trap came from S mode; sret returns to it */
#define SSTATUS_FS_INITIAL (1ul << 13) /* FP registers in their initial state */
#define SSTATUS_SUM        (1ul << 18) /* S mode may access U pages */
#define SSTATUS_MXR        (1ul << 19) /* loads from execute-only pages */
/* sie / sip bits (priv spec 4.1.3): software, timer, external interrupts. */
#define SIE_SSIE           (1ul << 1)
#define SIE_STIE           (1ul << 5)
#define SIE_SEIE           (1ul << 9)
/* Interrupt codes in scause (priv spec 4.1.8, table 4.2). */
#define IRQ_S_SOFT         1
#define IRQ_S_TIMER        5
#define IRQ_S_EXTERNAL     9

/* trap.c: called from vectors.S with interrupts off. */
void riscv_trap(struct trapframe *tf);
/* trap.c: a trap from S mode that found its kernel stack overflowed; on
 * this CPU's emergency stack (vectors.S switched to it). */
__noreturn void riscv_stack_overflow(struct trapframe *tf);
/* vectors.S: load the user trapframe tf (sstatus.SPP = 0) and sret; sets
 * sscratch = tp for the next trap from user mode. IRQs off. */
__noreturn void riscv_return_to_user(struct trapframe *tf);
/* timer.c: the supervisor timer interrupt. */
void riscv_timer_init(const struct fdt *f, uint32_t boot_hart);
void riscv_timer_interrupt(void);
/* irq.c: the supervisor external interrupt (the console UART's) and
 * the software one (IPIs). */
void riscv_external_interrupt(void);
void riscv_ipi_interrupt(void);
/*
 * The console UART's interrupt controller, whichever one the devicetree
 * gives it (irq.c picks): a PLIC (plic.c) or an APLIC (aplic.c), the
 * latter delivering directly or by MSIs to the harts' IMSICs (imsic.c).
 */
struct riscv_irqchip {
    /* Boot hart, IRQs off, once: deliver the source that interrupt
     * specifier spec (cells big-endian words, the controller's
     * #interrupt-cells) names to hart `hart`'s S-mode external interrupt,
     * enabled. false if this controller cannot (it says why). */
    bool (*route)(const struct fdt *f, int node, const uint8_t *spec, uint32_t cells,
                  uint32_t hart);
    /* Any CPU, callers serialised: mask (true) or unmask the routed source. */
    void (*mask)(bool masked);
    /* The routed hart, IRQs off, on its S-mode external interrupt: claim,
     * call console() if it is the routed source, complete. */
    void (*interrupt)(void (*console)(void));
};
extern const struct riscv_irqchip riscv_plic, riscv_aplic;
/* irq.c: the index of the entry in node's "interrupts-extended" that
 * raises hart `hart`'s S-mode external interrupt (scause 9), or -1. The
 * PLIC's context, the APLIC's IDC and the IMSIC's interrupt file are all
 * numbered that way. */
int riscv_s_external_index(const struct fdt *f, int node, uint32_t hart);
/* imsic.c: on this hart (IRQs off), the supervisor-level interrupt file of
 * IMSIC `node` taking identity `id` only; returns the hart index an APLIC's
 * target register names it by, or -1 (after saying why). */
int riscv_imsic_init(const struct fdt *f, int node, uint32_t hart, uint32_t id);
/* imsic.c: claim this hart's top pending identity (0: none). IRQs off. */
uint32_t riscv_imsic_claim(void);
/* imsic.c: stop identity id from interrupting this hart. IRQs off. */
void riscv_imsic_disable(uint32_t id);
/* time.c: the devicetree node of hart `hart` under /cpus, or -1. */
int riscv_cpu_node(const struct fdt *f, uint32_t hart);
/* time.c: does the devicetree say hart `hart` has extension `ext` ("sstc")? */
bool riscv_hart_has_ext(const struct fdt *f, uint32_t hart, const char *ext);
/* trap.c: the ra of the trap being reported, for regs.c's leaf frames. */
extern uintptr_t riscv_trap_ra;
/* fpu.c: stop the boot unless hart `hart` has F and D (f may be NULL). */
void riscv_fpu_check(const struct fdt *f, uint32_t hart);
bool riscv_fpu_first_use(struct trapframe *tf);
/* time.c: the time CSR's frequency from the devicetree (f may be NULL). */
void riscv_time_init(const struct fdt *f, uint32_t boot_hart);
/* mmu.c: physical address of the kernel's root table (arch_mmu_switch). */
uint64_t riscv_kernel_root(void);
/* cpu.c: let user mode read the cycle, time and instret counters (every hart). */
void riscv_counters_init(void);
/* riscv_icache_writes (impl.h), the code writes so far (smp.c): a hart that
 * has not seen them all runs FENCE.I at its next address space switch. */
/* smp.c: where a started hart arrives from start.S. */
__noreturn void riscv_secondary_main(struct cpu *c);
/* power.c: find the sifive,test0 exit device (f may be NULL). */
void riscv_power_init(const struct fdt *f);

#endif
