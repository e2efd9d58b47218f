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

#define ARCH_NAME        "arm64"
#define ARCH_HAS_PIO     0
#define ARCH_ELF_MACHINE 183 /* EM_AARCH64 */
#define ARCH_STACK_ALIGN 16

/*
 * Virtual layout (kernel/mm/vm.h). 48-bit VAs, 4 KiB granule, 4 levels
 * (TCR_EL1.T0SZ = T1SZ = 16, set by start.S): TTBR0_EL1 translates the
 * user half [0, 2^48), TTBR1_EL1 the kernel half [0xffff000000000000, 2^64).
 * The kernel's root table is TTBR1's; each user address space has its own
 * root in TTBR0, so no kernel entry is ever copied into a user root.
 */
#define ARCH_PT_LEVELS          4
#define ARCH_KERNEL_VBASE       0xffffffff80000000ul /* TTBR1 L0 entry 511, top 2 GiB */
#define ARCH_KSTACK_BASE        0xffffff0000000000ul /* TTBR1 L0 entry 510 */
#define ARCH_DIRECT_MAP_BASE    0xffff000000000000ul /* TTBR1 L0 entry 0 */
#define ARCH_DIRECT_MAP_SIZE    (1ul << 39)          /* 512 GiB: one L0 entry */
#define ARCH_EARLY_MAP_SIZE     (64ul << 20)         /* start.S: KERNEL_MAP_2M blocks of 2 MiB */
/* TTBR0 half, far above USER_TOP: no user root maps it, and after
 * arch_mmu_switch TTBR0 is never the boot identity map again. */
#define ARCH_UNMAPPED_TEST_ADDR 0x0000700000000000ul

/*
 * MAIR_EL1 (Arm ARM, register MAIR_EL1): one attribute byte per AttrIndx
 * value of a descriptor. start.S loads MAIR_EL1_VALUE before the MMU is on.
 *   0: 0x00 Device-nGnRnE   start.S's identity map of device space
 *   1: 0xff Normal, Inner and Outer Write-Back non-transient, R+W-allocate
 *   2: 0x04 Device-nGnRE    ioremap (VM_DEVICE): early write acknowledgement
 */
#define MAIR_IDX_DEVICE_NGNRNE 0
#define MAIR_IDX_NORMAL        1
#define MAIR_IDX_DEVICE        2
#define MAIR_EL1_VALUE         ((0xff << (8 * MAIR_IDX_NORMAL)) | (0x04 << (8 * MAIR_IDX_DEVICE)))

/* struct trapframe layout, for vectors.S and ipc_entry.S, which store and
 * load the registers in pairs: TPIDR_EL0 in the slot after TF_SP (SP_EL0),
 * SPSR after TF_ELR, FAR after TF_ESR. */
#define TF_X(n)   (8 * (n))
#define TF_SP     248
#define TF_TPIDR  256
#define TF_ELR    264
#define TF_ESR    280
#define TF_VECTOR 296
#define TF_SIZE   304 /* a multiple of 16: SP stays aligned */

/* Offsets in struct cpu used by vectors.S and the inline hooks below
 * (checked in trap.c): struct arch_cpu comes right after the `self` pointer. */
#define CPU_ARCH           8
#define CPU_KSTACK_TOP     8
#define CPU_OVERFLOW_STACK 16

/* A kernel stack's guard page lies this far below its top: KSTACK_SIZE
 * plus the page itself (kernel/mm/kernel_stack.h; checked in thread.c).
 * vectors.S adds it with one ADD (a 12-bit immediate shifted by 12). */
#define KSTACK_GUARD_BELOW_TOP (16 * 1024 + 4096)

/* One emergency stack per CPU (arch/arch.h), for a kernel stack overflow. */
#define ARCH_EMERGENCY_STACKS     1
#define ARCH_EMERGENCY_STACK_SIZE 8192

/* The kernel-mode vector entries switch to it when sp lies in the guard page
 * (one 4 KiB page, kernel/mm/kernel_stack.h) or is less than a trapframe above
 * it: sp - guard page's base < 4096 + TF_SIZE, compared in 16-byte units so that
 * the constant fits CMP's 12-bit immediate (both are multiples of 16). */
#define STACK_OVERFLOW_WINDOW ((4096 + TF_SIZE) / 16)

/* Offsets in struct arch_fpu used by fpu_regs.S. */
#define FPU_FPCR 512
#define FPU_FPSR 520

