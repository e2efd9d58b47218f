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

#define ARCH_NAME        "riscv64"
#define ARCH_HAS_PIO     0
#define ARCH_ELF_MACHINE 243 /* EM_RISCV */
#define ARCH_STACK_ALIGN 16  /* psABI: sp is 16-byte aligned at all times */

/* Virtual layout (kernel/mm/vm.h), Sv39 (priv spec 4.4): 3 levels, 39-bit
 * addresses sign-extended from bit 38, so the upper half is root entries
 * 256-511, 1 GiB each. */
#define ARCH_PT_LEVELS          3
#define ARCH_DIRECT_MAP_BASE    RV_UL(0xffffffc000000000) /* root entries 256-383 */
#define ARCH_DIRECT_MAP_SIZE    (RV_UL(128) << 30)        /* 128 GiB */
#define ARCH_KSTACK_BASE        RV_UL(0xffffffe000000000) /* root entry 384 */
#define ARCH_KERNEL_VBASE       RV_UL(0xffffffff80000000) /* root entry 510 */
#define ARCH_EARLY_MAP_SIZE     (RV_UL(64) << 20)         /* start.S's megapages */
/* Root entry 448: between the kernel stacks and the image, never mapped. */
#define ARCH_UNMAPPED_TEST_ADDR RV_UL(0xfffffff000000000)

/* Offsets in struct cpu used by vectors.S (checked in thread.c): struct
 * arch_cpu comes right after the `self` pointer. */
#define CPU_KSTACK_TOP     8
#define CPU_USER_SP        16
#define CPU_OVERFLOW_STACK 24
#define CPU_SCRATCH        32

/* One emergency stack per CPU (arch/arch.h), for a kernel stack overflow. */
#define ARCH_EMERGENCY_STACKS     1
#define ARCH_EMERGENCY_STACK_SIZE 8192

/* A thread's kernel stack (KSTACK_SIZE, kernel/mm/kernel_stack.h) and its
 * guard page below it: the guard's base is this far below the top
 * (checked in thread.c). */
#define RISCV_KSTACK_GUARD_BELOW_TOP (16 * 1024 + 4096)

/* The kernel-mode trap entry switches to it when sp lies in the guard page
 * (one 4 KiB page) or is less than a trapframe above it: sp - guard < 4096
 * + TF_SIZE, where guard = kstack_top - RISCV_KSTACK_GUARD_BELOW_TOP, the
 * running thread's. Computed in 16-byte units so that both constants fit
 * the 12-bit immediates of ADDI and SLTIU (all are multiples of 16). */
#define STACK_OVERFLOW_WINDOW    ((4096 + TF_SIZE) / 16)
#define STACK_GUARD_BELOW_TOP_16 (RISCV_KSTACK_GUARD_BELOW_TOP / 16)

/* Offsets in struct riscv_hart_boot, what a starting hart reads (start.S;
 * the C layout is in smp.c and checked there). */
#define HART_BOOT_SATP  0
#define HART_BOOT_STACK 8
#define HART_BOOT_CPU   16
#define HART_BOOT_HWID  24
#define HART_BOOT_STRAY 32
#define HART_BOOT_SIZE  40

/* Trap frame layout, shared with vectors.S (checked in trap.c). */
#define TF_X(n)    (8 * (n)) /* general register xn */
#define TF_SEPC    (32 * 8)
#define TF_SSTATUS (33 * 8)
#define TF_SCAUSE  (34 * 8)
#define TF_STVAL   (35 * 8)
#define TF_SIZE    (36 * 8) /* a multiple of 16, so sp stays aligned */

/* What arch_context_switch (switch.S) keeps on a switched-out stack: ra at
 * 0, s0-s11 at 8-96, padded to a multiple of 16. */
#define SWITCH_FRAME (14 * 8)
#define SWITCH_RA    0
#define SWITCH_S(n)  (8 + 8 * (n))
#define SWITCH_GP    (13 * 8) /* the user's gp: the kernel never changes it */

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

/* A user thread's FP registers (arch/riscv64/fpu.c): f0-f31 (64 bits each,
 * the D extension) and fcsr. */
