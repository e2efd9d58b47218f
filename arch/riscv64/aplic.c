/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/aplic.c - the Advanced PLIC, just enough to take the boot
 * console UART's interrupt on the boot hart (RISC-V Advanced Interrupt
 * Architecture 1.0, chapter "Advanced Platform-Level Interrupt Controller
 * (APLIC)"; one struct riscv_irqchip, found by irq.c).
 *
 * An APLIC is a tree of interrupt domains, each with its own 16 KiB (plus
 * IDCs) control region: the root, at machine level, belongs to the M-mode
 * firmware, which delegates sources to a supervisor-level child (sourcecfg
 * D = 1 at the parent, "Source configurations"). On QEMU virt,aia=... the
 * root is at 0xc000000 ("riscv,delegate" = <&child 1 96>: OpenSBI 1.1
 * delegates all 96 sources to the child); the S-level domain at 0xd000000
 * is this kernel's, and the UART's interrupt parent. The kernel configures
 * only the console's source in it and makes every other source inactive:
 *   sourcecfg[s]: its source mode from the devicetree's trigger type
 *     (second specifier cell: 1 rising edge, 2 falling, 4 high level,
 *     8 low level: Edge1, Edge0, Level1, Level0);
 *   target[s]: the hart index, and the priority (direct) or the MSI's
 *     identity (MSI delivery);
 *   setienum/clrienum = s: enable or disable it (the mask);
 *   domaincfg: IE, and DM = 1 for MSI delivery.
 *
 * Direct delivery (no "msi-parent"; QEMU virt,aia=aplic): the domain
 * drives each hart's S-level external interrupt through the hart's
 * interrupt delivery control structure (IDC, at 0x4000 + 32 x hart index;
 * the index is the hart's position in the domain's "interrupts-extended").
 * idelivery = 1 and ithreshold = 0 let every enabled source through; the
 * handler reads claimi, which returns the top source ("Interrupt delivery
 * control (IDC) structure"). A level source's pending bit is its input.
 *
 * MSI delivery ("msi-parent" = the S-level IMSIC; QEMU
 * virt,aia=aplic-imsic): a pending and enabled source is sent as an MSI
 * writing identity EIID to the target hart's S-level interrupt file
 * (imsic.c), and its pending bit is cleared. The message's address comes
 * from the root domain's smsiaddrcfg, which the firmware set; the S-level
 * domain only names the hart index. A level source that stays high after
 * its MSI sends no other ("Precise effects on interrupt-pending bits"), so
 * after the console's handler (unless it masked the source) and on an
 * unmask, the kernel writes setipnum = s if in_clrip says the input is
 * still high: the pending bit is set again only then ("Special
 * consideration for level-sensitive interrupt sources"). The identity is
 * the source number.
 */
#include "kernel/arch_callbacks.h"
#include "riscv.h"

#define APLIC_DOMAINCFG    0x0000
#define DOMAINCFG_IE       (1u << 8)
#define DOMAINCFG_DM       (1u << 2) /* MSI delivery */
#define APLIC_SOURCECFG(s) (4u * (s))
#define SM_INACTIVE        0
#define SM_EDGE1           4
#define SM_EDGE0           5
#define SM_LEVEL1          6
#define SM_LEVEL0          7
#define APLIC_SETIPNUM     0x1cdc
#define APLIC_IN_CLRIP(s)  (0x1d00u + 4 * ((s) / 32)) /* read: rectified inputs */
#define APLIC_SETIENUM     0x1edc
#define APLIC_CLRIENUM     0x1fdc
#define APLIC_TARGET(s)    (0x3000u + 4u * (s))
#define TARGET_HART_SHIFT  18
#define APLIC_IDC(i)       (0x4000u + 32u * (i))
#define IDC_IDELIVERY      0x00
#define IDC_IFORCE         0x04
#define IDC_ITHRESHOLD     0x08
#define IDC_CLAIMI         0x1c
#define APLIC_MAX_SOURCE   1023

static uintptr_t regs; /* the domain's control region (first 16 KiB) */
static uintptr_t idc;  /* direct delivery: the boot hart's IDC; 0 for MSI delivery */
static uint32_t console_source, source_mode, num_sources;
static bool masked; /* by aplic_mask (any CPU): the unmask looks at the input again */

/* The devicetree's trigger type (the interrupt binding's 1, 2, 4, 8) as a source mode. */
static uint32_t mode_of(uint32_t type)
{
    switch (type & 0xf) {
    case 1: return SM_EDGE1;
    case 2: return SM_EDGE0;
    case 8: return SM_LEVEL0;
    default: return SM_LEVEL1; /* 4, or none given */
    }
}

static void aplic_write(uint32_t reg, uint32_t v)
{
    arch_mmio_write32(regs + reg, v);
}

/* Direct delivery: the boot hart's IDC lets every enabled source through.
 * Returns the target register's value (hart index, priority 1), or 0. */
static uint32_t direct_target(const struct fdt *f, int node, uint64_t base, uint64_t size,
                              uint32_t hart)
{
    int index = riscv_s_external_index(f, node, hart);
    if (index < 0 || APLIC_IDC(index) + 32 > size) {
        kprintf("aplic: no IDC for hart %u's S mode in the devicetree's interrupts-extended\n",
                hart);
        return 0;
    }
    idc = (uintptr_t)ioremap(base + APLIC_IDC(index), 32);
    arch_mmio_write32(idc + IDC_IFORCE, 0);
    arch_mmio_write32(idc + IDC_ITHRESHOLD, 0);
    arch_mmio_write32(idc + IDC_IDELIVERY, 1);
    kprintf("aplic: @ %#llx, direct delivery: console source %u to hart %u (IDC %d)\n",
            (unsigned long long)base, console_source, hart, index);
    return (uint32_t)index << TARGET_HART_SHIFT | 1;
}

/* MSI delivery to the boot hart's S-level IMSIC file, identity = source.
 * Returns the target register's value (hart index, EIID), or 0. */
static uint32_t msi_target(const struct fdt *f, uint32_t imsic, uint64_t base, uint32_t hart)
{
    int index = riscv_imsic_init(f, fdt_node_by_phandle(f, imsic), hart, console_source);
    if (index < 0)
        return 0;
    kprintf("aplic: @ %#llx, MSI delivery: console source %u to hart %u (index %d)\n",
            (unsigned long long)base, console_source, hart, index);
    return (uint32_t)index << TARGET_HART_SHIFT | console_source;
}

static bool aplic_route(const struct fdt *f, int node, const uint8_t *spec, uint32_t cells,
                        uint32_t hart)
{
    uint32_t imsic = 0;
    uint64_t base, size;
    console_source = fdt_be32(spec);
    source_mode = mode_of(cells >= 2 ? fdt_be32(spec + 4) : 0);
    if (fdt_reg_cpu(f, node, 0, &base, &size, NULL) != 0 || size < APLIC_IDC(0) ||
        !fdt_prop_u32(f, node, "riscv,num-sources", &num_sources) ||
        num_sources > APLIC_MAX_SOURCE || console_source == 0 || console_source > num_sources)
        return false;
    bool msi = fdt_prop_u32(f, node, "msi-parent", &imsic);
    uint32_t target =
        msi ? msi_target(f, imsic, base, hart) : direct_target(f, node, base, size, hart);
    if (!target)
        return false;
    regs = (uintptr_t)ioremap(base, APLIC_IDC(0));
    aplic_write(APLIC_DOMAINCFG, msi ? DOMAINCFG_DM : 0); /* IE off while it changes */
    for (uint32_t s = 1; s <= num_sources; s++)
        aplic_write(APLIC_SOURCECFG(s), s == console_source ? source_mode : SM_INACTIVE);
    aplic_write(APLIC_TARGET(console_source), target);
    aplic_write(APLIC_SETIENUM, console_source);
    aplic_write(APLIC_DOMAINCFG, DOMAINCFG_IE | (msi ? DOMAINCFG_DM : 0));
    return true;
}

/* MSI delivery, a level source still asserted: pend it again (sent now if enabled). */
static void retrigger(void)
{
    if (idc || (source_mode != SM_LEVEL1 && source_mode != SM_LEVEL0))
        return;
    if (arch_mmio_read32(regs + APLIC_IN_CLRIP(console_source)) & 1u << console_source % 32)
        aplic_write(APLIC_SETIPNUM, console_source);
}

/* A disabled source stays pending (if its input says so) and is delivered
 * when enabled again ("Set interrupt-enable bit by number"). */
static void aplic_mask(bool mask)
{
    WRITE_ONCE(masked, mask);
    aplic_write(mask ? APLIC_CLRIENUM : APLIC_SETIENUM, console_source);
    if (!mask)
        retrigger();
}

static void aplic_interrupt(void (*console)(void))
{
    if (idc) {
        uint32_t id = (arch_mmio_read32(idc + IDC_CLAIMI) >> 16) & 0x3ff;
        if (id == console_source)
            console();
        else if (id != 0) /* not enabled by this kernel: never again */
            aplic_write(APLIC_CLRIENUM, id);
        return;
    }
    uint32_t id = riscv_imsic_claim();
    if (id == console_source) {
        console();
        if (!READ_ONCE(masked)) /* else when unmasked: the driver may have served it by then */
            retrigger();
    } else if (id != 0) {
        riscv_imsic_disable(id);
    }
}

const struct riscv_irqchip riscv_aplic = {
    .route = aplic_route,
    .mask = aplic_mask,
    .interrupt = aplic_interrupt,
};
