/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/include/arch/impl.h - x86_64 side of the arch contract:
 * constants, the trap frame, per-CPU arch state and the inline hooks.
 * Included only through arch/arch.h.
 */
#ifndef ARCH_X86_64_IMPL_H
#define ARCH_X86_64_IMPL_H

#define ARCH_NAME        "x86_64"
#define ARCH_HAS_PIO     1
#define ARCH_ELF_MACHINE 62 /* EM_X86_64 */
#define ARCH_STACK_ALIGN 16

/* Virtual layout (kernel/mm/vm.h): 4-level paging, 48-bit addresses. */
#define ARCH_PT_LEVELS          4
#define ARCH_KERNEL_VBASE       0xffffffff80000000ul /* PML4 slot 511, top 2 GiB */
#define ARCH_KSTACK_BASE        0xffffff0000000000ul /* PML4 slot 510 */
#define ARCH_DIRECT_MAP_BASE    0xffff800000000000ul /* PML4 slots 256.. */
#define ARCH_DIRECT_MAP_SIZE    (1ul << 39)          /* 512 GiB: one PML4 slot */
#define ARCH_EARLY_MAP_SIZE     (64ul << 20)         /* what start.S maps behind the image */
/* Not mapped: in the user half, far above anything a test program uses. */
#define ARCH_UNMAPPED_TEST_ADDR 0x0000700000000000ul

/* Segment selectors; the order is fixed by SYSCALL/SYSRET (SDM vol. 3A 5.8.8). */
#define GDT_KERNEL_CS 0x08
#define GDT_KERNEL_DS 0x10
#define GDT_USER_DS   0x1b /* 0x18 | RPL 3 */
#define GDT_USER_CS   0x23 /* 0x20 | RPL 3 */
#define GDT_TSS       0x28
#define GDT_ENTRIES   7 /* null, kcode, kdata, udata, ucode, tss (2 slots) */

/* Physical page where other CPUs start (below 1 MiB: they start in real mode). */
#define X86_TRAMPOLINE_BASE 0x8000

/* The CPU's exceptions the kernel tells apart (SDM vol. 3A 6.3.1, table
 * 6-1): vectors 0-31 are the CPU's own. */
#define VECTOR_NMI             2
#define VECTOR_UD              6  /* invalid opcode */
#define VECTOR_DF              8  /* double fault */
#define VECTOR_GP              13 /* general protection */
#define VECTOR_PF              14 /* page fault */
#define VECTOR_MF              16 /* x87 floating-point error */
#define VECTOR_AC              17 /* alignment check */
#define VECTOR_MC              18 /* machine check */
#define VECTOR_XM              19 /* SIMD floating-point exception */
#define VECTOR_FIRST_INTERRUPT 32

/* Interrupt vectors the kernel programs. */
#define VECTOR_TIMER          32
#define VECTOR_CONSOLE        0x30 /* COM1, through the I/O APIC */
#define VECTOR_IPI_RESCHEDULE 0xf0
#define VECTOR_IPI_STOP       0xf1
#define VECTOR_TLB_SHOOTDOWN  0xf2
#define VECTOR_SPURIOUS       0xff

/* Offsets in struct cpu used by entry.S and the inlines below (checked in
 * cpu.c): struct arch_cpu comes right after the `self` pointer. */
#define CPU_ARCH       8
#define CPU_KSTACK_TOP (CPU_ARCH + 0)
#define CPU_USER_RSP   (CPU_ARCH + 8)

/* Offsets in struct trapframe (8-byte slots, lowest address first), for
 * frame.h, entry.S and vectors.S; checked against the struct below. */
#define TF_R15    (0 * 8)
#define TF_R14    (1 * 8)
#define TF_R13    (2 * 8)
#define TF_R12    (3 * 8)
#define TF_RBP    (4 * 8)
#define TF_RBX    (5 * 8)
#define TF_R11    (6 * 8)
#define TF_RCX    (7 * 8)
#define TF_RDI    (8 * 8) /* the six system call arguments, in ABI order */
#define TF_RSI    (9 * 8)
#define TF_RDX    (10 * 8)
#define TF_R10    (11 * 8)
#define TF_R8     (12 * 8)
#define TF_R9     (13 * 8)
#define TF_RAX    (14 * 8)
#define TF_VECTOR (15 * 8)
#define TF_ERROR  (16 * 8)
#define TF_RIP    (17 * 8)
#define TF_CS     (18 * 8)
#define TF_RFLAGS (19 * 8)
#define TF_RSP    (20 * 8)
#define TF_SS     (21 * 8)
#define TF_SIZE   (22 * 8)