struct arch_fpu {
    uint64_t f[32];
    uint64_t fcsr;
};

/* Per-CPU state of the trap entry (vectors.S) and the IPIs (irq.c). */
struct arch_cpu {
    uint64_t kstack_top;         /* CPU_KSTACK_TOP: the running thread's, for traps from U */
    uint64_t user_sp;            /* CPU_USER_SP: scratch while the entry switches stacks */
    uint64_t overflow_stack;     /* CPU_OVERFLOW_STACK: top of this CPU's emergency stack */
    uint64_t scratch;            /* CPU_SCRATCH: t0 while a kernel-mode trap checks sp */
    uint32_t ipi_pending;        /* 1 << enum ipi_kind, set by senders */
    uint64_t icache_writes_seen; /* riscv_icache_writes at this hart's last FENCE.I */
    uint64_t retried_fault_pc;   /* the user page fault last retried here (trap.c) */
    uint64_t retried_fault_va;
    uint64_t timer_deadline; /* the `time` value the tick was programmed for (timer.c) */
};

#define SSTATUS_SIE (1ul << 1) /* supervisor interrupt enable (priv spec 4.1.1) */

/*
 * Sv39 page-table entries (priv spec 4.3.1, 4.4.1): flags in bits 0-7, the
 * PPN (PA >> 12, 44 bits) at bit 10. V alone is a pointer to the next level;
 * any of R, W, X makes a leaf, at level 1 a megapage, at level 2 a
 * gigapage. W without R is reserved, so every leaf is readable. A and D
 * are set up front: hardware may raise a page fault instead of setting them.
 * G marks kernel (upper-half) leaves, present in every address space.
 * VM_DEVICE has no encoding: without Svpbmt a PTE has no memory type, and
 * the physical memory attributes (priv spec 3.6) of the address decide
 * cacheability and ordering, so MMIO is uncached and ordered anyway. It is
 * only remembered, in RSW bit 8 (reserved for supervisor software, 4.4.1),
 * so that arch_pte_prot tells device registers from RAM pages.
 */
#define RV_PTE_V         (1ul << 0)
#define RV_PTE_R         (1ul << 1)
#define RV_PTE_W         (1ul << 2)
#define RV_PTE_X         (1ul << 3)
#define RV_PTE_U         (1ul << 4)
#define RV_PTE_G         (1ul << 5)
#define RV_PTE_A         (1ul << 6)
#define RV_PTE_D         (1ul << 7)
#define RV_PTE_PPN_SHIFT 10
#define RV_PTE_PPN_MASK  ((1ul << 44) - 1)
#define RV_PTE_SW_DEVICE (1ul << 8) /* RSW: a VM_DEVICE mapping */

/* Non-leaf entries must have A, D and U clear (priv spec 4.3.1), user or not. */
static inline pte_t arch_pte_table(uint64_t pa, bool user)
{
    (void)user;
    return (pa >> 12) << RV_PTE_PPN_SHIFT | RV_PTE_V;
}

static inline pte_t arch_pte_leaf(uint64_t pa, unsigned prot, int level)
{
    (void)level; /* the same format at every level */
    pte_t e = (pa >> 12) << RV_PTE_PPN_SHIFT | RV_PTE_V | RV_PTE_R | RV_PTE_A | RV_PTE_D;
    if (prot & VM_WRITE)
        e |= RV_PTE_W;
    if (prot & VM_EXEC)
        e |= RV_PTE_X;
    if (prot & VM_DEVICE)
        e |= RV_PTE_SW_DEVICE;
    e |= (prot & VM_USER) ? RV_PTE_U : RV_PTE_G;
    return e;
}

static inline bool arch_pte_valid(pte_t e)
{
    return e & RV_PTE_V;
}
static inline bool arch_pte_is_leaf(pte_t e, int level)
{
    return level == 0 || (e & (RV_PTE_R | RV_PTE_W | RV_PTE_X));
}
static inline uint64_t arch_pte_addr(pte_t e)
{
    return (e >> RV_PTE_PPN_SHIFT & RV_PTE_PPN_MASK) << 12;
}

