/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/gicv3.c - the GICv3 interrupt controller's registers.
 *
 * GICv3 (Arm IHI 0069, "Arm Generic Interrupt Controller Architecture
 * Specification, GIC architecture version 3 and version 4"), three parts:
 *  - the distributor (GICD_*, one per system) holds the SPIs.
 *    With affinity routing on (GICD_CTLR.ARE_NS) an SPI goes to the CPU
 *    whose MPIDR affinity is in its GICD_IROUTER<n>, not to a CPU bit.
 *  - one redistributor per CPU (GICR_*) holds that CPU's SGIs
 *    and PPIs: two 64 KiB frames, RD_base (control) then SGI_base (the
 *    SGI/PPI registers, at the distributor's offsets), four on a GICv4
 *    with virtual LPIs. They sit one after another in redistributor
 *    regions; GICR_TYPER names each frame's CPU by affinity, and its Last
 *    bit ends a region.
 *  - the CPU interface, system registers ICC_*_EL1: priority mask,
 *    acknowledge (ICC_IAR1_EL1), end of interrupt (ICC_EOIR1_EL1) and SGI
 *    generation (ICC_SGI1R_EL1, targets by affinity: any MPIDR).
 * All our interrupts are Group 1 (the IRQ exception; Group 0 is FIQ).
 *
 * Devicetree (binding arm,gic-v3): reg[0] is the distributor, then
 * #redistributor-regions (default 1) redistributor regions; an optional
 * redistributor-stride overrides the frames' size. QEMU 7.2's virt,
 * gic-version=3 has one region at 0x80a0000 for up to 123 CPUs.
 * Register names and fields below are the spec's register descriptions
 * (its "Programmers' model" chapter), cited by register name.
 */
#include "arm64.h"
#include "kernel/arch_callbacks.h"
#include "lib/fdt.h"

/* Distributor and SGI_base registers with the same layout (n = 0 in SGI_base). */
#define GIC_IGROUPR(n)   (0x080 + 4 * (n)) /* 1 = Group 1 */
#define GIC_ISENABLER(n) (0x100 + 4 * (n))
#define GIC_ICENABLER(n) (0x180 + 4 * (n))
#define GIC_ICPENDR(n)   (0x280 + 4 * (n))
#define GIC_ICACTIVER(n) (0x380 + 4 * (n))
#define GIC_IPRIORITYR   0x400             /* one byte per INTID */
#define GIC_ICFGR(n)     (0xc00 + 4 * (n)) /* upper bit of 2 per INTID: 1 = edge */

#define GICD_CTLR        0x0000
#define GICD_CTLR_GRP1   (1u << 1)          /* EnableGrp1 (one Security state), EnableGrp1NS/A */
#define GICD_CTLR_ARE_NS (1u << 4)          /* affinity routing (ARE with one Security state) */
#define GICD_CTLR_RWP    (1u << 31)         /* a CTLR or ICENABLER write is still taking effect */
#define GICD_TYPER       0x0004             /* ITLinesNumber [4:0]: 32 * (N + 1) INTIDs */
#define GICD_TYPER_RSS   (1u << 26)         /* SGIs can target Aff0 16-255 (ICC_SGI1R_EL1.RS) */
#define GICD_IROUTER(n)  (0x6000 + 8 * (n)) /* 64-bit, MPIDR affinity layout, IRM [31] = 0 */
#define GICD_SIZE        0x10000

#define GICR_CTLR                  0x0000
#define GICR_CTLR_RWP              (1u << 3) /* a GICR_ICENABLER0 write is still taking effect */
#define GICR_TYPER                 0x0008    /* 64-bit: affinity [63:32], Last [4], VLPIS [1] */
#define GICR_TYPER_VLPIS           (1u << 1)
#define GICR_TYPER_LAST            (1u << 4)
#define GICR_WAKER                 0x0014
#define GICR_WAKER_PROCESSOR_SLEEP (1u << 1)
#define GICR_WAKER_CHILDREN_ASLEEP (1u << 2)
#define GICR_SGI_BASE              0x10000 /* the second 64 KiB frame */
#define GICR_FRAMES_V3             0x20000 /* RD_base + SGI_base */
#define GICR_FRAMES_VLPI           0x40000 /* + VLPI_base + a reserved frame (GICv4) */

#define ICC_SRE_SRE        (1u << 0) /* use the system registers, not a memory-mapped GICC */
#define ICC_SRE_DFB        (1u << 1) /* no FIQ bypass */
#define ICC_SRE_DIB        (1u << 2) /* no IRQ bypass */
#define ICC_CTLR_EOIMODE   (1u << 1) /* 0: an EOIR write also deactivates */
#define ICC_CTLR_RSS       (1u << 18)
#define ID_AA64PFR0_GIC(v) (((v) >> 24) & 0xf) /* 0: no GIC system registers */

#define MAX_REGIONS 8
#define RWP_SPINS   1000000 /* register reads before calling the GIC broken */

struct region {
    uint64_t pa, size;
    uintptr_t va;
};

static uintptr_t gicd;
static struct region regions[MAX_REGIONS];
static unsigned nregions;
static uint64_t stride;         /* redistributor-stride from the devicetree; 0: by GICR_TYPER */
static bool sgi_range_selector; /* SGIs can reach Aff0 >= 16 */

static uint32_t rd(uintptr_t base, unsigned reg)
{
    return arch_mmio_read32(base + reg);
}
static void wr(uintptr_t base, unsigned reg, uint32_t v)
{
    arch_mmio_write32(base + reg, v);
}
static uint64_t rd64(uintptr_t addr)
{
    uint64_t v;
    __asm__ volatile("ldr %0, [%1]\n\tdmb oshld" : "=r"(v) : "r"(addr) : "memory");
    return v;
}
static void wr64(uintptr_t addr, uint64_t v)
{
    __asm__ volatile("dmb oshst\n\tstr %0, [%1]" : : "rZ"(v), "r"(addr) : "memory");
}

static void wait_clear(uintptr_t reg, uint32_t bits, const char *what)
{
    for (unsigned i = 0; i < RWP_SPINS; i++)
        if (!(arch_mmio_read32(reg) & bits))
            return;
    arm64_gic_fail(what);
}

static void wait_distributor(void)
{
    wait_clear(gicd + GICD_CTLR, GICD_CTLR_RWP, "gic: GICv3 distributor: GICD_CTLR.RWP stuck");
}

static void wait_redistributor(uintptr_t rd_base)
{
    wait_clear(rd_base + GICR_CTLR, GICR_CTLR_RWP, "gic: GICv3 redistributor: GICR_CTLR.RWP stuck");
}

/* MPIDR layout (Aff3 [39:32], Aff2..Aff0 [23:0]) to GICR_TYPER's
 * Aff3.Aff2.Aff1.Aff0 in 32 bits. */
static uint32_t affinity32(uint64_t mpidr)
{
    return (uint32_t)((mpidr >> 32 & 0xff) << 24 | (mpidr & 0xffffff));
}

static uint64_t frame_size(uint64_t typer)
{
    return stride ? stride : (typer & GICR_TYPER_VLPIS) ? GICR_FRAMES_VLPI : GICR_FRAMES_V3;
}

/*
 * Walk region r frame by frame until GICR_TYPER.Last or the region's end:
 * the RD_base of the frame whose affinity is `affinity`, or 0 (with the
 * frames counted in *frames). `map` (the boot CPU, first) maps the one
 * page of each frame we use, RD_base's and SGI_base's.
 */
static uintptr_t walk_region(struct region *r, bool map, uint32_t affinity, unsigned *frames)
{
    for (uint64_t off = 0; off + GICR_FRAMES_V3 <= r->size;) {
        if (map) {
            ioremap(r->pa + off, 0x1000);
            ioremap(r->pa + off + GICR_SGI_BASE, 0x1000);
        }
        uintptr_t rd_base = r->va + off;
        uint64_t typer = rd64(rd_base + GICR_TYPER);
        ++*frames;
        if ((uint32_t)(typer >> 32) == affinity)
            return rd_base;
        if (typer & GICR_TYPER_LAST)
            break;
        off += frame_size(typer);
    }
    return 0;
}

static uintptr_t find_redistributor(uint64_t mpidr)
{
    unsigned frames = 0;
    for (unsigned i = 0; i < nregions; i++) {
        uintptr_t rd_base = walk_region(&regions[i], false, affinity32(mpidr), &frames);
        if (rd_base)
            return rd_base;
    }
    return 0;
}

/* The devicetree's redistributor regions, reg[1..]; false if one is missing. */
static bool find_regions(const struct fdt *f, int node)
{
    uint32_t count = 1, len;
    fdt_prop_u32(f, node, "#redistributor-regions", &count);
    const uint8_t *p = fdt_prop(f, node, "redistributor-stride", &len);
    stride = p && len == 8 ? fdt_be64(p) : p && len == 4 ? fdt_be32(p) : 0;
    if (count > MAX_REGIONS) {
        kprintf("gic: GICv3: %u redistributor regions, using the first %u\n", count, MAX_REGIONS);
        count = MAX_REGIONS;
    }
    for (nregions = 0; nregions < count; nregions++) {
        struct region *r = &regions[nregions];
        if (fdt_reg_cpu(f, node, 1 + (int)nregions, &r->pa, &r->size, NULL))
            return false;
        r->va = (uintptr_t)ioremap(r->pa, 0x1000);
    }
    return count > 0;
}

/* Map every region's frames; how many there are. */
static unsigned map_redistributors(void)
{
    unsigned frames = 0;
    for (unsigned i = 0; i < nregions; i++)
        walk_region(&regions[i], true, UINT32_MAX, &frames);
    return frames;
}

/*
 * Boot CPU (GICD_CTLR: ARE_NS, EnableGrp1, RWP): with
 * both groups off, affinity routing on (changing ARE needs the groups
 * disabled), every SPI disabled, not pending, not active and Group 1, then
 * Group 1 on. The SPIs are routed when set up (gicv3_irq_setup).
 */
static unsigned gicv3_init(const struct fdt *f, int node)
{
    uint64_t dist, size;
    if (fdt_reg_cpu(f, node, 0, &dist, &size, NULL) || !find_regions(f, node)) {
        kprintf("gic: GICv3 without distributor and redistributor regions in its reg\n");
        return 0;
    }
    gicd = (uintptr_t)ioremap(dist, GICD_SIZE);
    wr(gicd, GICD_CTLR, 0);
    wait_distributor();
    wr(gicd, GICD_CTLR, GICD_CTLR_ARE_NS);
    wait_distributor();
    if (!(rd(gicd, GICD_CTLR) & GICD_CTLR_ARE_NS)) {
        kprintf("gic: GICv3: affinity routing (GICD_CTLR.ARE_NS) cannot be enabled\n");
        return 0;
    }
    uint32_t typer = rd(gicd, GICD_TYPER);
    unsigned words = (typer & 0x1f) + 1;
    for (unsigned i = 1; i < words; i++) {
        wr(gicd, GIC_ICENABLER(i), ~0u);
        wr(gicd, GIC_ICPENDR(i), ~0u);
        wr(gicd, GIC_ICACTIVER(i), ~0u);
        wr(gicd, GIC_IGROUPR(i), ~0u);
    }
    wait_distributor();
    wr(gicd, GICD_CTLR, GICD_CTLR_ARE_NS | GICD_CTLR_GRP1);
    wait_distributor();
    sgi_range_selector = typer & GICD_TYPER_RSS;
    unsigned frames = map_redistributors();
    kprintf("gic: GICv3 distributor %#lx, %u redistributor%s in %u region%s\n", (unsigned long)dist,
            frames, frames == 1 ? "" : "s", nregions, nregions == 1 ? "" : "s");
    return 32 * words;
}

/*
 * The system-register CPU interface (ICC_SRE_EL1.SRE):
 * it stays 0 if a higher EL keeps this CPU on a memory-mapped interface,
 * and writing it traps to EL2 unless ICC_SRE_EL2.Enable is 1. start.S sets
 * ICC_SRE_EL2.SRE and Enable when it leaves EL2 itself; firmware that
 * enters the kernel at EL1 from EL2 must have done the same.
 */
static void enable_system_registers(void)
{
    if (!ID_AA64PFR0_GIC(READ_SYSREG(id_aa64pfr0_el1)))
        arm64_gic_fail("gic: GICv3 in the devicetree, but this CPU has no GIC system registers "
                       "(ID_AA64PFR0_EL1.GIC = 0)");
    WRITE_SYSREG(icc_sre_el1, READ_SYSREG(icc_sre_el1) | ICC_SRE_SRE | ICC_SRE_DFB | ICC_SRE_DIB);
    __asm__ volatile("isb" : : : "memory"); /* an SRE write takes effect after an ISB */
    if (!(READ_SYSREG(icc_sre_el1) & ICC_SRE_SRE))
        arm64_gic_fail("gic: GICv3: ICC_SRE_EL1.SRE stays 0: firmware at EL2/EL3 has not enabled "
                       "the system-register CPU interface (ICC_SRE_EL2.SRE/Enable)");
}

/* GICR_WAKER: clear ProcessorSleep, then wait for ChildrenAsleep
 * to read 0; until then the redistributor forwards nothing to this CPU. */
static void wake_redistributor(uintptr_t rd_base)
{
    wr(rd_base, GICR_WAKER, rd(rd_base, GICR_WAKER) & ~GICR_WAKER_PROCESSOR_SLEEP);
    wait_clear(rd_base + GICR_WAKER, GICR_WAKER_CHILDREN_ASLEEP,
               "gic: GICv3 redistributor does not wake (GICR_WAKER.ChildrenAsleep stays 1)");
}

static __noreturn void no_redistributor(uint64_t mpidr)
{
    char why[96];
    snprintf(why, sizeof(why), "gic: GICv3: no redistributor for this CPU (MPIDR affinity %#llx)",
             (unsigned long long)mpidr);
    arm64_gic_fail(why);
}

/* This CPU: its redistributor found and awake, SGIs and PPIs set up in
 * SGI_base, then the CPU interface: mask, binary point, EOI mode, Group 1. */
static void gicv3_cpu_init(uint32_t private_ids)
{
    enable_system_registers();
    uint64_t mpidr = arch_cpu_hwid();
    uintptr_t rd_base = find_redistributor(mpidr);
    if (!rd_base)
        no_redistributor(mpidr);
    wake_redistributor(rd_base);
    uintptr_t sgi = rd_base + GICR_SGI_BASE;
    wr(sgi, GIC_ICENABLER(0), ~0u);
    wait_redistributor(rd_base);
    wr(sgi, GIC_ICPENDR(0), ~0u);
    wr(sgi, GIC_ICACTIVER(0), ~0u);
    wr(sgi, GIC_IGROUPR(0), ~0u);
    for (unsigned id = 0; id < 32; id++)
        if (private_ids & 1u << id)
            arch_mmio_write8(sgi + GIC_IPRIORITYR + id, ARM64_GIC_PRIO);
    wr(sgi, GIC_ISENABLER(0), private_ids);

    WRITE_SYSREG(icc_pmr_el1, ARM64_GIC_PMR_ALL);
    WRITE_SYSREG(icc_bpr1_el1, 0); /* all priority bits compared: no subpriorities */
    uint64_t ctlr = READ_SYSREG(icc_ctlr_el1);
    WRITE_SYSREG(icc_ctlr_el1, ctlr & ~(uint64_t)ICC_CTLR_EOIMODE);
    WRITE_SYSREG(icc_igrpen1_el1, 1);
    __asm__ volatile("isb" : : : "memory");
    if (this_cpu()->id == 0)
        sgi_range_selector = sgi_range_selector && (ctlr & ICC_CTLR_RSS);
    if ((mpidr & 0xff) >= 16 && !sgi_range_selector)
        kprintf("gic: cpu%u: Aff0 %u needs SGI range selectors, which this GIC lacks: no IPIs "
                "reach it\n",
                this_cpu()->id, (unsigned)(mpidr & 0xff));
    /* Published for senders, who read it only after seeing this CPU online. */
    __atomic_store_n(&this_cpu()->arch.gicr, rd_base, __ATOMIC_RELEASE);
}

/* An SPI or PPI (GICD_ or GICR_ ICENABLER, ICFGR, IPRIORITYR, IGROUPR,
 * IROUTER, ISENABLER): disabled while it changes
 * (waiting for RWP), trigger, priority, Group 1, an SPI routed to this
 * CPU's affinity (IRM = 0: this one CPU), enabled. A PPI lives in this
 * CPU's redistributor, at the same offsets. */
static void gicv3_irq_setup(unsigned id, bool edge)
{
    uintptr_t rd_base = this_cpu()->arch.gicr;
    uintptr_t base = id < 32 ? rd_base + GICR_SGI_BASE : gicd;
    uint32_t bit = 1u << (id % 32), cfg_shift = 2 * (id % 16) + 1;
    wr(base, GIC_ICENABLER(id / 32), bit);
    if (id < 32)
        wait_redistributor(rd_base);
    else
        wait_distributor();
    uint32_t cfg = rd(base, GIC_ICFGR(id / 16)) & ~(1u << cfg_shift);
    wr(base, GIC_ICFGR(id / 16), cfg | (uint32_t)edge << cfg_shift);
    arch_mmio_write8(base + GIC_IPRIORITYR + id, ARM64_GIC_PRIO);
    wr(base, GIC_IGROUPR(id / 32), rd(base, GIC_IGROUPR(id / 32)) | bit);
    if (id >= 32)
        wr64(gicd + GICD_IROUTER(id), arch_cpu_hwid());
    wr(base, GIC_ISENABLER(id / 32), bit);
}

/* IHI 0069 12.9.14, 12.9.9: GICD_ISENABLER<n> / GICD_ICENABLER<n> for an
 * SPI, write-1-to-set / -clear (a disable has taken effect once RWP reads 0). */
static void gicv3_spi_enable(unsigned id, bool on)
{
    wr(gicd, on ? GIC_ISENABLER(id / 32) : GIC_ICENABLER(id / 32), 1u << (id % 32));
    if (!on)
        wait_distributor();
}

/*
 * ICC_SGI1R_EL1: Aff3 [55:48], RS [47:44], Aff2 [39:32], INTID
 * [27:24], Aff1 [23:16], TargetList [15:0] = the CPUs with Aff0 = RS * 16
 * + bit. The target's redistributor is published in gicv3_cpu_init before
 * it goes online; the caller has seen it online (the acquire fence). A
 * system-register write is not ordered after memory accesses by a DMB:
 * the DSB makes the sender's stores (need_resched, the run queue) visible
 * first, the ISB sends it now.
 */
static void gicv3_send_sgi(const struct cpu *target, unsigned sgi)
{
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (!READ_ONCE(target->arch.gicr))
        return;
    uint64_t mpidr = target->hwid, aff0 = mpidr & 0xff;
    if (aff0 >= 16 && !sgi_range_selector)
        return;
    uint64_t v = (mpidr >> 32 & 0xff) << 48 | (aff0 / 16) << 44 | (mpidr >> 16 & 0xff) << 32 |
                 (uint64_t)sgi << 24 | (mpidr >> 8 & 0xff) << 16 | 1u << (aff0 % 16);
    __asm__ volatile("dsb ish" : : : "memory");
    WRITE_SYSREG(icc_sgi1r_el1, v);
    __asm__ volatile("isb" : : : "memory");
}

static unsigned gicv3_ack(uint32_t *token)
{
    *token = (uint32_t)READ_SYSREG(icc_iar1_el1);
    return *token & 0xffffff;
}

/* The device's MMIO write that lowered a level interrupt (the console) must
 * be done before the EOI, a system-register write: a DSB, not a DMB. */
static void gicv3_eoi(uint32_t token)
{
    __asm__ volatile("dsb sy" : : : "memory");
    WRITE_SYSREG(icc_eoir1_el1, token);
}

const struct arm64_gic_ops arm64_gicv3 = {
    .name = "GICv3",
    .init = gicv3_init,
    .cpu_init = gicv3_cpu_init,
    .irq_setup = gicv3_irq_setup,
    .spi_enable = gicv3_spi_enable,
    .send_sgi = gicv3_send_sgi,
    .ack = gicv3_ack,
    .eoi = gicv3_eoi,
};