#ifndef __ASSEMBLER__

/*
 * Registers saved on an exception by arch/arm64/vectors.S (and faked by
 * arch_capture_regs for a panic). x29 is the frame pointer, x30 the link
 * register.
 *   sp     the interrupted code's stack pointer (SP_EL1, or SP_EL0 when the
 *          exception came from EL0 or from EL1 running on SP_EL0)
 *   tpidr  TPIDR_EL0, the user's thread pointer (EL0 can write it), saved
 *          and restored only for exceptions from EL0: per thread, so one
 *          program never sees another's value; beside sp, so that the two
 *          user registers go in and out of the frame as one pair
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
    uint64_t tpidr;
    uint64_t elr;
    uint64_t spsr;
    uint64_t esr;
    uint64_t far;
    uint64_t vector;
};

_Static_assert(__builtin_offsetof(struct trapframe, sp) == TF_SP, "TF_SP");
_Static_assert(__builtin_offsetof(struct trapframe, tpidr) == TF_TPIDR, "TF_TPIDR");
_Static_assert(__builtin_offsetof(struct trapframe, elr) == TF_ELR, "TF_ELR");
_Static_assert(__builtin_offsetof(struct trapframe, esr) == TF_ESR, "TF_ESR");
_Static_assert(__builtin_offsetof(struct trapframe, vector) == TF_VECTOR, "TF_VECTOR");
_Static_assert(sizeof(struct trapframe) == TF_SIZE, "TF_SIZE");

/* A user thread's FP/SIMD registers (arch/arm64/fpu.c): V0-V31, then FPCR
 * and FPSR (offsets FPU_FPCR and FPU_FPSR, for fpu_regs.S). */
struct arch_fpu {
    _Alignas(16) uint64_t v[32][2];
    uint64_t fpcr, fpsr;
};
_Static_assert(__builtin_offsetof(struct arch_fpu, fpcr) == FPU_FPCR, "FPU_FPCR");
_Static_assert(__builtin_offsetof(struct arch_fpu, fpsr) == FPU_FPSR, "FPU_FPSR");

/* Per-CPU arch state, in struct cpu right after `self` (TPIDR_EL1 points at it). */
struct arch_cpu {
    uint64_t kstack_top;     /* CPU_KSTACK_TOP: the running thread's kernel stack top */
    uint64_t overflow_stack; /* CPU_OVERFLOW_STACK: top of this CPU's emergency stack */
    uint64_t mpidr;          /* MPIDR_EL1 as read on the CPU */
    uint32_t gic_mask;       /* this CPU's GICv2 CPU-interface bit, for GICD_SGIR targets */
    uintptr_t gicr;          /* this CPU's GICv3 redistributor (RD_base, virtual), 0 until found */
};

/* TPIDR_EL1: a software thread-ID register, free for the kernel's use. */
static inline struct cpu *arch_this_cpu(void)
{
    struct cpu *c;
    __asm__ volatile("mrs %0, tpidr_el1" : "=r"(c));
    return c;
}

/* This CPU's struct arch_cpu, which struct cpu holds at CPU_ARCH: for the
 * inline hooks, which see struct cpu only as a name. */
static inline struct arch_cpu *arm64_this_arch_cpu(void)
{
    return (struct arch_cpu *)((char *)arch_this_cpu() + CPU_ARCH);
}

/* No load addresses through a system register, and no register of EL1's
 * alone is left to hold the thread (SP_EL0 keeps the user's stack pointer
 * through a system call, TPIDRRO_EL0 is EL0's to read): so IRQs are masked
 * (DAIFSet, as arch_irq_save) around the MRS and the load, five
 * instructions. */