static inline unsigned arch_pte_prot(pte_t e)
{
    return ((e & RV_PTE_R) ? VM_READ : 0) | ((e & RV_PTE_W) ? VM_WRITE : 0) |
           ((e & RV_PTE_X) ? VM_EXEC : 0) | ((e & RV_PTE_U) ? VM_USER : 0) |
           ((e & RV_PTE_SW_DEVICE) ? VM_DEVICE : 0);
}

/* SFENCE.VMA va, x0: this hart forgets va in every address space, global
 * entries included (priv spec 4.2.1). */
static inline void arch_tlb_flush_page(uintptr_t va)
{
    __asm__ volatile("sfence.vma %0, zero" : : "r"(va) : "memory");
}

/* In the kernel, tp holds this CPU's struct cpu * (start.S, arch_early_init).
 * As a global register variable it is read where it is used, as the base of
 * a load (`ld s1, 104(tp)`), rather than copied first; a call (a thread
 * switch among them) may change it, so it is never kept across one. */
register struct cpu *riscv_tp __asm__("tp");

static inline struct cpu *arch_this_cpu(void)
{
    return riscv_tp;
}

/* One LD with tp as its base (an offset below 2048, the I-type immediate):
 * forced in assembly, so the compiler cannot copy tp to another register
 * first, which a migration between the copy and the load would make stale. */
static inline __attribute__((always_inline)) uintptr_t arch_this_cpu_word(size_t off)
{
    uintptr_t v;
    __asm__ volatile("ld %0, %c1(tp)" : "=r"(v) : "i"(off));
    return v;
}

/* The same for a store: one SD with tp as its base. */
static inline __attribute__((always_inline)) void riscv_this_cpu_set_word(size_t off, uintptr_t v)
{
    __asm__ volatile("sd %0, %c1(tp)" : : "r"(v), "i"(off) : "memory");
}

/* struct cpu's `arch` (struct arch_cpu) is at this offset: CPU_KSTACK_TOP,
 * where its first field lies (checked in thread.c). */
#define CPU_ARCH CPU_KSTACK_TOP

/* arch_set_kernel_stack (arch/arch.h), inline: every IPC hand-off runs it
 * (out of line it was 10 instructions, 6 of them its call and frame). One
 * store: the trap entry from U mode switches to the top, and the overflow
 * check of traps from S mode finds the guard page below it (vectors.S; the
 * boot stack, top 0, puts it where no kernel sp is near, so it is never
 * taken for one). */
#define ARCH_HAS_INLINE_SET_KERNEL_STACK 1
static inline __attribute__((always_inline)) void arch_set_kernel_stack(uintptr_t top)
{
    riscv_this_cpu_set_word(CPU_KSTACK_TOP, top);
}

/* satp (priv spec 4.1.11): MODE, then ASID at bit 44, then the root's PPN. */
#define SATP_MODE_SV39  (8ul << 60)
#define SATP_ASID_SHIFT 44

/* mmu.c's, for the switch below: the kernel's root table (physical) and
 * whether the kernel uses ASIDs; and the count of code writes (smp.c). */
extern uint64_t riscv_kernel_root_pa;
extern bool riscv_asids_on;
extern uint64_t riscv_icache_writes;

/* satp for the root table at physical address root under asid: MODE in
 * bits 60-63 and ASID in 44-59 are one field shifted together (a LUI, an
 * OR and a shift instead of four). */
static inline __attribute__((always_inline)) uint64_t riscv_satp(uint64_t root, unsigned asid)
{
    return ((uint64_t)asid | SATP_MODE_SV39 >> SATP_ASID_SHIFT) << SATP_ASID_SHIFT | root >> 12;
}

/* After a satp write: FENCE.I if code was written since this hart's last
 * one (smp.c explains). The count is read plain: only a hart that finds
 * it moved needs that read ordered before what follows (FENCE R,RW, the
 * ISA's acquire, RVWMO mappings), so the fence is taken with the FENCE.I.
 * IRQs off, so the hart is tp. */
