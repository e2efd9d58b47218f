/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/bcm2836_local.c - the BCM2836/BCM2837 per-core ("ARM local")
 * interrupt controller, devicetree "brcm,bcm2836-l1-intc", the Raspberry
 * Pi 2 and 3's interrupt controller in place of a GIC. It plays the GIC's
 * part for irq.c (struct arm64_gic_ops), with interrupt numbers of its own:
 *
 *   0-3     mailbox 0 bits 0-3 of this core: the IPIs (irq.c's SGIs 0, 1)
 *   16-27   the core's local sources 0-11 (below), the generic timers among
 *           them (16 + 3 = the virtual timer, irq.c's tick)
 *   32-127  the chained BCM2835 controller (bcm2835_armctrl.c): 32 + bank *
 *           32 + number, from its <bank number> specifiers
 *
 * Registers (Broadcom's "QA7: ARM Quad A7 core" document, rev 3.4, chapters
 * 3 "ARM control" and 4 "Registers"; at 0x40000000, the devicetree's reg
 * translated through /soc's ranges): GPU interrupt routing 0x0c (bits
 * [1:0]: the core that gets the GPU IRQ), core n timers interrupt control
 * 0x40 + 4n (bit 3: nCNTVIRQ to IRQ), core n mailboxes interrupt control
 * 0x50 + 4n (bit m: mailbox m to IRQ), core n IRQ source 0x60 + 4n (bit 0
 * CNTPSIRQ, 1 CNTPNSIRQ, 2 CNTHPIRQ, 3 CNTVIRQ, 4-7 mailboxes 0-3, 8 GPU
 * interrupt, 9 PMU, 11 local timer), core n mailbox m write-set 0x80 + 16n
 * + 4m and read/write-high-to-clear 0xc0 + 16n + 4m. A core's number is
 * its MPIDR_EL1.Aff0, the devicetree's /cpus reg.
 *
 * Every source is level-like: the timer's line is its condition, a
 * mailbox's is "any bit set", the GPU's is the BCM2835 controller's pending
 * bits. So acknowledging a mailbox IPI clears its bit (the sender's stores
 * are already visible), and there is no end-of-interrupt to write.
 */
#include "arm64.h"
#include "kernel/arch_callbacks.h"
#include "lib/fdt.h"

#define GPU_ROUTING      0x0c
#define TIMER_CTL(core)  (0x40 + 4 * (core))
#define MBOX_CTL(core)   (0x50 + 4 * (core))
#define IRQ_SOURCE(core) (0x60 + 4 * (core))
#define MBOX_SET(core)   (0x80 + 16 * (core)) /* mailbox 0 */
#define MBOX_CLR(core)   (0xc0 + 16 * (core))
#define SRC_CNTV         3
#define SRC_MBOX0        4
#define SRC_GPU          8
#define LOCAL_BASE_ID    16
#define ARMCTRL_BASE_ID  32
#define IDS              (ARMCTRL_BASE_ID + 3 * 32)
#define IPI_IDS          4

static uintptr_t local;
static int local_node = -1, armctrl_node = -1;

static unsigned this_core(void)
{
    return READ_SYSREG(mpidr_el1) & 3;
}

static unsigned bcm2836_init(const struct fdt *f, int node)
{
    uint64_t pa, size;
    if (fdt_reg_cpu(f, node, 0, &pa, &size, NULL)) {
        kprintf("gic: bcm2836-l1-intc without usable reg\n");
        return 0;
    }
    local = (uintptr_t)ioremap(pa, 0x1000);
    local_node = node;
    /* The BCM2835 controller chained into this one (its interrupt-parent). */
    int ctrl = fdt_find_compatible(f, -1, "brcm,bcm2836-armctrl-ic");
    if (ctrl < 0)
        ctrl = fdt_find_compatible(f, -1, "brcm,bcm2835-armctrl-ic");
    if (ctrl >= 0 && fdt_interrupt_parent(f, ctrl) == node && arm64_armctrl_init(f, ctrl))
        armctrl_node = ctrl;
    for (unsigned core = 0; core < 4; core++) {
        arch_mmio_write32(local + TIMER_CTL(core), 0);
        arch_mmio_write32(local + MBOX_CTL(core), 0);
    }
    kprintf("gic: BCM2836 local interrupt controller @ %#lx%s\n", (unsigned long)pa,
            armctrl_node >= 0 ? ", BCM2835 controller chained as its GPU interrupt" : "");
    return IDS;
}

/* This core: the IPIs (mailbox 0) and the timers among private_ids. */
static void bcm2836_cpu_init(uint32_t private_ids)
{
    unsigned core = this_core();
    arch_mmio_write32(local + MBOX_CLR(core), ~0u);
    arch_mmio_write32(local + MBOX_CTL(core), private_ids & ((1u << IPI_IDS) - 1) ? 1 : 0);
    arch_mmio_write32(local + TIMER_CTL(core), (private_ids >> LOCAL_BASE_ID) & 0xf);
}

/* A chained source, enabled and (the GPU interrupt) routed to this core. */
static void bcm2836_irq_setup(unsigned id, bool edge)
{
    (void)edge;
    if (id < ARMCTRL_BASE_ID || id >= IDS)
        return;
    arch_mmio_write32(local + GPU_ROUTING, this_core());
    arm64_armctrl_enable((id - ARMCTRL_BASE_ID) / 32, (id - ARMCTRL_BASE_ID) % 32, true);
}

static void bcm2836_spi_enable(unsigned id, bool on)
{
    if (id >= ARMCTRL_BASE_ID && id < IDS)
        arm64_armctrl_enable((id - ARMCTRL_BASE_ID) / 32, (id - ARMCTRL_BASE_ID) % 32, on);
}

/* arch_mmio_write32's DMB orders the sender's stores before the mailbox bit. */
static void bcm2836_send_sgi(const struct cpu *target, unsigned sgi)
{
    arch_mmio_write32(local + MBOX_SET(target->hwid & 3), 1u << sgi);
}

static unsigned bcm2836_ack(uint32_t *token)
{
    unsigned core = this_core();
    uint32_t src = arch_mmio_read32(local + IRQ_SOURCE(core));
    *token = 0;
    if (src & 1u << SRC_MBOX0) {
        uint32_t bits = arch_mmio_read32(local + MBOX_CLR(core));
        if (bits) {
            unsigned sgi = (unsigned)__builtin_ctz(bits);
            arch_mmio_write32(local + MBOX_CLR(core), 1u << sgi);
            return sgi < IPI_IDS ? sgi : ARM64_INTID_SPECIAL;
        }
    }
    if (src & 1u << SRC_CNTV)
        return LOCAL_BASE_ID + SRC_CNTV;
    if (src & 1u << SRC_GPU) {
        int n = arm64_armctrl_pending();
        if (n >= 0)
            return ARMCTRL_BASE_ID + (unsigned)n;
    }
    return ARM64_INTID_SPECIAL + 3; /* spurious */
}

static void bcm2836_eoi(uint32_t token)
{
    (void)token;
}

/* The index-th interrupt of node in this controller's numbering: a local
 * <source flags> (2 cells) or a chained BCM2835 <bank number>. */
static unsigned bcm2836_xlate(const struct fdt *f, int node, unsigned index, bool *edge)
{
    uint32_t len;
    int parent = fdt_interrupt_parent(f, node);
    const uint8_t *irqs = fdt_prop(f, node, "interrupts", &len);
    *edge = false;
    if (!irqs || len < 8 * (index + 1))
        return ARM64_INTID_SPECIAL;
    uint32_t a = fdt_be32(irqs + 8 * index), b = fdt_be32(irqs + 8 * index + 4);
    if (parent == local_node && parent >= 0 && a < 12)
        return LOCAL_BASE_ID + a;
    if (parent == armctrl_node && armctrl_node >= 0 && a < 3 && b < 32)
        return ARMCTRL_BASE_ID + 32 * a + b;
    return ARM64_INTID_SPECIAL;
}

const struct arm64_gic_ops arm64_bcm2836_local = {
    .name = "BCM2836 local",
    .init = bcm2836_init,
    .cpu_init = bcm2836_cpu_init,
    .irq_setup = bcm2836_irq_setup,
    .spi_enable = bcm2836_spi_enable,
    .send_sgi = bcm2836_send_sgi,
    .ack = bcm2836_ack,
    .eoi = bcm2836_eoi,
    .xlate = bcm2836_xlate,
};
