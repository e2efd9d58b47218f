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
#define ARCH_KERNEL_VBASE 0xffffffff80000000ul
#define ARCH_STACK_ALIGN 16
/* Not in the early page tables (only 0-4 GiB and the kernel are mapped). */
#define ARCH_UNMAPPED_TEST_ADDR 0x0000700000000000ul

/* Segment selectors; the order is fixed by SYSCALL/SYSRET (SDM vol. 3A 5.8.8). */
#define GDT_KERNEL_CS 0x08
#define GDT_KERNEL_DS 0x10
#define GDT_USER_DS 0x1b /* 0x18 | RPL 3 */
#define GDT_USER_CS 0x23 /* 0x20 | RPL 3 */
#define GDT_TSS 0x28
#define GDT_ENTRIES 7 /* null, kcode, kdata, udata, ucode, tss (2 slots) */

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
    uint64_t gdt[GDT_ENTRIES];
    struct x86_tss tss;
};

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

static inline uint64_t arch_counter(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
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

static inline uintptr_t arch_tf_pc(const struct trapframe *tf) { return tf->rip; }
static inline void arch_tf_set_pc(struct trapframe *tf, uintptr_t pc) { tf->rip = pc; }
static inline uintptr_t arch_tf_fp(const struct trapframe *tf) { return tf->rbp; }

#endif /* __ASSEMBLER__ */
#endif
