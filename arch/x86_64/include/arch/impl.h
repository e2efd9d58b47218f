/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/include/arch/impl.h - x86_64 side of the arch contract:
 * constants, the trap frame, per-CPU arch state and the inline hooks.
 * Included only through arch/arch.h.
 */
#ifndef ARCH_X86_64_IMPL_H
#define ARCH_X86_64_IMPL_H

#define ARCH_NAME "x86_64"
#define ARCH_HAS_PIO 1
#define ARCH_ELF_MACHINE 62 /* EM_X86_64 */
#define ARCH_STACK_ALIGN 16

/* Virtual layout (kernel/mm/vm.h): 4-level paging, 48-bit addresses. */
#define ARCH_PT_LEVELS 4
#define ARCH_KERNEL_VBASE 0xffffffff80000000ul  /* PML4 slot 511, top 2 GiB */
#define ARCH_KSTACK_BASE 0xffffff0000000000ul   /* PML4 slot 510 */
#define ARCH_DIRECT_MAP_BASE 0xffff800000000000ul /* PML4 slots 256.. */
#define ARCH_DIRECT_MAP_SIZE (1ul << 39)        /* 512 GiB: one PML4 slot */
#define ARCH_EARLY_MAP_SIZE (64ul << 20)        /* what start.S maps behind the image */
/* Not mapped: in the user half, far above anything a test program uses. */
#define ARCH_UNMAPPED_TEST_ADDR 0x0000700000000000ul

/* Segment selectors; the order is fixed by SYSCALL/SYSRET (SDM vol. 3A 5.8.8). */
#define GDT_KERNEL_CS 0x08
#define GDT_KERNEL_DS 0x10
#define GDT_USER_DS 0x1b /* 0x18 | RPL 3 */
#define GDT_USER_CS 0x23 /* 0x20 | RPL 3 */
#define GDT_TSS 0x28
#define GDT_ENTRIES 7 /* null, kcode, kdata, udata, ucode, tss (2 slots) */

/* Physical page where other CPUs start (below 1 MiB: they start in real mode). */
#define X86_TRAMPOLINE_BASE 0x8000

/* Interrupt vectors the kernel programs (0-31 are the CPU's exceptions). */
#define VECTOR_TIMER 32
#define VECTOR_CONSOLE 0x30 /* COM1, through the I/O APIC */
#define VECTOR_IPI_RESCHEDULE 0xf0
#define VECTOR_IPI_STOP 0xf1
#define VECTOR_TLB_SHOOTDOWN 0xf2
#define VECTOR_SPURIOUS 0xff
#define VECTOR_SYSCALL 0x100 /* not a real vector: marks frames built by SYSCALL */

/* Offsets in struct cpu used by entry.S (checked in cpu.c): struct arch_cpu
 * comes right after the `self` pointer. */
#define CPU_KSTACK_TOP 8
#define CPU_USER_RSP 16

/* Offsets in struct trapframe used by entry.S. */
#define TF_RIP (17 * 8)
#define TF_CS (18 * 8)
#define TF_RFLAGS (19 * 8)
#define TF_RSP (20 * 8)
#define TF_SS (21 * 8)
#define TF_SIZE (22 * 8)

#ifndef __ASSEMBLER__

/*
 * Registers saved on a trap, in the order arch/x86_64/vectors.S pushes them
 * (lowest address first). vector/error and the five words after them form
 * the frame the CPU itself pushes (SDM vol. 3A 6.14.1, figure 6-9).
 */
struct trapframe {
    uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
    uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
    uint64_t vector, error;
    uint64_t rip, cs, rflags, rsp, ss;
};

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

struct arch_cpu {
    uint64_t kstack_top; /* CPU_KSTACK_TOP: the running thread's, for SYSCALL */
    uint64_t user_rsp;   /* CPU_USER_RSP: scratch while SYSCALL switches stacks */
    uint64_t gdt[GDT_ENTRIES];
    struct x86_tss tss;
    uint32_t tlb_flush_request; /* set by another CPU's arch_tlb_shootdown */
};