static inline uintptr_t arch_this_cpu_word(size_t off)
{
    uintptr_t v, daif;
    __asm__ volatile("mrs %1, daif\n\tmsr daifset, #3\n\tmrs %0, tpidr_el1\n\t"
                     "ldr %0, [%0, %2]\n\tmsr daif, %1"
                     : "=&r"(v), "=&r"(daif)
                     : "i"(off)
                     : "memory");
    return v;
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

/* DAIFClr/DAIFSet #3: the I and F bits, like arch_irq_save (FIQs are unused). */
static inline void arch_irq_enable(void)
{
    __asm__ volatile("msr daifclr, #3" : : : "memory");
}

static inline void arch_irq_disable(void)
{
    __asm__ volatile("msr daifset, #3" : : : "memory");
}

static inline bool arch_irq_flags_masked(unsigned long flags)
{
    return flags & (1ul << 7); /* DAIF.I */
}

/* DAIF.I (bit 7): IRQs masked on this CPU. No "memory" clobber: this_cpu()
 * calls it everywhere, and a check need not be a compiler barrier. */
static inline bool arch_irqs_disabled(void)
{
    unsigned long daif;
    __asm__ volatile("mrs %0, daif" : "=r"(daif));
    return daif & (1ul << 7);
}

/*
 * VMSAv8-64 stage 1 descriptors, 4 KiB granule (Arm ARM, "Translation table
 * descriptor formats" and "Memory attribute fields in the VMSAv8-64
 * translation table format descriptors"). Walk level (kernel/mm/vm.h) vs
 * the Arm ARM's lookup level: 3 = level 0 (root), 2 = level 1 (1 GiB
 * blocks), 1 = level 2 (2 MiB blocks), 0 = level 3 (4 KiB pages).
 *   bits[1:0]  0b11 table (lookup levels 0-2) or page (level 3); 0b01 block
 *   AttrIndx[2:0] bits[4:2], AP[2:1] bits[7:6], SH[1:0] bits[9:8], AF bit 10,
 *   nG bit 11, OA bits[47:12]; PXN bit 53, UXN bit 54; in table
 *   descriptors PXNTable bit 59, UXNTable bit 60, APTable[1:0] bits[62:61].
 */
#define ARM64_PTE_VALID         (1ull << 0)
#define ARM64_PTE_TYPE_MASK     (3ull << 0)
#define ARM64_PTE_TYPE_BLOCK    (1ull << 0)
#define ARM64_PTE_TYPE_TABLE    (3ull << 0) /* also "page" at lookup level 3 */
#define ARM64_PTE_ATTRIDX(i)    ((uint64_t)(i) << 2)
#define ARM64_PTE_ATTRIDX_MASK  (7ull << 2)
#define ARM64_PTE_AP_EL0        (1ull << 6) /* AP[1]: EL0 may access */
#define ARM64_PTE_AP_RO         (1ull << 7) /* AP[2]: read-only (at every EL) */
#define ARM64_PTE_SH_INNER      (3ull << 8)
#define ARM64_PTE_AF            (1ull << 10) /* set: no Access flag fault on first use */
#define ARM64_PTE_NG            (1ull << 11) /* not global: tagged with the ASID */
#define ARM64_PTE_PXN           (1ull << 53)
#define ARM64_PTE_UXN           (1ull << 54)
#define ARM64_PTE_PXNTABLE      (1ull << 59)
#define ARM64_PTE_UXNTABLE      (1ull << 60)
#define ARM64_PTE_APTABLE_NOEL0 (1ull << 61) /* APTable[0]: no EL0 access below this table */
#define ARM64_PTE_ADDR_MASK     0x0000fffffffff000ull

/* Tables restrict what lies below them (hierarchical permissions): nothing
 * under a kernel table is reachable or executable from EL0, nothing under a
 * user table is executable at EL1. */
static inline pte_t arch_pte_table(uint64_t pa, bool user)
{
    return pa | ARM64_PTE_TYPE_TABLE |
           (user ? ARM64_PTE_PXNTABLE : ARM64_PTE_UXNTABLE | ARM64_PTE_APTABLE_NOEL0);
}

/* Kernel pages: never executable at EL0 (UXN). User pages: never executable
 * at EL1 (PXN), and not global, so ASIDs can tag them one day. */
static inline pte_t arch_pte_leaf(uint64_t pa, unsigned prot, int level)
{
    pte_t e = pa | ARM64_PTE_AF | (level == 0 ? ARM64_PTE_TYPE_TABLE : ARM64_PTE_TYPE_BLOCK);
    if (prot & VM_DEVICE)
        e |= ARM64_PTE_ATTRIDX(MAIR_IDX_DEVICE); /* SH is ignored for Device memory */
    else
        e |= ARM64_PTE_ATTRIDX(MAIR_IDX_NORMAL) | ARM64_PTE_SH_INNER;
    if (!(prot & VM_WRITE))
        e |= ARM64_PTE_AP_RO;
    if (prot & VM_USER)
        e |= ARM64_PTE_AP_EL0 | ARM64_PTE_NG | ARM64_PTE_PXN |
             ((prot & VM_EXEC) ? 0 : ARM64_PTE_UXN);
    else
        e |= ARM64_PTE_UXN | ((prot & VM_EXEC) ? 0 : ARM64_PTE_PXN);
    return e;
}

static inline bool arch_pte_valid(pte_t e)
{
    return e & ARM64_PTE_VALID;
}

static inline bool arch_pte_is_leaf(pte_t e, int level)
{
    return level == 0 || (e & ARM64_PTE_TYPE_MASK) == ARM64_PTE_TYPE_BLOCK;
}

static inline uint64_t arch_pte_addr(pte_t e)
{
    return e & ARM64_PTE_ADDR_MASK;
}

static inline unsigned arch_pte_prot(pte_t e)
{
    bool user = e & ARM64_PTE_AP_EL0;
    return VM_READ | ((e & ARM64_PTE_AP_RO) ? 0 : VM_WRITE) | (user ? VM_USER : 0) |
           ((e & (user ? ARM64_PTE_UXN : ARM64_PTE_PXN)) ? 0 : VM_EXEC) |
           ((e & ARM64_PTE_ATTRIDX_MASK) == ARM64_PTE_ATTRIDX(MAIR_IDX_DEVICE) ? VM_DEVICE : 0);
}

/*
 * TLBI VAAE1IS: invalidate va for every ASID, on every CPU of the Inner
 * Shareable domain; the operand holds VA[55:12] in bits [43:0]. The DSB
 * ISHST before makes the cleared entry visible to table walks first; the
 * DSB ISH after waits for the invalidation to finish, the ISB for this
 * CPU's instruction stream to see it ("TLB maintenance instructions").
 */
static inline void arch_tlb_flush_page(uintptr_t va)
{
    uint64_t op = (va >> 12) & ((1ull << 44) - 1);
    __asm__ volatile("dsb ishst\n\ttlbi vaae1is, %0\n\tdsb ish\n\tisb" : : "r"(op) : "memory");
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

/* Set at boot if the CPU has a PMUv3 (arch/arm64/time.c): its cycle counter
 * counts cycles on boards and exactly instructions under QEMU -icount. */
extern bool arm64_use_pmccntr;

/* A latency counter read, written as CNTVCT_EL0 and listed in the
 * .timestamp_reads section: where the CPU has a PMU, arch_timestamp_init()
 * rewrites every listed read to PMCCNTR_EL0 once, at boot, before other
 * CPUs start, so the timed path tests nothing to choose. */
#define ARM64_TIMESTAMP_READ                                                                       \
    "1: mrs %0, cntvct_el0\n\t"                                                                    \
    ".pushsection .timestamp_reads, \"a\"\n\t.balign 8\n\t.quad 1b\n\t.popsection\n\t"

/* An ISB after the start's read and before the end's: the timed
 * instructions can neither start before the first nor still be running at
 * the second (Arm ARM, "Synchronization requirements" of the PMU and the
 * generic timer: reads are not ordered without it). */
static inline uint64_t arch_timestamp_begin(void)
{
    uint64_t v;
    __asm__ volatile(ARM64_TIMESTAMP_READ "isb" : "=r"(v) : : "memory");
    return v;
}

static inline uint64_t arch_timestamp_end(void)
{
    uint64_t v;
    __asm__ volatile("isb\n\t" ARM64_TIMESTAMP_READ : "=r"(v) : : "memory");
    return v;
}

static inline void arch_cpu_relax(void)
{
    __asm__ volatile("yield" : : : "memory");
}

/*
 * MMIO. Device registers are mapped Device-nGnRE (Device-nGnRnE by start.S
 * before the kernel's tables), so accesses to one device stay in program
 * order and are not merged or repeated. What the
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

/* System call ABI (kernel/uapi/syscall.h): x8; x0-x5; x0. */
static inline unsigned long arch_sc_nr(const struct trapframe *tf)
{
    return tf->x[8];
}
static inline const uintptr_t *arch_sc_args(const struct trapframe *tf)
{
    return tf->x; /* x0-x5 */
}
static inline struct trapframe *arch_user_frame(uintptr_t kstack_top)
{
    return (struct trapframe *)(kstack_top - sizeof(struct trapframe)); /* vectors.S */
}
/* el0_svc reloads x1-x17 from the frame on its way out (vectors.S). All
 * five loaded before the first store (w might alias tf for all the compiler
 * knows): so the loads and the stores go in pairs, LDP and STP, three and
 * three. The IPC path's one copy. */
static inline void arch_sc_set_words(struct trapframe *tf, const uintptr_t w[5])
{
    uintptr_t w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4];
    tf->x[1] = w0;
    tf->x[2] = w1;
    tf->x[3] = w2;
    tf->x[4] = w3;
    tf->x[5] = w4;
}

/* arch_aspace_activate(user_root, asid, false) inline, for the thread
 * switch's common case (kernel/mm/aspace_switch.h): user_root is a user
 * address space's root table, never 0. TTBR0_EL1 takes the ASID in bits
 * [63:48] (Arm ARM, register TTBR0_EL1; TCR_EL1.A1 = 0 selects TTBR0's);
 * DSB ISHST first, so that the table walker sees every table write, and
 * ISB after, so that what follows is translated with the new tables. */
#define ARCH_HAS_ASPACE_ACTIVATE_TAGGED 1
static inline void arch_aspace_activate_tagged(uint64_t user_root, unsigned asid)
{
    __asm__ volatile("dsb ishst\n\tmsr ttbr0_el1, %0\n\tisb"
                     :
                     : "r"(user_root | (uint64_t)asid << 48)
                     : "memory");
}

/* The thread about to run has its kernel stack at top (arch/arch.h):
 * kept for arch_enter_user and for vectors.S's overflow check, which finds
 * the guard page KSTACK_GUARD_BELOW_TOP below it (the boot stack, top 0,
 * gets a guard no kernel sp is near, so it is never taken for an
 * overflow). SP_EL1 follows by itself: the return to EL0 leaves it at the
 * top. Inline, one store: every IPC hand-off runs it. */
#define ARCH_HAS_INLINE_SET_KERNEL_STACK 1
static inline void arch_set_kernel_stack(uintptr_t top)
{
    arm64_this_arch_cpu()->kstack_top = top; /* in the switch: IRQs off */
}

/* Whether the running thread's FP/SIMD registers are loaded (fpu.c): the
 * CPU's own switch says so, CPACR_EL1.FPEN (Arm ARM D19.2, "CPACR_EL1",
 * bits [21:20]), 0b11 then and 0b01 (EL0's use traps) otherwise; bit 21
 * tells the two apart. A read of a system register sees an earlier write
 * to it by this CPU without an ISB (Arm ARM, "Synchronization requirements
 * for AArch64 System registers": direct reads and writes of one register
 * are in program order). */
#define CPACR_EL1_FPEN_EL0_BIT 21
static inline bool arm64_fp_live(void)
{
    uint64_t cpacr;
    __asm__ volatile("mrs %0, cpacr_el1" : "=r"(cpacr));
    return cpacr & (1ul << CPACR_EL1_FPEN_EL0_BIT);
}

/* FP/SIMD registers loaded at first use (fpu.c): a switch has work only
 * if the thread switched out loaded its registers since it was switched
 * in (arm64_fp_live); then fpu.c saves them and makes EL0's use trap
 * again. A switch between threads that did no FP is this test alone,
 * inline: every IPC hand-off runs it. A macro rather than an inline
 * function, so that prev (the scheduler's look at the thread: a kernel
 * thread has none) is worked out only when there is something to save;
 * next is never needed, its registers are loaded at its first FP
 * instruction. Neither argument may have side effects. In the switch:
 * IRQs off. */
void arm64_fpu_switch_live(struct arch_fpu *prev);
#define ARCH_HAS_INLINE_FPU_SWITCH 1
#define arch_fpu_switch(prev, next)                                                                \
    do {                                                                                           \
        if (__builtin_expect(arm64_fp_live(), 0))                                                  \
            arm64_fpu_switch_live(prev);                                                           \
        (void)(next);                                                                              \
    } while (0)

/* The system call's result, x0, into the frame: for a thread resumed
 * straight from it (arch_switch_to_user, vectors.S). */
static inline void arch_sc_set_result(struct trapframe *tf, long r)
{
    tf->x[0] = (uint64_t)r;
}
/* arch_switch_to_user (vectors.S) and ipc_entry.S are here: the IPC fastpath
 * may resume a partner straight from its trapframe (arch/arch.h). */
#define ARCH_HAS_SWITCH_TO_USER 1

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