#ifndef __ASSEMBLER__

/*
 * Registers saved on a trap, lowest address first (frame.h pushes them).
 * vector/error and the five words after them form the frame the CPU itself
 * pushes (SDM vol. 3A 6.14.1, figure 6-9). The system call arguments
 * rdi rsi rdx r10 r8 r9 sit side by side in that order, so that handlers
 * read them in place (arch_sc_args). A SYSCALL frame (entry.S) fills only
 * what the C code may clobber: the callee-saved registers and the four
 * words marked below hold nothing there, see entry.S.
 */
struct trapframe {
    uint64_t r15, r14, r13, r12, rbp, rbx; /* callee-saved: not in a SYSCALL frame */
    uint64_t r11, rcx;                     /* SYSCALL: not saved (rflags, rip below) */
    union {
        struct {
            uint64_t rdi, rsi, rdx, r10, r8, r9;
        };
        uintptr_t sc_args[6];
    };
    uint64_t rax;
    uint64_t vector, error; /* SYSCALL: not saved */
    uint64_t rip, cs, rflags, rsp, ss;
};
_Static_assert(__builtin_offsetof(struct trapframe, rbp) == TF_RBP, "TF_RBP");
_Static_assert(__builtin_offsetof(struct trapframe, rdi) == TF_RDI, "TF_RDI");
_Static_assert(__builtin_offsetof(struct trapframe, r9) == TF_R9, "TF_R9");
_Static_assert(__builtin_offsetof(struct trapframe, rax) == TF_RAX, "TF_RAX");
_Static_assert(__builtin_offsetof(struct trapframe, rip) == TF_RIP, "TF_RIP");
_Static_assert(__builtin_offsetof(struct trapframe, rsp) == TF_RSP, "TF_RSP");
_Static_assert(sizeof(struct trapframe) == TF_SIZE, "TF_SIZE");

/* 64-bit task state segment (SDM vol. 3A 8.7, figure 8-11). */
struct x86_tss {
    uint32_t reserved0;
    uint64_t rsp[3];
    uint64_t reserved1;
    uint64_t ist[7];
    uint64_t reserved2;
    uint16_t reserved3;
    uint16_t iomap_base;
} __attribute__((packed));

/* Per-CPU emergency stacks (arch/arch.h): the IST stacks of #DF, NMI and #MC. */
#define ARCH_EMERGENCY_STACKS     3
#define ARCH_EMERGENCY_STACK_SIZE 8192

struct arch_cpu {
    uint64_t kstack_top; /* CPU_KSTACK_TOP: the running thread's, for SYSCALL */
    uint64_t user_rsp;   /* CPU_USER_RSP: scratch while SYSCALL switches stacks */
    uint64_t gdt[GDT_ENTRIES];
    struct x86_tss tss;
    uint32_t tlb_flush_request; /* set by another CPU's arch_tlb_shootdown */
    /* PCIDs whose translations here may be stale: flushed when next loaded
     * (set by any CPU's arch_tlb_shootdown, arch/x86_64/mmu.c). */
    uint64_t stale_pcids[4096 / 64];
    uint64_t timer_deadline; /* the TSC value the tick was armed for (timer.c); 0: periodic */
};

/* A user thread's x87/SSE registers: the 512-byte FXSAVE image, which must
 * be 16-byte aligned (SDM vol. 2A "FXSAVE", table 3-53; arch/x86_64/fpu.c). */
struct arch_fpu {
    _Alignas(16) uint8_t fxsave[512];
};

/* Page-table entry bits (SDM vol. 3A 4.5, tables 4-14 to 4-20). */
#define X86_PTE_P    (1ull << 0)
#define X86_PTE_W    (1ull << 1)
#define X86_PTE_U    (1ull << 2)
#define X86_PTE_PWT  (1ull << 3)
#define X86_PTE_PCD  (1ull << 4)
#define X86_PTE_A    (1ull << 5)
#define X86_PTE_D    (1ull << 6)
#define X86_PTE_PS   (1ull << 7) /* a 2 MiB or 1 GiB page, not a table */
#define X86_PTE_G    (1ull << 8) /* global: kept in the TLB across CR3 loads */
#define X86_PTE_NX   (1ull << 63)
#define X86_PTE_ADDR 0x000ffffffffff000ull

/* Tables are permissive (the leaf decides); only user-half tables get U. */
static inline pte_t arch_pte_table(uint64_t pa, bool user)
{
    return pa | X86_PTE_P | X86_PTE_W | (user ? X86_PTE_U : 0);
}