static inline __attribute__((always_inline)) void riscv_icache_catch_up(void)
{
    uint64_t writes = __atomic_load_n(&riscv_icache_writes, __ATOMIC_RELAXED);
    size_t seen = CPU_ARCH + offsetof(struct arch_cpu, icache_writes_seen);
    if (__builtin_expect(arch_this_cpu_word(seen) != writes, 0)) {
        __asm__ volatile("fence r, rw\n\tfence.i" : : : "memory");
        riscv_this_cpu_set_word(seen, writes);
    }
}

/*
 * arch_aspace_activate (arch/arch.h), inline: the switch runs it on every
 * IPC hand-off between two programs, and out of line its call and frame
 * were 8 of its 22 instructions there. need_flush with ASIDs: every ASID, so SFENCE.VMA x0, x0
 * (global entries go too: no form keeps them for every ASID at once);
 * without, ASID 0's non-global entries (rs2 = a zero register, not x0:
 * priv spec 4.2.1). After the satp write: stale entries of a reused ASID
 * must not survive into its new use.
 */
#define ARCH_HAS_INLINE_ASPACE_ACTIVATE 1
static inline __attribute__((always_inline)) void
arch_aspace_activate(uint64_t user_root, unsigned asid, bool need_flush)
{
    uint64_t root = user_root ? user_root : riscv_kernel_root_pa;
    __asm__ volatile("csrw satp, %0" : : "r"(riscv_satp(root, asid)) : "memory");
    if (need_flush && riscv_asids_on)
        __asm__ volatile("sfence.vma zero, zero" : : : "memory");
    else if (need_flush)
        __asm__ volatile("sfence.vma zero, %0" : : "r"(0ul) : "memory");
    riscv_icache_catch_up();
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

static inline bool arch_irq_flags_masked(unsigned long flags)
{
    return !(flags & SSTATUS_SIE);
}

static inline bool arch_irqs_disabled(void)
{
    unsigned long s;
    __asm__ volatile("csrr %0, sstatus" : "=r"(s));
    return !(s & SSTATUS_SIE);
}

/* SIE is bit 1: the immediate forms (CSRSI, CSRCI) take it in one instruction. */
static inline void arch_irq_enable(void)
{
    __asm__ volatile("csrsi sstatus, %0" : : "i"(SSTATUS_SIE) : "memory");
}

static inline void arch_irq_disable(void)
{
    __asm__ volatile("csrci sstatus, %0" : : "i"(SSTATUS_SIE) : "memory");
}

/* The time CSR (ISA, "Counters" chapter): a constant-rate counter shared
 * by all harts, readable in S mode because the firmware sets mcounteren.TM. */
static inline uint64_t arch_counter(void)
{
    uint64_t t;
    __asm__ volatile("rdtime %0" : "=r"(t));
    return t;
}

/* Set at boot if S mode may read `cycle` (the firmware's mcounteren.CY). */
extern bool riscv_use_cycle;

/* A latency counter read, written as RDTIME and listed in the
 * .timestamp_reads section: where S mode may read `cycle`,
 * arch_timestamp_init() rewrites every listed read to RDCYCLE once, at
 * boot, before other harts start, so the timed path tests nothing to
 * choose. */
#define RISCV_TIMESTAMP_READ                                                                       \
    "1: rdtime %0\n\t"                                                                             \
    ".pushsection .timestamp_reads, \"a\"\n\t.balign 8\n\t.quad 1b\n\t.popsection\n\t"

/* Counter CSR reads are not ordered against other instructions by the ISA;
 * a FENCE on the inner side of each read keeps the timed loads and stores
 * between them (priv spec "Counters"; the in-order harts of QEMU and boards
 * retire in order anyway). */
static inline uint64_t arch_timestamp_begin(void)
{
    uint64_t t;
    __asm__ volatile(RISCV_TIMESTAMP_READ "fence" : "=r"(t) : : "memory");
    return t;
}

static inline uint64_t arch_timestamp_end(void)
{
    uint64_t t;
    __asm__ volatile("fence\n\t" RISCV_TIMESTAMP_READ : "=r"(t) : : "memory");
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

/* System call ABI (kernel/uapi/syscall.h): a7 = number, a0-a5 = arguments
 * (x10-x15), a0 = result. */
static inline unsigned long arch_sc_nr(const struct trapframe *tf)
{
    return tf->a7;
}
static inline const uintptr_t *arch_sc_args(const struct trapframe *tf)
{
    return &tf->x[10]; /* a0-a5 */
}
static inline struct trapframe *arch_user_frame(uintptr_t kstack_top)
{
    return (struct trapframe *)(kstack_top - TF_SIZE); /* vectors.S */
}
/* .Lsyscall reloads a1-a7 (x11-x17) from the frame on its way out (vectors.S). */
static inline void arch_sc_set_words(struct trapframe *tf, const uintptr_t w[5])
{
#pragma GCC unroll 5 /* five loads and stores, no loop: the IPC path's one copy */
    for (int i = 0; i < 5; i++)
        tf->x[11 + i] = w[i];
}

/* A system call's result, for a thread resumed straight from its frame
 * (arch_switch_to_user): a0, which every way back to U mode reloads. */
static inline void arch_sc_set_result(struct trapframe *tf, long r)
{
    tf->a0 = (uint64_t)r;
}
/* arch_switch_to_user (switch.S) and the IPC calls' table entries
 * (ipc_entry.S) are here: the IPC fastpath may resume a partner straight
 * from its trapframe (arch/arch.h). */
#define ARCH_HAS_SWITCH_TO_USER 1

/* sstatus.FS (priv spec 4.1.1.6, "Encoding of FS[1:0]"): how the user's
 * F/D registers are switched is arch/riscv64/fpu.c's. */
#define SSTATUS_FS (3ul << 13)
#define FS_OFF     (0ul << 13)
#define FS_INITIAL (1ul << 13)
#define FS_CLEAN   (2ul << 13)
#define FS_DIRTY   (3ul << 13)

/* sstatus.SD (priv spec 4.1.1, bit SXLEN-1): set when FS, VS or XS says
 * Dirty. The kernel keeps VS Off and has no XS state, so here it means FS
 * Dirty; fpu.c checks FS itself before it saves. */
#define SSTATUS_SD (1ul << 63)

/* fpu.c: prev's f0-f31 and fcsr into f if `was` (sstatus before the
 * switch cleared FS) says they are Dirty; leaves FS = Off. */
void riscv_fpu_save_dirty(struct arch_fpu *f, unsigned long was);

/*
 * arch_fpu_switch (arch/arch.h), inline: every switch runs it, each IPC
 * hand-off included. next's registers are not loaded: FS goes Off in
 * next's user trapframe (at the top of the kernel stack
 * arch_set_kernel_stack has just made this CPU's) and in the hart, so
 * next's first FP instruction traps and loads them (fpu.c,
 * riscv_fpu_first_use). One CSRRC clears FS and reads what it was: the
 * registers are still there with FS Off (priv spec 3.1.6.6: changing FS
 * "has no effect on the contents"), so prev's are saved after, and only if
 * SD says Dirty. A thread that did no FP since its switch in pays the
 * CSRRC and a test of its frame's FS.
 */
#define ARCH_HAS_INLINE_FPU_SWITCH 1
static inline __attribute__((always_inline)) void arch_fpu_switch(struct arch_fpu *prev,
                                                                  struct arch_fpu *next)
{
    unsigned long fs = SSTATUS_FS, was;
    __asm__ volatile("csrrc %0, sstatus, %1" : "=r"(was) : "r"(fs));
    if (__builtin_expect((was & SSTATUS_SD) != 0, 0) && prev)
        riscv_fpu_save_dirty(prev, was);
    if (next) {
        uintptr_t top = arch_this_cpu_word(CPU_KSTACK_TOP); /* next's, just set */
        uint64_t *frame_sstatus = (uint64_t *)(top - TF_SIZE + TF_SSTATUS);
        uint64_t s = *frame_sstatus;
        if (__builtin_expect((s & fs) != 0, 0)) /* it did FP before this call */
            *frame_sstatus = s & ~fs;
    }
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
