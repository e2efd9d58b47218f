/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/gic.c - interrupts: the GICv2 interrupt controller, the
 * generic timer's virtual timer as the scheduler tick, and SGIs as IPIs.
 *
 * GICv2 (Arm IHI 0048B, "ARM Generic Interrupt Controller Architecture
 * Specification version 2.0"): a distributor (GICD_*, one per system)
 * routes interrupts to a CPU interface (GICC_*, banked per CPU, at the
 * same address on every CPU). INTIDs 0-15 are SGIs (software generated,
 * our IPIs), 16-31 PPIs (private per CPU: the timers), 32+ SPIs (shared
 * peripherals: the console UART, routed to the boot CPU by
 * arch_console_irq). Register offsets: IHI 0048B tables 4-1 and 4-2.
 * The devicetree node ("arm,cortex-a15-gic", "arm,gic-400") gives the
 * distributor in reg[0] and the CPU interface in reg[1]. QEMU's virt
 * machine has a GICv2 unless told gic-version=3; the Raspberry Pi 4 has a
 * GIC-400 (GICv2).
 *
 * The tick is the virtual timer (Arm ARM, "The Generic Timer in AArch64
 * state"; registers CNTV_CTL_EL0 and CNTV_TVAL_EL0), PPI 11 = INTID 27 by
 * the devicetree's /timer node (third entry: secure, non-secure physical,
 * virtual, hypervisor), free of any EL2 setup because it counts CNTVCT_EL0.
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
#define GICC_PMR          0x004 /* priority mask: only priorities below it are signalled */
#define GICC_IAR          0x00c /* acknowledge: INTID [9:0], source CPU [12:10] for SGIs */
#define GICC_EOIR         0x010 /* end of interrupt: write back the IAR value */
#define GIC_CTLR_ENABLE   0x3   /* EnableGrp0 | EnableGrp1 (Enable alone in the Non-secure view) */
#define GIC_PRIO          0xa0  /* any priority numerically below the mask */
#define GIC_PMR_ALL       0xf0
#define INTID_SPECIAL     1020 /* 1020-1023: special, 1023 = spurious: nothing to do */
#define SGI_RESCHEDULE    0
#define SGI_STOP          1
#define PPI_BASE          16
#define CNTV_CTL_ENABLE   (1u << 0) /* CNTV_CTL_EL0.ENABLE; IMASK (bit 1) = 0 */
#define CNTV_CTL_ISTATUS  (1u << 2) /* the timer condition is met */

static uintptr_t gicd, gicc;
static unsigned timer_intid = PPI_BASE + 11;
static unsigned gic_intids;                    /* GICD_TYPER: INTIDs the distributor has */
static int gic_node = -1;                      /* the GIC's devicetree node (offset in the blob) */
static unsigned console_intid = INTID_SPECIAL; /* none until arch_console_irq */
static void (*console_handler)(void);
static uint64_t timer_period;

static uint32_t rd(uintptr_t base, unsigned reg)
{
    return arch_mmio_read32(base + reg);
}
static void wr(uintptr_t base, unsigned reg, uint32_t v)
{
    arch_mmio_write32(base + reg, v);
}

static __noreturn void no_gic_panic(void)
{
    struct trapframe tf;
    arch_capture_regs(&tf);
    panic_trap(&tf, "arm64: no GICv2 in the devicetree (GICv3 is not supported)");
}

/* The virtual timer's INTID from /timer (cells: type (1 = PPI), number, flags). */
static void find_timer(const struct fdt *f)
{
    uint32_t len;
    int node = fdt_find_compatible(f, -1, "arm,armv8-timer");
    const uint8_t *irqs = node >= 0 ? fdt_prop(f, node, "interrupts", &len) : NULL;
    if (irqs && len >= 3 * 12 && fdt_be32(irqs + 24) == 1)
        timer_intid = PPI_BASE + fdt_be32(irqs + 28);
}

/* Boot CPU, from arch_init: find and reset the distributor. */
void arm64_gic_init(const struct fdt *f)
{
    static const char *const compatible[] = {"arm,cortex-a15-gic", "arm,gic-400",
                                             "arm,cortex-a9-gic", "arm,cortex-a7-gic"};
    uint64_t dist, cpu, size;
    int node = -1;
    for (unsigned i = 0; i < sizeof(compatible) / sizeof(compatible[0]) && node < 0; i++)
        node = fdt_find_compatible(f, -1, compatible[i]);
    if (node < 0 || fdt_reg(f, node, 0, &dist, &size) || fdt_reg(f, node, 1, &cpu, &size))
        return; /* arch_timer_start reports it */
    find_timer(f);
    gic_node = node;
    gicd = (uintptr_t)ioremap(dist, 0x1000);
    gicc = (uintptr_t)ioremap(cpu, 0x1000);
    /* Whatever the firmware left: every SPI disabled, not pending, not active. */
    wr(gicd, GICD_CTLR, 0);
    unsigned words = (rd(gicd, GICD_TYPER) & 0x1f) + 1;
    gic_intids = 32 * words;
    for (unsigned i = 1; i < words; i++) {
        wr(gicd, GICD_ICENABLER(i), ~0u);
        wr(gicd, GICD_ICPENDR(i), ~0u);
        wr(gicd, GICD_ICACTIVER(i), ~0u);
    }
    wr(gicd, GICD_CTLR, GIC_CTLR_ENABLE);
    kprintf("arm64: GICv2 distributor %#lx, CPU interface %#lx, %u INTIDs; timer INTID %u\n",
            (unsigned long)dist, (unsigned long)cpu, 32 * words, timer_intid);
}

/* This CPU's banked part: SGIs and PPIs (register 0 of each set), the CPU interface. */
static void gic_cpu_init(void)
{
    if (!gicd)
        no_gic_panic();
    uint32_t mine = arch_mmio_read8(gicd + GICD_ITARGETSR);
    this_cpu()->arch.gic_mask = mine ? mine : 1; /* RAZ on a uniprocessor GIC */
    wr(gicd, GICD_ICENABLER(0), ~0u);
    wr(gicd, GICD_ICACTIVER(0), ~0u);
    arch_mmio_write8(gicd + GICD_IPRIORITYR + SGI_RESCHEDULE, GIC_PRIO);
    arch_mmio_write8(gicd + GICD_IPRIORITYR + SGI_STOP, GIC_PRIO);
    arch_mmio_write8(gicd + GICD_IPRIORITYR + timer_intid, GIC_PRIO);
    wr(gicd, GICD_ISENABLER(0), 1u << SGI_RESCHEDULE | 1u << SGI_STOP | 1u << timer_intid);
    wr(gicc, GICC_PMR, GIC_PMR_ALL);
    wr(gicc, GICC_CTLR, GIC_CTLR_ENABLE);
}

/* TVAL is a down-counter: writing it sets the compare value to now + period,
 * which also clears the (level) timer condition. */
static void timer_rearm(void)
{
    WRITE_SYSREG(cntv_tval_el0, timer_period);
    __asm__ volatile("isb" : : : "memory");
}

void arch_timer_start(unsigned hz)
{
    gic_cpu_init();
    timer_period = arch_counter_hz() / hz;
    timer_rearm();
    WRITE_SYSREG(cntv_ctl_el0, CNTV_CTL_ENABLE);
    __asm__ volatile("isb" : : : "memory");
}

/*
 * Only other CPUs are ever targeted; the store ordering the sender needs
 * (need_resched and the run queue before the SGI) is arch_mmio_write32's
 * DMB. The target's CPU-interface bit: each CPU stores its own in
 * gic_cpu_init before it goes online (the MMIO writes there order the two
 * stores); the caller has seen it online, so read the bit only after that
 * (the acquire fence, a DMB ISHLD). A 0 (a CPU not set up, which the
 * scheduler never targets) sends nothing rather than an SGI to no CPU.
 */
void arch_send_ipi(unsigned cpu, int kind)
{
    unsigned sgi = kind == IPI_STOP ? SGI_STOP : SGI_RESCHEDULE;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    uint32_t target = READ_ONCE(cpus[cpu].arch.gic_mask);
    if (target)
        wr(gicd, GICD_SGIR, target << 16 | sgi);
}

/* The node's interrupt parent (DT spec 2.4.1): its own or the nearest
 * ancestor's interrupt-parent phandle. */
static int interrupt_parent(const struct fdt *f, int node)
{
    uint32_t phandle;
    for (; node >= 0; node = fdt_parent(f, node))
        if (fdt_prop_u32(f, node, "interrupt-parent", &phandle))
            return fdt_node_by_phandle(f, phandle);
    return FDT_ERR_NOTFOUND;
}

/*
 * The boot console (/chosen/stdout-path) UART's interrupt. Its first
 * interrupt specifier, in the GIC's #interrupt-cells = 3 format: <type
 * number flags>, type 0 = SPI (INTID number + 32) or 1 = PPI (number + 16),
 * flags [3:0] the trigger: bits 0-1 = an edge, bits 2-3 = a level (QEMU's
 * PL011: <0 1 4>, SPI 1 = INTID 33, level high). Program it in the
 * distributor (IHI 0048B 4.3): disabled while it changes, GICD_ICFGR
 * edge/level, GICD_IPRIORITYR, GICD_ITARGETSR this CPU's interface bit
 * (read-only for a PPI, which is banked: this CPU's anyway), GICD_ISENABLER.
 */
bool arch_console_irq(void (*handler)(void))
{
    const struct fdt *f = boot_fdt();
    uint32_t len, cells;
    const char *path = f ? fdt_prop(f, fdt_path(f, "/chosen"), "stdout-path", &len) : NULL;
    int uart = path ? fdt_path(f, path) : FDT_ERR_NOTFOUND;
    const uint8_t *irq = uart >= 0 ? fdt_prop(f, uart, "interrupts", &len) : NULL;
    if (!irq || !gicd || gic_node < 0 || interrupt_parent(f, uart) != gic_node ||
        !fdt_prop_u32(f, gic_node, "#interrupt-cells", &cells) || cells != 3 || len < 12)
        return false;
    uint32_t type = fdt_be32(irq), number = fdt_be32(irq + 4), flags = fdt_be32(irq + 8);
    unsigned id = type == 0 && number < 988  ? 32 + number
                  : type == 1 && number < 16 ? PPI_BASE + number
                                             : INTID_SPECIAL;
    if (id >= INTID_SPECIAL || id >= gic_intids || id == timer_intid)
        return false;
    unsigned long irqs = arch_irq_save(); /* stay on this CPU; no IRQ while half set up */
    uint32_t bit = 1u << (id % 32), cfg_shift = 2 * (id % 16) + 1;
    wr(gicd, GICD_ICENABLER(id / 32), bit);
    uint32_t cfg = rd(gicd, GICD_ICFGR(id / 16)) & ~(1u << cfg_shift);
    wr(gicd, GICD_ICFGR(id / 16), cfg | (flags & 0x3 ? 1u : 0u) << cfg_shift);
    arch_mmio_write8(gicd + GICD_IPRIORITYR + id, GIC_PRIO);
    arch_mmio_write8(gicd + GICD_ITARGETSR + id, (uint8_t)this_cpu()->arch.gic_mask);
    console_handler = handler;
    console_intid = id;
    wr(gicd, GICD_ISENABLER(id / 32), bit);
    arch_irq_restore(irqs);
    kprintf("arm64: console interrupt: %s INTID %u, %s-triggered\n", type ? "PPI" : "SPI", id,
            flags & 0x3 ? "edge" : "level");
    return true;
}

/* An IRQ exception, IRQs masked: acknowledge, handle, end. */
void arm64_irq(struct trapframe *tf)
{
    uint32_t iar = rd(gicc, GICC_IAR);
    unsigned id = iar & 0x3ff;
    if (id >= INTID_SPECIAL)
        return;
    interrupt_enter();
    if (id == timer_intid) {
        bool fired = READ_SYSREG(cntv_ctl_el0) & CNTV_CTL_ISTATUS;
        if (fired)
            timer_rearm();
        wr(gicc, GICC_EOIR, iar);
        if (fired)
            sched_tick();
    } else if (id == SGI_RESCHEDULE) {
        wr(gicc, GICC_EOIR, iar); /* the sender set need_resched; the return path looks */
    } else if (id == SGI_STOP) {
        wr(gicc, GICC_EOIR, iar);
        arch_halt();
    } else if (id == console_intid) {
        console_handler(); /* drains the UART: its level drops before the EOI */
        wr(gicc, GICC_EOIR, iar);
    } else {
        wr(gicc, GICC_EOIR, iar);
        panic_trap(tf, "unexpected interrupt, INTID %u", id);
    }
}
