/* SPDX-License-Identifier: MIT */
/*
 * tests/host/fake_kernel/tlb_model.h - the kernel around kernel/mm/asid.c
 * and arch/x86_64/pcid.c, for tests/host/test_tlb_model.c: CPUs that run one
 * at a time (model_cpu), a spinlock that only checks it is not taken twice,
 * and the x86 instructions pcid.c and pcid_load.h use, which go to the
 * test's TLB model. The fake kernel/cpu.h, kernel/mm/vm.h, kernel/panic.h,
 * kernel/printk.h, arch/x86_64/pcid_hw.h and arch/x86_64/cr3.h include
 * this file in place of the real ones.
 */
#ifndef FAKE_TLB_MODEL_H
#define FAKE_TLB_MODEL_H

#include "kernel/types.h"

#define MAX_CPUS  4
#define PAGE_SIZE 4096ul

struct spinlock {
    bool taken;
};
#define SPINLOCK_INIT                                                                              \
    {                                                                                              \
        false                                                                                      \
    }
void model_lock(struct spinlock *l);
void model_unlock(struct spinlock *l);
static inline unsigned long spin_lock_irqsave(struct spinlock *l)
{
    model_lock(l);
    return 0;
}
static inline void spin_unlock_irqrestore(struct spinlock *l, unsigned long flags)
{
    (void)flags;
    model_unlock(l);
}

struct aspace;
struct arch_cpu {
    uint32_t tlb_flush_request;
    uint64_t stale_pcids[4096 / 64];
};
struct cpu {
    struct arch_cpu arch;
    unsigned id;
    uint64_t hwid;
    bool online;
    struct {
        struct aspace *user_as; /* the address space loaded (kernel/mm/aspace_switch.h) */
    } sched;
};
extern struct cpu cpus[MAX_CPUS];
extern unsigned model_cpu; /* the CPU the kernel code runs on */
static inline struct cpu *arch_this_cpu(void)
{
    return &cpus[model_cpu];
}
static inline struct cpu *this_cpu(void)
{
    return &cpus[model_cpu];
}
static inline void arch_cpu_relax(void) {}

struct aspace {
    uint64_t root;
    uint64_t asid;
};

unsigned arch_asid_bits(void);
void arch_asid_enable(void);
void arch_aspace_activate(uint64_t user_root, unsigned asid, bool need_flush);
void arch_tlb_shootdown(unsigned asid, uintptr_t va, size_t len);
/* kernel/mm/aspace_switch.h's out-of-line way (vm.c's, the test's copy);
 * its inline way with x86_64's hooks (test_tlb_model.c) and with none
 * (tlb_model_broadcast.c, on the broadcast model's arch_aspace_activate). */
void aspace_activate_irqs_off(struct cpu *c, struct aspace *as);
void broadcast_aspace_activate(uint64_t user_root, unsigned asid, bool need_flush);
void broadcast_switch(struct cpu *c, struct aspace *as);

__attribute__((noreturn, format(printf, 1, 2))) void panic(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void kprintf(const char *fmt, ...);

/* The x86 side (arch/x86_64/pcid_hw.h, x86.h). */
void x86_write_cr3(uint64_t v);
uint64_t x86_read_cr3(void);
void x86_invpcid(uint64_t type, uint64_t pcid, uintptr_t va);
void arch_tlb_flush_page(uintptr_t va); /* INVLPG */
void x86_send_shootdown(const struct cpu *c);
uint64_t x86_kernel_root(void);
void x86_tlb_serve_request(void);

#endif
