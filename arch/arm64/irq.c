/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/irq.c - interrupts, whichever GIC the machine has: the choice
 * from the devicetree, the timer's interrupt (the tick itself is
 * timer.c's), SGIs as IPIs, the console UART's interrupt and the IRQ
 * dispatch.
 *
 * The register-level work is one GIC version's (struct arm64_gic_ops in
 * arm64.h): gicv2.c (Arm IHI 0048B; QEMU virt's default, the Raspberry Pi
 * 4's GIC-400) or gicv3.c (Arm IHI 0069; QEMU virt,gic-version=3, servers
 * and most current boards). Both number interrupts the same way: INTIDs
 * 0-15 are SGIs (software generated, our IPIs), 16-31 PPIs (private per
 * CPU: the timers), 32+ SPIs (shared peripherals: the console UART, routed
 * to the boot CPU by arch_console_irq).
 *
 * The tick's interrupt is the virtual timer's, PPI 11 = INTID 27 by the
 * devicetree's /timer node (third entry: secure, non-secure physical,
 * virtual, hypervisor).
 */
#include "arm64.h"
#include "kernel/arch_callbacks.h"
#include "lib/fdt.h"

#define SGI_RESCHEDULE 0
#define SGI_STOP       1
#define PPI_BASE       16

static const struct arm64_gic_ops *gic; /* NULL until arm64_gic_init found one */
static unsigned timer_intid = PPI_BASE + 11;
static unsigned gic_intids; /* INTIDs the distributor has */
static int gic_node = -1;   /* the GIC's devicetree node (offset in the blob) */
static unsigned console_intid = ARM64_INTID_SPECIAL; /* none until arch_console_irq */
static void (*console_handler)(void);

/* The devicetree compatibles of each version (DT bindings arm,gic and arm,gic-v3). */
static const char *const gicv3_compatible[] = {"arm,gic-v3"};
static const char *const gicv2_compatible[] = {"arm,cortex-a15-gic", "arm,gic-400",
                                               "arm,cortex-a9-gic", "arm,cortex-a7-gic"};
/* No GIC: the Raspberry Pi 2/3's per-core controller (bcm2836_local.c). */
static const char *const bcm2836_compatible[] = {"brcm,bcm2836-l1-intc"};

__noreturn void arm64_gic_fail(const char *why)
{
    struct trapframe tf;
    arch_capture_regs(&tf);
    panic_trap(&tf, "%s", why);
}

/* The virtual timer's INTID from /timer (cells: type (1 = PPI), number, flags). */
static void find_timer(const struct fdt *f, const struct arm64_gic_ops *ops)
{
    uint32_t len;
    int node = fdt_find_compatible(f, -1, "arm,armv8-timer");
    if (node < 0) /* the same timer, as 32-bit devicetrees name it (BCM2837) */
        node = fdt_find_compatible(f, -1, "arm,armv7-timer");
    if (node < 0 && ops->xlate) /* no architected numbering to fall back on */
        arm64_gic_fail("gic: no timer node (arm,armv8-timer or arm,armv7-timer): the "
                       "interrupt controller's timer input is unknown; the boot stops");
    if (node < 0)
        kprintf("gic: no timer node (arm,armv8-timer): the virtual timer is taken to be "
                "PPI 11, INTID %u, as the Arm BSA recommends\n",
                timer_intid);
    if (node >= 0 && ops->xlate) {
        bool edge;
        unsigned id = ops->xlate(f, node, 2, &edge);
        if (id < ARM64_INTID_SPECIAL)
            timer_intid = id;
        return;
    }
    const uint8_t *irqs = node >= 0 ? fdt_prop(f, node, "interrupts", &len) : NULL;
    if (irqs && len >= 3 * 12 && fdt_be32(irqs + 24) == 1)
        timer_intid = PPI_BASE + fdt_be32(irqs + 28);
}

static int find_compatible(const struct fdt *f, const char *const *names, unsigned n)
{
    int node = -1;
    for (unsigned i = 0; i < n && node < 0; i++)
        node = fdt_find_compatible(f, -1, names[i]);
    return node;
}

/* Name the interrupt controller the devicetree has instead (the root's interrupt parent). */
static void unknown_controller(const struct fdt *f)
{
    uint32_t len;
    int node = fdt_interrupt_parent(f, fdt_root(f));
    const char *compat = node >= 0 ? fdt_prop(f, node, "compatible", &len) : NULL;
    if (compat)
        kprintf("gic: the devicetree's interrupt controller '%s' is '%s', not a GIC\n",
                fdt_node_name(f, node), compat);
}

/* Boot CPU, from arch_init: pick the GIC the devicetree describes, reset its distributor. */
void arm64_gic_init(const struct fdt *f)
{
    const struct arm64_gic_ops *ops = &arm64_gicv3;
    int node = find_compatible(f, gicv3_compatible, ARRAY_SIZE(gicv3_compatible));
    if (node < 0) {
        ops = &arm64_gicv2;
        node = find_compatible(f, gicv2_compatible, ARRAY_SIZE(gicv2_compatible));
    }
    if (node < 0) {
        ops = &arm64_bcm2836_local;
        node = find_compatible(f, bcm2836_compatible, ARRAY_SIZE(bcm2836_compatible));
    }
    if (node < 0) {
        unknown_controller(f);
        return; /* arch_timer_start stops the boot */
    }
    gic_intids = ops->init(f, node);
    if (!gic_intids)
        return; /* ops->init said why; arch_timer_start stops */
    find_timer(f, ops);
    gic = ops;
    gic_node = node;
    kprintf("gic: %s, %u INTIDs; timer INTID %u\n", gic->name, gic_intids, timer_intid);
}

