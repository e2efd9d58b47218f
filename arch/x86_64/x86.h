/* SPDX-License-Identifier: MIT */
/* arch/x86_64/x86.h - x86-private helpers (MSRs, control registers, CPUID). */
#ifndef ARCH_X86_64_X86_H
#define ARCH_X86_64_X86_H

#include "arch/arch.h"

#define MSR_EFER           0xc0000080
#define MSR_GS_BASE        0xc0000101
#define MSR_KERNEL_GS_BASE 0xc0000102
#define MSR_STAR           0xc0000081
#define MSR_LSTAR          0xc0000082
#define MSR_FMASK          0xc0000084

static inline uint64_t x86_rdmsr(uint32_t msr)
{
    uint32_t lo, hi;
    __asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
    return (uint64_t)hi << 32 | lo;
}

static inline void x86_wrmsr(uint32_t msr, uint64_t v)
{
    __asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

static inline void x86_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    __asm__ volatile("cpuid"
                     : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
                     : "a"(leaf), "c"(sub));
}

#define X86_READ_CR(n)                                                                             \
    static inline uint64_t x86_read_cr##n(void)                                                    \
    {                                                                                              \
        uint64_t v;                                                                                \
        __asm__ volatile("mov %%cr" #n ", %0" : "=r"(v));                                          \
        return v;                                                                                  \
    }
X86_READ_CR(0)
X86_READ_CR(2)
X86_READ_CR(3)
X86_READ_CR(4)

/* trap.c: called from vectors.S with IRQs off. */
void x86_trap(struct trapframe *tf);
/* time.c: find the TSC frequency (needs ACPI for calibration). */
void x86_time_init(const struct boot_info *bi);
/* power.c: remember how to power off (UEFI runtime services). */
void x86_power_init(const struct boot_info *bi);
/* cpu.c: descriptor tables, per-CPU pointer, SYSCALL MSRs for this CPU. */
void x86_cpu_init(struct cpu *c);
/* smp.c: where other CPUs arrive (from start.S). */
void x86_secondary_entry(struct cpu *c);
/* mmu.c */
void x86_tlb_serve_request(void);
/* ioapic.c: COM1's interrupt to the boot CPU; its handler, from trap.c. */
bool x86_console_irq_route(const struct boot_info *bi, void (*handler)(void));
void x86_console_interrupt(void);
void x86_paging_features_init(void);
/* fpu.c: this CPU's x87/SSE controls (every CPU as it starts); the x87
 * status word (simd false) or MXCSR of the loaded user state. */
void x86_fpu_cpu_init(void);
uint32_t x86_fpu_status(bool simd);
uint64_t x86_kernel_root(void);
/* irq.c: the local APIC, its registers by xAPIC offset in either mode */
void x86_lapic_init(void);
void x86_lapic_eoi(void);
const char *x86_lapic_mode(void); /* "x2APIC" or "xAPIC" */
void x86_lapic_send(uint32_t apic_id, uint32_t icr);
uint32_t x86_lapic_read(unsigned reg);
void x86_lapic_write(unsigned reg, uint32_t v);
/* timer.c */
void x86_timer_rearm(void);
/* switch.S / entry.S / uaccess.S */
__noreturn void x86_return_to_user(struct trapframe *tf);
void x86_syscall_entry(void);
int x86_user_copy(void *dst, const void *src, size_t n);

#endif