/* A user thread's x87/SSE registers: the 512-byte FXSAVE image, which must
 * be 16-byte aligned (SDM vol. 2A "FXSAVE", table 3-53; arch/x86_64/fpu.c). */
struct arch_fpu {
    _Alignas(16) uint8_t fxsave[512];
};

/* Page-table entry bits (SDM vol. 3A 4.5, tables 4-14 to 4-20). */
#define X86_PTE_P (1ull << 0)
#define X86_PTE_W (1ull << 1)
#define X86_PTE_U (1ull << 2)
#define X86_PTE_PWT (1ull << 3)
#define X86_PTE_PCD (1ull << 4)
#define X86_PTE_A (1ull << 5)
#define X86_PTE_D (1ull << 6)
#define X86_PTE_PS (1ull << 7) /* a 2 MiB or 1 GiB page, not a table */
#define X86_PTE_G (1ull << 8)  /* global: kept in the TLB across CR3 loads */
#define X86_PTE_NX (1ull << 63)
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

static inline bool arch_pte_valid(pte_t e) { return e & X86_PTE_P; }
static inline bool arch_pte_is_leaf(pte_t e, int level) { return level == 0 || (e & X86_PTE_PS); }
static inline uint64_t arch_pte_addr(pte_t e) { return e & X86_PTE_ADDR; }

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

static inline bool arch_irqs_disabled(void)
{
    unsigned long flags;
    __asm__ volatile("pushfq; popq %0" : "=r"(flags));
    return !(flags & (1ul << 9));
}

static inline void arch_irq_enable(void) { __asm__ volatile("sti" : : : "memory"); }
static inline void arch_irq_disable(void) { __asm__ volatile("cli" : : : "memory"); }

static inline uint64_t arch_counter(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
}

/* SDM vol. 2B RDTSC/RDTSCP: LFENCE before RDTSC keeps it from running
 * ahead of earlier instructions; RDTSCP waits for them, and the LFENCE after
 * it keeps later ones from starting before the read. */
static inline uint64_t arch_timestamp_begin(void)
{
    uint32_t lo, hi;
    __asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
    return (uint64_t)hi << 32 | lo;
}

/* Set at boot from CPUID.80000001H:EDX[27] (time.c); without RDTSCP (QEMU's
 * qemu64 model, old CPUs) the end read is LFENCE; RDTSC; LFENCE too. */
extern bool x86_has_rdtscp;

static inline uint64_t arch_timestamp_end(void)
{
    uint32_t lo, hi, aux;
    if (!x86_has_rdtscp)
        return arch_timestamp_begin();
    __asm__ volatile("rdtscp; lfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
    return (uint64_t)hi << 32 | lo;
}

static inline void arch_cpu_relax(void)
{
    __asm__ volatile("pause" : : : "memory");
}

/* UC memory is strongly ordered on x86; volatile keeps the compiler honest. */
static inline uint8_t arch_mmio_read8(uintptr_t a) { return *(volatile uint8_t *)a; }
static inline void arch_mmio_write8(uintptr_t a, uint8_t v) { *(volatile uint8_t *)a = v; }
static inline uint32_t arch_mmio_read32(uintptr_t a) { return *(volatile uint32_t *)a; }
static inline void arch_mmio_write32(uintptr_t a, uint32_t v) { *(volatile uint32_t *)a = v; }

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
static inline unsigned long arch_sc_nr(const struct trapframe *tf) { return tf->rax; }
static inline uintptr_t arch_sc_arg(const struct trapframe *tf, int i)
{
    const uint64_t args[6] = {tf->rdi, tf->rsi, tf->rdx, tf->r10, tf->r8, tf->r9};
    return args[i];
}
static inline void arch_sc_set_ret(struct trapframe *tf, long v) { tf->rax = (uint64_t)v; }

static inline uintptr_t arch_tf_pc(const struct trapframe *tf) { return tf->rip; }
static inline void arch_tf_set_pc(struct trapframe *tf, uintptr_t pc) { tf->rip = pc; }
static inline uintptr_t arch_tf_fp(const struct trapframe *tf) { return tf->rbp; }

#endif /* __ASSEMBLER__ */
#endif