/* A and D are set up front so the CPU never has to write them back. */
static inline pte_t arch_pte_leaf(uint64_t pa, unsigned prot, int level)
{
    pte_t e = pa | X86_PTE_P | X86_PTE_A;
    if (prot & VM_WRITE)
        e |= X86_PTE_W | X86_PTE_D;
    e |= (prot & VM_USER) ? X86_PTE_U : X86_PTE_G;
    if (!(prot & VM_EXEC))
        e |= X86_PTE_NX;
    if (prot & VM_DEVICE)
        e |= X86_PTE_PCD | X86_PTE_PWT; /* uncached (the MTRRs agree for MMIO) */
    if (level > 0)
        e |= X86_PTE_PS;
    return e;
}

static inline bool arch_pte_valid(pte_t e)
{
    return e & X86_PTE_P;
}
static inline bool arch_pte_is_leaf(pte_t e, int level)
{
    return level == 0 || (e & X86_PTE_PS);
}
static inline uint64_t arch_pte_addr(pte_t e)
{
    return e & X86_PTE_ADDR;
}

static inline unsigned arch_pte_prot(pte_t e)
{
    return VM_READ | ((e & X86_PTE_W) ? VM_WRITE : 0) | ((e & X86_PTE_U) ? VM_USER : 0) |
           ((e & X86_PTE_NX) ? 0 : VM_EXEC) | ((e & X86_PTE_PCD) ? VM_DEVICE : 0);
}

static inline void arch_tlb_flush_page(uintptr_t va)
{
    __asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
}

static inline struct cpu *arch_this_cpu(void)
{
    struct cpu *c;
    __asm__ volatile("mov %%gs:0, %0" : "=r"(c));
    return c;
}

/* One MOV with a GS segment override (SDM vol. 3A 3.4.4): the CPU is read
 * and the word loaded by one instruction, which an interrupt cannot split. */
static inline uintptr_t arch_this_cpu_word(size_t off)
{
    uintptr_t v;
    __asm__ volatile("movq %%gs:%c1, %0" : "=r"(v) : "i"(off));
    return v;
}

/* This CPU's struct arch_cpu (struct cpu is not complete here). */
static inline struct arch_cpu *x86_this_arch_cpu(void)
{
    return (struct arch_cpu *)((uintptr_t)arch_this_cpu() + CPU_ARCH);
}

/* arch_set_kernel_stack (arch/arch.h), inline: every IPC hand-off runs it.
 * SYSCALL switches to this CPU's kstack_top (entry.S); an interrupt or
 * exception from ring 3 to TSS.RSP0 (SDM vol. 3A 6.14.2, 8.7). One store
 * each, through GS (SDM vol. 3A 3.4.4), as arch_this_cpu_word reads. */
#define ARCH_HAS_INLINE_SET_KERNEL_STACK 1
static inline void arch_set_kernel_stack(uintptr_t top)
{
    __asm__ volatile("movq %0, %%gs:%c1\n\tmovq %0, %%gs:%c2"
                     :
                     : "r"(top), "i"(CPU_KSTACK_TOP),
                       "i"(CPU_ARCH + __builtin_offsetof(struct arch_cpu, tss.rsp[0]))
                     : "memory");
}

/* The thread switch's two common loads of a user address space
 * (kernel/mm/aspace_switch.h): under its PCID, and without ASIDs. */
#include "arch/x86_64/pcid_load.h"
#define ARCH_HAS_ASPACE_ACTIVATE_TAGGED 1
static inline void arch_aspace_activate_tagged(uint64_t user_root, unsigned asid)
{
    x86_load_tagged(x86_this_arch_cpu()->stale_pcids, user_root, asid);
}
#define ARCH_HAS_ASPACE_ACTIVATE_UNTAGGED 1
static inline void arch_aspace_activate_untagged(uint64_t user_root)
{
    x86_load_untagged(user_root);
}

/* arch_fpu_switch (arch/arch.h), inline: every switch runs it, each IPC
 * hand-off between two programs too. Eager on purpose (fpu.c says why);
 * the 64-bit forms save the full FPU instruction and data pointers (SDM
 * vol. 2A "FXSAVE"). */
#define ARCH_HAS_INLINE_FPU_SWITCH 1
static inline void arch_fpu_switch(struct arch_fpu *prev, struct arch_fpu *next)
{
    if (prev)
        __asm__ volatile("fxsave64 %0" : "=m"(prev->fxsave) : : "memory");
    if (next)
        __asm__ volatile("fxrstor64 %0" : : "m"(next->fxsave) : "memory");
}

