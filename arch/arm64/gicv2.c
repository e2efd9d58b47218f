/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/gicv2.c - the GICv2 interrupt controller's registers.
 *
 * GICv2 (Arm IHI 0048B, "ARM Generic Interrupt Controller Architecture
 * Specification version 2.0"): a distributor (GICD_*, one per system)
 * routes interrupts to a CPU interface (GICC_*, banked per CPU, at the
 * same address on every CPU). SGIs name their targets by CPU-interface
 * bit (at most 8 CPUs). Register offsets: IHI 0048B tables 4-1 and 4-2.
 * The devicetree node ("arm,cortex-a15-gic", "arm,gic-400") gives the
 * distributor in reg[0] and the CPU interface in reg[1]. QEMU's virt
 * machine has a GICv2 unless told gic-version=3; the Raspberry Pi 4 has a
 * GIC-400 (GICv2).
 */
#include "arm64.h"
#include "kernel/arch_callbacks.h"
#include "lib/fdt.h"

#define GICD_CTLR         0x000
#define GICD_TYPER        0x004 /* ITLinesNumber [4:0]: 32 * (N + 1) INTIDs */
#define GICD_ISENABLER(n) (0x100 + 4 * (n))
#define GICD_ICENABLER(n) (0x180 + 4 * (n))
#define GICD_ICPENDR(n)   (0x280 + 4 * (n))
#define GICD_ICACTIVER(n) (0x380 + 4 * (n))
#define GICD_IPRIORITYR   0x400 /* one byte per INTID */
#define GICD_ITARGETSR    0x800 /* one byte per INTID; 0-31 read as this CPU's own bit */
/* 2 bits per INTID, the upper one: 1 = edge-triggered, 0 = level-sensitive */
#define GICD_ICFGR(n)     (0xc00 + 4 * (n))
#define GICD_SGIR         0xf00 /* CPUTargetList [23:16], SGIINTID [3:0] */
#define GICC_CTLR         0x000
#define GICC_PMR          0x004 /* priority mask */
#define GICC_IAR          0x00c /* acknowledge: INTID [9:0], source CPU [12:10] for SGIs */
#define GICC_EOIR         0x010 /* end of interrupt: write back the IAR value */
#define GIC_CTLR_ENABLE   0x3   /* EnableGrp0 | EnableGrp1 (Enable alone in the Non-secure view) */

static uintptr_t gicd, gicc;

static uint32_t rd(uintptr_t base, unsigned reg)
{
    return arch_mmio_read32(base + reg);
}
static void wr(uintptr_t base, unsigned reg, uint32_t v)
{
    arch_mmio_write32(base + reg, v);
}

/* Boot CPU: every SPI disabled, not pending, not active, whatever the firmware left. */
static unsigned gicv2_init(const struct fdt *f, int node)
{
    uint64_t dist, cpu, size;
    if (fdt_reg_cpu(f, node, 0, &dist, &size, NULL) || fdt_reg_cpu(f, node, 1, &cpu, &size, NULL)) {
        kprintf("gic: GICv2 without distributor and CPU interface registers in its reg\n");
        return 0;
    }
    gicd = (uintptr_t)ioremap(dist, 0x1000);
    gicc = (uintptr_t)ioremap(cpu, 0x1000);
    wr(gicd, GICD_CTLR, 0);
    unsigned words = (rd(gicd, GICD_TYPER) & 0x1f) + 1;
    for (unsigned i = 1; i < words; i++) {
        wr(gicd, GICD_ICENABLER(i), ~0u);
        wr(gicd, GICD_ICPENDR(i), ~0u);
        wr(gicd, GICD_ICACTIVER(i), ~0u);
    }
    wr(gicd, GICD_CTLR, GIC_CTLR_ENABLE);
    kprintf("gic: GICv2 distributor %#lx, CPU interface %#lx\n", (unsigned long)dist,
            (unsigned long)cpu);
    return 32 * words;
}

/* This CPU's banked part: SGIs and PPIs (register 0 of each set), the CPU interface. */
static void gicv2_cpu_init(uint32_t private_ids)
{
    uint32_t mine = arch_mmio_read8(gicd + GICD_ITARGETSR);
    this_cpu()->arch.gic_mask = mine ? mine : 1; /* RAZ on a uniprocessor GIC */
    wr(gicd, GICD_ICENABLER(0), ~0u);
    wr(gicd, GICD_ICACTIVER(0), ~0u);
    for (unsigned id = 0; id < 32; id++)
        if (private_ids & 1u << id)
            arch_mmio_write8(gicd + GICD_IPRIORITYR + id, ARM64_GIC_PRIO);
    wr(gicd, GICD_ISENABLER(0), private_ids);
    wr(gicc, GICC_PMR, ARM64_GIC_PMR_ALL);
    wr(gicc, GICC_CTLR, GIC_CTLR_ENABLE);
}

/* IHI 0048B 4.3: disabled while it changes, GICD_ICFGR edge/level,
 * GICD_IPRIORITYR, GICD_ITARGETSR this CPU's interface bit (read-only for
 * a PPI, which is banked: this CPU's anyway), GICD_ISENABLER. */
static void gicv2_irq_setup(unsigned id, bool edge)
{
    uint32_t bit = 1u << (id % 32), cfg_shift = 2 * (id % 16) + 1;
    wr(gicd, GICD_ICENABLER(id / 32), bit);
    uint32_t cfg = rd(gicd, GICD_ICFGR(id / 16)) & ~(1u << cfg_shift);
    wr(gicd, GICD_ICFGR(id / 16), cfg | (uint32_t)edge << cfg_shift);
    arch_mmio_write8(gicd + GICD_IPRIORITYR + id, ARM64_GIC_PRIO);
    arch_mmio_write8(gicd + GICD_ITARGETSR + id, (uint8_t)this_cpu()->arch.gic_mask);
    wr(gicd, GICD_ISENABLER(id / 32), bit);
}

/* IHI 0048B 4.3.5, 4.3.6: a 1 written to GICD_ISENABLERn / GICD_ICENABLERn
 * enables / disables that interrupt's forwarding; 0 bits change nothing. */
static void gicv2_spi_enable(unsigned id, bool on)
{
    wr(gicd, on ? GICD_ISENABLER(id / 32) : GICD_ICENABLER(id / 32), 1u << (id % 32));
}

/*
 * The store ordering the sender needs (need_resched and the run queue
 * before the SGI) is arch_mmio_write32's DMB. The target's CPU-interface
 * bit: each CPU stores its own in gicv2_cpu_init before it goes online
 * (the MMIO writes there order the two stores); the caller has seen it
 * online, so read the bit only after that (the acquire fence, a DMB
 * ISHLD). A 0 (a CPU not set up, which the scheduler never targets) sends
 * nothing rather than an SGI to no CPU.
 */
static void gicv2_send_sgi(const struct cpu *target, unsigned sgi)
{
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    uint32_t mask = READ_ONCE(target->arch.gic_mask);
    if (mask)
        wr(gicd, GICD_SGIR, mask << 16 | sgi);
}

static unsigned gicv2_ack(uint32_t *token)
{
    *token = rd(gicc, GICC_IAR);
    return *token & 0x3ff;
}

static void gicv2_eoi(uint32_t token)
{
    wr(gicc, GICC_EOIR, token);
}

const struct arm64_gic_ops arm64_gicv2 = {
    .name = "GICv2",
    .init = gicv2_init,
    .cpu_init = gicv2_cpu_init,
    .irq_setup = gicv2_irq_setup,
    .spi_enable = gicv2_spi_enable,
    .send_sgi = gicv2_send_sgi,
    .ack = gicv2_ack,
    .eoi = gicv2_eoi,
};
