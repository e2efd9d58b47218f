/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/include/arch/impl.h - riscv64 side of the arch contract:
 * constants, the trap frame, per-CPU arch state and the inline hooks.
 * Included only through arch/arch.h (and by the .S files for the TF_*
 * offsets). "Priv spec" is the RISC-V Privileged Architecture 20211203,
 * "ISA" the Unprivileged ISA 20191213.
 */
#ifndef ARCH_RISCV64_IMPL_H
#define ARCH_RISCV64_IMPL_H

#ifdef __ASSEMBLER__
#define RV_UL(x) x
#else
#define RV_UL(x) x##ul
#endif

#define ARCH_NAME               "riscv64"
#define ARCH_HAS_PIO            0
#define ARCH_KERNEL_VBASE       RV_UL(0xffffffff80000000)
#define ARCH_STACK_ALIGN        16 /* psABI: sp is 16-byte aligned at all times */
/* The first upper-half address of Sv39, root table entry 256: start.S maps
 * only entries 0-255 (identity) and 510 (the kernel), so this one faults. */
#define ARCH_UNMAPPED_TEST_ADDR RV_UL(0xffffffc000000000)

/* Trap frame layout, shared with vectors.S (checked in trap.c). */
#define TF_X(n)    (8 * (n)) /* general register xn */
#define TF_SEPC    (32 * 8)
#define TF_SSTATUS (33 * 8)
#define TF_SCAUSE  (34 * 8)
#define TF_STVAL   (35 * 8)
#define TF_SIZE    (36 * 8) /* a multiple of 16, so sp stays aligned */

#ifndef __ASSEMBLER__

/*
 * What vectors.S saves on a trap: every general register (x[n] is register
 * xn; x[0] is the hard-wired zero, stored as 0 so the numbering matches the
 * ISA) and the four supervisor trap CSRs (priv spec 4.1): sepc, the PC of
 * the trapping instruction (or where to resume after an interrupt);
 * sstatus, whose SPP/SPIE bits say the mode and interrupt enable before the
 * trap; scause, the interrupt bit and cause code; stval, the faulting
 * address or instruction bits.
 */
struct trapframe {
    union {
        uint64_t x[32];
        struct { /* the psABI names, in register order */
            uint64_t zero, ra, sp, gp, tp, t0, t1, t2, s0, s1;
            uint64_t a0, a1, a2, a3, a4, a5, a6, a7;
            uint64_t s2, s3, s4, s5, s6, s7, s8, s9, s10, s11;
            uint64_t t3, t4, t5, t6;
        };
    };
    uint64_t sepc, sstatus, scause, stval;
};

/* Nothing yet: the kernel stack for traps from user mode goes here later. */
struct arch_cpu {
};

#define SSTATUS_SIE (1ul << 1) /* supervisor interrupt enable (priv spec 4.1.1) */

/* In the kernel, tp holds this CPU's struct cpu * (start.S, arch_early_init). */
static inline struct cpu *arch_this_cpu(void)
{
    struct cpu *c;
    __asm__ volatile("mv %0, tp" : "=r"(c));
    return c;
}

/* csrrc clears SIE and returns the old sstatus in one instruction. */
static inline unsigned long arch_irq_save(void)
{
    unsigned long old;
    __asm__ volatile("csrrc %0, sstatus, %1" : "=r"(old) : "r"(SSTATUS_SIE) : "memory");
    return old & SSTATUS_SIE;
}

static inline void arch_irq_restore(unsigned long flags)
{
    if (flags & SSTATUS_SIE)
        __asm__ volatile("csrs sstatus, %0" : : "r"(SSTATUS_SIE) : "memory");
}

/* The time CSR (ISA, "Counters" chapter): a constant-rate counter shared
 * by all harts, readable in S mode because the firmware sets mcounteren.TM. */
static inline uint64_t arch_counter(void)
{
    uint64_t t;
    __asm__ volatile("rdtime %0" : "=r"(t));
    return t;
}

/* PAUSE (the ISA's Zihintpause chapter) is FENCE with pred=W, succ=0: a HINT,
 * so a hart without the extension runs it as a fence that orders nothing.
 * Written with .insn because the assembler is not told about Zihintpause. */
static inline void arch_cpu_relax(void)
{
    __asm__ volatile(".insn i 0x0f, 0, x0, x0, 0x010" : : : "memory");
}

/*
 * MMIO. Device registers live in I/O regions, which the ISA orders apart
 * from memory: FENCE has I and O bits for device input and output (ISA
 * 2.7), and whether a region is strongly or relaxed ordered is a PMA (priv
 * spec 3.6, "Memory-Ordering PMAs"). The shared drivers were written for
 * x86, where uncached accesses happen in program order, so each access here
 * is fenced on both sides against everything, memory and devices: it
 * happens after every earlier access and before every later one. More than
 * the minimum, and the cost does not matter for a polled UART.
 */
static inline uint8_t arch_mmio_read8(uintptr_t a)
{
    uint8_t v;
    __asm__ volatile("fence iorw, i; lbu %0, 0(%1); fence i, iorw" : "=r"(v) : "r"(a) : "memory");
    return v;
}

static inline uint32_t arch_mmio_read32(uintptr_t a)
{
    uint32_t v;
    __asm__ volatile("fence iorw, i; lw %0, 0(%1); fence i, iorw" : "=r"(v) : "r"(a) : "memory");
    return v;
}

static inline void arch_mmio_write8(uintptr_t a, uint8_t v)
{
    __asm__ volatile("fence iorw, o; sb %0, 0(%1); fence o, iorw" : : "r"(v), "r"(a) : "memory");
}

static inline void arch_mmio_write32(uintptr_t a, uint32_t v)
{
    __asm__ volatile("fence iorw, o; sw %0, 0(%1); fence o, iorw" : : "r"(v), "r"(a) : "memory");
}

static inline uintptr_t arch_tf_pc(const struct trapframe *tf)
{
    return tf->sepc;
}
static inline void arch_tf_set_pc(struct trapframe *tf, uintptr_t pc)
{
    tf->sepc = pc;
}
static inline uintptr_t arch_tf_fp(const struct trapframe *tf)
{
    return tf->s0;
}

#endif /* __ASSEMBLER__ */
#endif