static inline unsigned long arch_irq_save(void)
{
    unsigned long flags;
    __asm__ volatile("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
    return flags;
}

static inline void arch_irq_restore(unsigned long flags)
{
    if (flags & (1ul << 9)) /* RFLAGS.IF */
        __asm__ volatile("sti" : : : "memory");
}

static inline bool arch_irq_flags_masked(unsigned long flags)
{
    return !(flags & (1ul << 9)); /* RFLAGS.IF */
}

static inline bool arch_irqs_disabled(void)
{
    unsigned long flags;
    __asm__ volatile("pushfq; popq %0" : "=r"(flags));
    return !(flags & (1ul << 9));
}

static inline void arch_irq_enable(void)
{
    __asm__ volatile("sti" : : : "memory");
}
static inline void arch_irq_disable(void)
{
    __asm__ volatile("cli" : : : "memory");
}

static inline uint64_t arch_counter(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
}

/* SDM vol. 2B RDTSC: LFENCE immediately after RDTSC keeps later
 * instructions from starting before the read (the start of a timed
 * region); LFENCE immediately before it makes the read wait for every
 * earlier instruction (the end). 64-bit outputs: RDTSC zeroes the upper
 * halves of RAX and RDX, and saying so spares gcc a zero-extending mov per
 * read; the latency timers use only the low half (kernel/latency/latency.h),
 * and gcc then drops RDX. */
static inline uint64_t arch_timestamp_begin(void)
{
    uint64_t lo, hi;
    __asm__ volatile("rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
    return hi << 32 | lo;
}

static inline uint64_t arch_timestamp_end(void)
{
    uint64_t lo, hi;
    __asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return hi << 32 | lo;
}

static inline void arch_cpu_relax(void)
{
    __asm__ volatile("pause" : : : "memory");
}

/* UC memory is strongly ordered on x86; volatile keeps the compiler honest. */
static inline uint8_t arch_mmio_read8(uintptr_t a)
{
    return *(volatile uint8_t *)a;
}
static inline void arch_mmio_write8(uintptr_t a, uint8_t v)
{
    *(volatile uint8_t *)a = v;
}
static inline uint32_t arch_mmio_read32(uintptr_t a)
{
    return *(volatile uint32_t *)a;
}
static inline void arch_mmio_write32(uintptr_t a, uint32_t v)
{
    *(volatile uint32_t *)a = v;
}

static inline uint8_t arch_pio_read8(uint16_t port)
{
    uint8_t v;
    __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

static inline void arch_pio_write8(uint16_t port, uint8_t v)
{
    __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint32_t arch_pio_read32(uint16_t port)
{
    uint32_t v;
    __asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

static inline void arch_pio_write32(uint16_t port, uint32_t v)
{
    __asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

/* System call ABI (kernel/uapi/syscall.h): rax; rdi rsi rdx r10 r8 r9; rax. */
static inline unsigned long arch_sc_nr(const struct trapframe *tf)
{
    return tf->rax;
}
static inline const uintptr_t *arch_sc_args(const struct trapframe *tf)
{
    return tf->sc_args;
}
/* The CPU pushes ss first at the stack top (SDM vol. 3A 6.14.2), and
 * entry.S builds the SYSCALL frame in the same place. */
static inline struct trapframe *arch_user_frame(uintptr_t kstack_top)
{
    return (struct trapframe *)(kstack_top - TF_SIZE);
}
/* entry.S's SYSRET path and the IRET path both reload rsi rdx r10 r8 r9. */
static inline void arch_sc_set_words(struct trapframe *tf, const uintptr_t w[5])
{
#pragma GCC unroll 5 /* five loads and stores, no loop: the IPC path's one copy */
    for (int i = 0; i < 5; i++)
        tf->sc_args[1 + i] = w[i];
}

/* The result register, for a thread arch_switch_to_user resumes. */
static inline void arch_sc_set_result(struct trapframe *tf, long r)
{
    tf->rax = (uint64_t)r;
}
/* arch_switch_to_user and ipc_entry.S are here: the IPC fastpath may
 * resume a partner straight from its trapframe (arch/arch.h). */
#define ARCH_HAS_SWITCH_TO_USER 1

static inline uintptr_t arch_tf_pc(const struct trapframe *tf)
{
    return tf->rip;
}
static inline void arch_tf_set_pc(struct trapframe *tf, uintptr_t pc)
{
    tf->rip = pc;
}
static inline uintptr_t arch_tf_fp(const struct trapframe *tf)
{
    return tf->rbp;
}

#endif /* __ASSEMBLER__ */
#endif