/* Every CPU (from timer.c's arch_timer_start), IRQs off: this CPU's part of
 * the GIC, with the IPIs and the tick enabled. */
void arm64_irq_cpu_init(void)
{
    if (!gic)
        arm64_gic_fail("gic: no usable interrupt controller in the devicetree: neither a GICv3 "
                       "(arm,gic-v3), a GICv2 (arm,cortex-a15-gic, arm,gic-400) nor a BCM2836 "
                       "local controller (brcm,bcm2836-l1-intc)");
    gic->cpu_init(1u << SGI_RESCHEDULE | 1u << SGI_STOP | 1u << timer_intid);
}

/* Only other CPUs are ever targeted; the version's send_sgi orders the
 * sender's stores (need_resched, the run queue) before the SGI. */
void arch_send_ipi(unsigned cpu, int kind)
{
    gic->send_sgi(&cpus[cpu], kind == IPI_STOP ? SGI_STOP : SGI_RESCHEDULE);
}

/*
 * The boot console (/chosen/stdout-path) UART's interrupt. Its first
 * interrupt specifier, in the GIC's #interrupt-cells = 3 format (the same
 * for both versions): <type number flags>, type 0 = SPI (INTID number +
 * 32) or 1 = PPI (number + 16), flags [3:0] the trigger: bits 0-1 = an
 * edge, bits 2-3 = a level (QEMU's PL011: <0 1 4>, SPI 1 = INTID 33, level
 * high). The version programs it, routed to this CPU.
 */
bool arch_console_irq(void (*handler)(void))
{
    const struct fdt *f = boot_fdt();
    uint32_t len, cells;
    int uart = f ? fdt_stdout_node(f, NULL) : FDT_ERR_NOTFOUND;
    const uint8_t *irq = uart >= 0 ? fdt_prop(f, uart, "interrupts", &len) : NULL;
    unsigned id, type = 0;
    bool edge;
    if (!irq || !gic)
        return false;
    if (gic->xlate) {
        id = gic->xlate(f, uart, 0, &edge);
    } else {
        if (fdt_interrupt_parent(f, uart) != gic_node ||
            !fdt_prop_u32(f, gic_node, "#interrupt-cells", &cells) || cells != 3 || len < 12)
            return false;
        uint32_t number = fdt_be32(irq + 4), flags = fdt_be32(irq + 8);
        type = fdt_be32(irq);
        id = type == 0 && number < 988  ? 32 + number
             : type == 1 && number < 16 ? PPI_BASE + number
                                        : ARM64_INTID_SPECIAL;
        edge = flags & 0x3;
    }
    if (id >= ARM64_INTID_SPECIAL || id >= gic_intids || id == timer_intid)
        return false;
    unsigned long irqs = arch_irq_save(); /* stay on this CPU; no IRQ while half set up */
    console_handler = handler;
    console_intid = id;
    gic->irq_setup(id, edge);
    arch_irq_restore(irqs);
    const char *kind = gic->xlate ? gic->name : type ? "PPI" : "SPI";
    kprintf("gic: console interrupt: %s INTID %u, %s-triggered\n", kind, id,
            edge ? "edge" : "level");
    return true;
}

/* The console's line is an SPI (a PPI would be one CPU's, not maskable from another). */
bool arch_console_irq_maskable(void)
{
    return gic && console_intid >= 32 && console_intid < ARM64_INTID_SPECIAL;
}

bool arch_console_irq_mask(bool masked)
{
    if (!arch_console_irq_maskable())
        return false;
    gic->spi_enable(console_intid, !masked);
    return true;
}

/* An IRQ exception, IRQs masked: acknowledge, handle, end. */
void arm64_irq(struct trapframe *tf)
{
    uint32_t token;
    unsigned id = gic->ack(&token);
    if (id >= ARM64_INTID_SPECIAL)
        return;
    interrupt_enter();
    if (id == timer_intid) {
        bool fired = arm64_timer_interrupt();
        gic->eoi(token);
        if (fired)
            sched_tick();
    } else if (id == SGI_RESCHEDULE) {
        gic->eoi(token); /* the sender set need_resched; the return path looks */
    } else if (id == SGI_STOP) {
        gic->eoi(token);
        arch_halt();
    } else if (id == console_intid) {
        /* Drains the UART: its level drops before the EOI, or stays up for a
         * byte that came after the drain, and the (level-sensitive, active
         * and pending) SPI is taken again after the EOI deactivates it (IHI
         * 0069, "Interrupt handling state machine"). */
        console_handler();
        gic->eoi(token);
    } else {
        gic->eoi(token);
        panic_trap(tf, "unexpected interrupt, INTID %u", id);
    }
}
