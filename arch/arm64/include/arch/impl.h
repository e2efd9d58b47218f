/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/include/arch/impl.h - arm64 side of the arch contract:
 * constants, the trap frame, per-CPU arch state and the inline hooks.
 * Included only through arch/arch.h (and by the .S files, for the offsets).
 *
 * Register names and fields are from the Arm Architecture Reference Manual
 * for A-profile (Arm ARM, DDI 0487), looked up by register name in its
 * "AArch64 System Register Descriptions" chapter.
 */
#ifndef ARCH_ARM64_IMPL_H
#define ARCH_ARM64_IMPL_H

#define ARCH_NAME               "arm64"
#define ARCH_HAS_PIO            0
#define ARCH_KERNEL_VBASE       0xffffffff80000000ul
#define ARCH_STACK_ALIGN        16
/* TTBR0 half, above the 512 GiB that start.S identity-maps (L0 entry 224 is empty). */
#define ARCH_UNMAPPED_TEST_ADDR 0x0000700000000000ul

/* struct trapframe layout, for vectors.S. */
#define TF_X(n)   (8 * (n))
#define TF_SP     248
#define TF_ELR    256
#define TF_SPSR   264
#define TF_ESR    272
#define TF_FAR    280
#define TF_VECTOR 288
#define TF_SIZE   304 /* a multiple of 16: SP stays aligned */

#ifndef __ASSEMBLER__

/*
 * Registers saved on an exception by arch/arm64/vectors.S (and faked by
 * arch_capture_regs for a panic). x29 is the frame pointer, x30 the link
 * register.
 *   sp     the interrupted code's stack pointer (SP_EL1, or SP_EL0 when the
 *          exception came from EL0 or from EL1 running on SP_EL0)
 *   elr    ELR_EL1: where the exception returns to (the faulting
 *          instruction for aborts and undefined instructions)
 *   spsr   SPSR_EL1: the interrupted PSTATE (NZCV, DAIF, EL and SP in M[3:0])
 *   esr    ESR_EL1: the syndrome (exception class in bits [31:26])
 *   far    FAR_EL1: the faulting address, for aborts only
 *   vector which of the 16 VBAR_EL1 entries was taken (0-15; entry / 4 is
 *          the source: current EL on SP_EL0, on SP_EL1, lower EL AArch64,
 *          AArch32; entry % 4 the kind: synchronous, IRQ, FIQ, SError)
 */
struct trapframe {
    uint64_t x[31];
    uint64_t sp;
    uint64_t elr;
    uint64_t spsr;
    uint64_t esr;
    uint64_t far;
    uint64_t vector;
    uint64_t pad; /* keeps the size a multiple of 16 */
};

_Static_assert(__builtin_offsetof(struct trapframe, sp) == TF_SP, "TF_SP");
_Static_assert(__builtin_offsetof(struct trapframe, vector) == TF_VECTOR, "TF_VECTOR");
_Static_assert(sizeof(struct trapframe) == TF_SIZE, "TF_SIZE");

/* Nothing per CPU yet beyond struct cpu itself (TPIDR_EL1 points at it). */
struct arch_cpu {
    uint64_t mpidr; /* MPIDR_EL1 as read on the CPU */
};

/*
 * An exception-table entry for the instruction at local label `insn`,
 * resuming at label `fixup` (kernel/extable.h), for inline assembly.
 */
#define EXTABLE_ENTRY(insn, fixup)                                                                 \
    ".pushsection __ex_table, \"a\"\n"                                                             \
    ".balign 8\n"                                                                                  \
    ".quad " #insn ", " #fixup "\n"                                                                \
    ".popsection\n"

/* TPIDR_EL1: a software thread-ID register, free for the kernel's use. */
static inline struct cpu *arch_this_cpu(void)
{
    struct cpu *c;
    __asm__ volatile("mrs %0, tpidr_el1" : "=r"(c));
    return c;
}

/*
 * DAIF holds the D, A, I and F mask bits in bits [9:6]. Masking IRQ and FIQ
 * (DAIFSet immediate 0b0011) is "IRQs off"; restoring writes back the whole
 * old value. The "memory" clobber keeps accesses inside the section.
 */
static inline unsigned long arch_irq_save(void)
{
    unsigned long flags;
    __asm__ volatile("mrs %0, daif\n\tmsr daifset, #3" : "=r"(flags) : : "memory");
    return flags;
}

static inline void arch_irq_restore(unsigned long flags)
{
    __asm__ volatile("msr daif, %0" : : "r"(flags) : "memory");
}

/*
 * CNTVCT_EL0, the virtual count of the generic timer. The Arm ARM allows
 * reads of it to happen speculatively and out of order with the
 * instructions around them; the ISB makes the read wait until everything
 * before it has completed, so a measured interval cannot come out short.
 */
static inline uint64_t arch_counter(void)
{
    uint64_t v;
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
    return v;
}

static inline void arch_cpu_relax(void)
{
    __asm__ volatile("yield" : : : "memory");
}

/*
 * MMIO. Device registers are mapped Device-nGnRnE, so accesses to one
 * device stay in program order and are not merged or repeated. What the
 * mapping does not order is device accesses against ordinary (Normal)
 * memory, e.g. a buffer a device will read by DMA:
 *   write: DMB OSHST first, so earlier stores to memory are visible to the
 *          device before the register write that may start it;
 *   read:  DMB OSHLD after, so later loads from memory (a buffer the
 *          device has just reported as filled) cannot run ahead of it.
 * Each access is one plain LDR/STR with a base register only: a hypervisor
 * emulating the device can then decode it from the syndrome (ESR_ELx.ISV is
 * not valid for load/store pair or write-back addressing forms).
 */
static inline uint8_t arch_mmio_read8(uintptr_t a)
{
    uint8_t v;
    __asm__ volatile("ldrb %w0, [%1]\n\tdmb oshld" : "=r"(v) : "r"(a) : "memory");
    return v;
}

static inline void arch_mmio_write8(uintptr_t a, uint8_t v)
{
    __asm__ volatile("dmb oshst\n\tstrb %w0, [%1]" : : "rZ"(v), "r"(a) : "memory");
}

static inline uint32_t arch_mmio_read32(uintptr_t a)
{
    uint32_t v;
    __asm__ volatile("ldr %w0, [%1]\n\tdmb oshld" : "=r"(v) : "r"(a) : "memory");
    return v;
}

static inline void arch_mmio_write32(uintptr_t a, uint32_t v)
{
    __asm__ volatile("dmb oshst\n\tstr %w0, [%1]" : : "rZ"(v), "r"(a) : "memory");
}

static inline uintptr_t arch_tf_pc(const struct trapframe *tf)
{
    return tf->elr;
}
static inline void arch_tf_set_pc(struct trapframe *tf, uintptr_t pc)
{
    tf->elr = pc;
}
static inline uintptr_t arch_tf_fp(const struct trapframe *tf)
{
    return tf->x[29];
}

#endif /* __ASSEMBLER__ */
#endif
