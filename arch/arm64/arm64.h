/* SPDX-License-Identifier: MIT */
/* arch/arm64/arm64.h - arm64-private helpers (system registers, PSCI, traps, GIC, MMU). */
#ifndef ARCH_ARM64_ARM64_H
#define ARCH_ARM64_ARM64_H

#include "arch/arch.h"

/* Read a system register by name: READ_SYSREG(esr_el1). */
#define READ_SYSREG(reg)                                                                           \
    ({                                                                                             \
        uint64_t v_;                                                                               \
        __asm__ volatile("mrs %0, " #reg : "=r"(v_));                                              \
        v_;                                                                                        \
    })
#define WRITE_SYSREG(reg, v) __asm__ volatile("msr " #reg ", %0" : : "r"((uint64_t)(v)) : "memory")

/* CPACR_EL1.FPEN (bits [21:20], Arm ARM D19.2 "CPACR_EL1"): 0b11 lets EL0
 * and EL1 use FP/SIMD, 0b01 traps EL0's use (EC 0x07) and not EL1's. */
#define CPACR_EL1_FPEN_ON       (3u << 20)
#define CPACR_EL1_FPEN_EL0_TRAP (1u << 20)

/* fpu.c: an EL0 FP/SIMD access trapped (EC 0x07), the first since the
 * thread was switched in: load its registers, let EL0 use them, and true
 * (the instruction runs again); false if that is not the case. IRQs off. */
bool arm64_fpu_first_use(void);

/* PSCI function IDs (Arm DEN0022, "Function prototypes"): SMC32 calling convention. */
#define PSCI_VERSION    0x84000000u
#define PSCI_SYSTEM_OFF 0x84000008u

enum psci_conduit { PSCI_NONE, PSCI_HVC, PSCI_SMC };

/* cpu.c: the conduit /psci names (PSCI_NONE if there is no usable PSCI 0.2+). */
extern enum psci_conduit arm64_psci_conduit;
/* cpu.c: a PSCI call through the conduit; x0 of the result. */
uint64_t arm64_psci_call(uint32_t fn, uint64_t a1, uint64_t a2, uint64_t a3);

/* cpu.c: this CPU's vectors, per-CPU pointer and EL0/EL1 controls (every CPU, IRQs off). */
void arm64_cpu_init(struct cpu *c);

/* trap.c: called from vectors.S with IRQs masked (DAIF all set by the exception). */
void arm64_trap(struct trapframe *tf);
/* trap.c: an exception from EL1 that found its kernel stack overflowed; on
 * this CPU's emergency stack (vectors.S switched to it). */
__noreturn void arm64_stack_overflow(struct trapframe *tf);

struct fdt;
/* irq.c: find the GIC (v2 or v3) and the timer's interrupt (arch_init); handle an IRQ (arm64_trap).
 */
void arm64_gic_init(const struct fdt *f);
void arm64_irq(struct trapframe *tf);
/* irq.c: stop the boot with why (a GIC that cannot be set up). */
__noreturn void arm64_gic_fail(const char *why);
/* irq.c: this CPU's part of the GIC, the IPIs and the timer's interrupt on. */
void arm64_irq_cpu_init(void);
/* timer.c: the timer's interrupt; whether it fired (then re-armed). */
bool arm64_timer_interrupt(void);

/* INTIDs 1020-1023 are special (1023 = spurious: nothing to do), both versions. */
#define ARM64_INTID_SPECIAL 1020
/* Interrupt priority for everything the kernel enables (lower = more urgent),
 * and the priority mask above it: only priorities below the mask are signalled. */
#define ARM64_GIC_PRIO      0xa0
#define ARM64_GIC_PMR_ALL   0xf0

/* One GIC version's registers (gicv2.c, gicv3.c), for irq.c alone. */
struct arm64_gic_ops {
    const char *name; /* "GICv2", "GICv3" */
    /* Boot CPU: map and reset the distributor of devicetree node `node`;
     * the number of INTIDs it has, or 0 (after saying why) if unusable. */
    unsigned (*init)(const struct fdt *f, int node);
    /* Every CPU, IRQs off: its SGI/PPI state and CPU interface, with the
     * SGIs and PPIs in `private_ids` (bit n = INTID n) enabled. */
    void (*cpu_init)(uint32_t private_ids);
    /* IRQs off: an SPI (routed to this CPU) or PPI, edge or level, enabled. */
    void (*irq_setup)(unsigned intid, bool edge);
    /* Any CPU: an SPI set up by irq_setup enabled (true) or disabled at the
     * distributor (still pending there, not forwarded). */
    void (*spi_enable)(unsigned intid, bool on);
    /* SGI `sgi` to a CPU that is online; nothing if its GIC part is not set up. */
    void (*send_sgi)(const struct cpu *target, unsigned sgi);
    /* Acknowledge: the INTID; *token goes back to eoi. */
    unsigned (*ack)(uint32_t *token);
    void (*eoi)(uint32_t token);
    /* Optional, for a controller whose specifiers are not the GIC's
     * <type number flags>: the index-th interrupt of devicetree node
     * `node` in this controller's numbering (ARM64_INTID_SPECIAL if not
     * its own), *edge its trigger. */
    unsigned (*xlate)(const struct fdt *f, int node, unsigned index, bool *edge);
};
extern const struct arm64_gic_ops arm64_gicv2, arm64_gicv3, arm64_bcm2836_local;

/* bcm2835_armctrl.c, for bcm2836_local.c: the chained BCM2835 controller
 * (banks 0-2 of 32 sources); pending: bank * 32 + number, or -1. */
bool arm64_armctrl_init(const struct fdt *f, int node);
void arm64_armctrl_enable(unsigned bank, unsigned irq, bool on);
int arm64_armctrl_pending(void);

/* spin_table.c: whether the CPU with this MPIDR affinity asks for
 * spin-table (and where it waits); release it to entry_pa (spin_table_entry
 * in start.S) with its boot record at record_pa: 0, or -1 after saying why. */
bool arm64_spin_table_release(uint64_t hwid, uint64_t *release);
/* A CPU whose enable-method is spin-table but gives no usable release
 * address stops the boot, naming its node; any other CPU returns. */
void arm64_spin_table_require(uint64_t hwid);
int arm64_spin_table_start(const struct cpu *c, uint64_t entry_pa, uint64_t record_pa);

/* mmu.c: whether PAN is on (for fault reports). */
bool arm64_has_pan(void);
/* mmu.c: the kernel's root table (physical), once arch_mmu_switch has run. */
uint64_t arm64_kernel_root(void);
/* mmu.c: the rest of arch_mmu_switch on a CPU whose TTBR1 is already the
 * kernel's (smp.c): TTBR0 = the empty table, PAN on. */
void arm64_mmu_cpu_init(void);
/* mmu.c: clean [va, va + len) from the data caches to the point of coherency. */
void arm64_dcache_clean_poc(const void *va, size_t len);

/* vectors.S: load a user trapframe at the top of this thread's kernel stack, ERET. */
__noreturn void arm64_return_to_user(struct trapframe *tf);
/* switch.S: change TTBR1_EL1 from the identity-mapped alias of the image. */
void arm64_replace_ttbr1(uint64_t root, uint64_t pa_minus_va);

#endif
