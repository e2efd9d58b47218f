/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/plic.c - the platform-level interrupt controller, just enough
 * to take the boot console UART's interrupt on the boot hart.
 *
 * The PLIC (RISC-V PLIC Specification 1.0.0) collects device interrupts,
 * "sources" 1..1023, and presents them to "contexts", each one hart in one
 * privilege mode. A context is offered source s when s is pending, enabled
 * for that context ("Interrupt Enables") and s's priority is greater than
 * the context's threshold ("Interrupt Priorities", "Priority Thresholds";
 * priority 0 never interrupts). For an S-mode context the hart then sees
 * sip.SEIP and, with sie.SEIE set, takes scause 9 (priv spec 4.1.3, table
 * 4.2). The handler reads claim/complete, which returns the best pending
 * source and clears its pending bit, or 0 if there is none ("Interrupt
 * Claim Process"), serves the device, and writes the id back ("Interrupt
 * Completion"); until then the source's gateway forwards no new request.
 * Register layout: the spec's "Memory Map" chapter (PLIC_* below).
 *
 * The devicetree (Devicetree Specification v0.4, 2.4) says where things
 * are: the UART's interrupt-parent is the PLIC and its "interrupts" the
 * source; the PLIC's "reg", "riscv,ndev" (the highest source number) and
 * "interrupts-extended", whose i-th entry describes context i: a phandle to
 * a hart's interrupt-controller node (a child of its cpu node, whose "reg"
 * is the hart id) and the hart-local interrupt the context raises there
 * (the scause code: 9 = S-mode external, 11 = M-mode external).
 */
#include "kernel/arch_callbacks.h"
#include "riscv.h"

#define PLIC_PRIORITY(src) (4u * (src))              /* one word per source */
#define PLIC_ENABLE(ctx)   (0x2000u + 0x80u * (ctx)) /* one bit per source */
#define PLIC_CONTEXT(ctx)  (0x200000u + 0x1000u * (ctx))
#define PLIC_THRESHOLD     0 /* in a context's block */
#define PLIC_CLAIM         4 /* read: claim; write: complete */
#define PLIC_MAX_SOURCE    1023

static uintptr_t ctx_regs;    /* the boot hart's S-mode context block; 0: not set up */
static uintptr_t enable_regs; /* that context's enable bits */
static uint32_t console_source, ndev_max;
static void (*console_handler)(void);
static struct cpu *plic_cpu; /* the hart that context belongs to */

static bool is_plic(const struct fdt *f, int node)
{
    return node >= 0 && (fdt_is_compatible(f, node, "riscv,plic0") ||
                         fdt_is_compatible(f, node, "sifive,plic-1.0.0"));
}

/* The boot console's PLIC node and source: "interrupts-extended" = <&plic
 * src>, or "interrupts" = <src> with the interrupt-parent found on the node
 * or inherited from its nearest ancestor that has one (2.4.1). */
static int console_plic(const struct fdt *f, uint32_t *src)
{
    uint32_t len, phandle;
    const char *path = fdt_prop(f, fdt_path(f, "/chosen"), "stdout-path", &len);
    int uart = path ? fdt_path(f, path) : FDT_ERR_NOTFOUND;
    if (uart < 0)
        return -1;
    const uint8_t *p = fdt_prop(f, uart, "interrupts-extended", &len);
    if (p && len >= 8) {
        *src = fdt_be32(p + 4);
        int plic = fdt_node_by_phandle(f, fdt_be32(p));
        return is_plic(f, plic) ? plic : -1;
    }
    int n = uart;
    while (n >= 0 && !fdt_prop_u32(f, n, "interrupt-parent", &phandle))
        n = fdt_parent(f, n);
    int plic = n >= 0 ? fdt_node_by_phandle(f, phandle) : -1;
    p = fdt_prop(f, uart, "interrupts", &len);
    if (!p || len < 4 || !is_plic(f, plic))
        return -1;
    *src = fdt_be32(p); /* the PLIC's first (only) cell is the source */
    return plic;
}

/* The PLIC context that raises `hart`'s S-mode external interrupt, or -1. */
static int s_context(const struct fdt *f, int plic, uint32_t hart)
{
    uint32_t len;
    const uint8_t *p = fdt_prop(f, plic, "interrupts-extended", &len);
    int cpu = riscv_cpu_node(f, hart);
    if (!p || cpu < 0)
        return -1;
    for (uint32_t off = 0, ctx = 0; off + 4 <= len; ctx++) {
        int intc = fdt_node_by_phandle(f, fdt_be32(p + off));
        uint32_t cells = 1; /* the hart-local controllers say 1 */
        if (intc >= 0)
            fdt_prop_u32(f, intc, "#interrupt-cells", &cells);
        if (cells < 1 || cells > 4 || off + 4 + 4 * cells > len)
            return -1;
        if (intc >= 0 && fdt_parent(f, intc) == cpu && fdt_be32(p + off + 4) == IRQ_S_EXTERNAL)
            return (int)ctx;
        off += 4 + 4 * cells;
    }
    return -1;
}

bool arch_console_irq(void (*handler)(void))
{
    const struct fdt *f = boot_fdt();
    uint32_t src = 0, ndev = 0;
    uint64_t base, size;
    int plic = f ? console_plic(f, &src) : -1;
    if (plic < 0 || fdt_reg_cpu(f, plic, 0, &base, &size, NULL) != 0 ||
        !fdt_prop_u32(f, plic, "riscv,ndev", &ndev) || ndev > PLIC_MAX_SOURCE || src == 0 ||
        src > ndev)
        return false;
    /* IRQs off: the context found, its registers and sie all belong to one hart. */
    unsigned long flags = arch_irq_save();
    uint32_t hart = (uint32_t)this_cpu()->hwid;
    int ctx = s_context(f, plic, hart);
    if (ctx < 0 || PLIC_CONTEXT(ctx) + 8 > size) {
        arch_irq_restore(flags);
        return false;
    }
    uintptr_t prio = (uintptr_t)ioremap(base + PLIC_PRIORITY(src), 4);
    enable_regs = (uintptr_t)ioremap(base + PLIC_ENABLE(ctx), 4 * (ndev / 32 + 1));
    arch_mmio_write32(prio, 1);
    /* Only the console's source in this context. Other contexts are left
     * alone: their harts never set sie.SEIE. */
    for (uint32_t w = 0; w <= ndev / 32; w++)
        arch_mmio_write32(enable_regs + 4 * w, w == src / 32 ? 1u << src % 32 : 0);
    console_source = src;
    ndev_max = ndev;
    console_handler = handler;
    plic_cpu = this_cpu();
    ctx_regs = (uintptr_t)ioremap(base + PLIC_CONTEXT(ctx), 8);
    arch_mmio_write32(ctx_regs + PLIC_THRESHOLD, 0); /* any priority > 0 gets through */
    csr_set(sie, SIE_SEIE);
    arch_irq_restore(flags);
    kprintf("plic: @ %#llx, console source %u to hart %u S-mode context %d\n",
            (unsigned long long)base, src, hart, ctx);
    return true;
}

/* PLIC spec, "Interrupt Enables": a source whose enable bit is 0 in a
 * context is not presented to it; its gateway still latches a request as
 * pending, so an unmask presents it then. */
bool arch_console_irq_maskable(void)
{
    return ctx_regs != 0;
}

bool arch_console_irq_mask(bool masked)
{
    if (!ctx_regs)
        return false;
    uintptr_t word = enable_regs + 4 * (console_source / 32);
    uint32_t bit = 1u << console_source % 32, v = arch_mmio_read32(word);
    arch_mmio_write32(word, masked ? v & ~bit : v | bit);
    return true;
}

/* Supervisor external interrupt (scause 9), IRQs off, any hart. Only the
 * boot hart has sie.SEIE set and a context to claim from; anywhere else it
 * is switched off. A source other than the console's (none is enabled) is
 * disabled in this context and completed, so it cannot come back. */
void riscv_external_interrupt(void)
{
    if (!ctx_regs || this_cpu() != plic_cpu) {
        csr_clear(sie, SIE_SEIE);
        return;
    }
    uint32_t id = arch_mmio_read32(ctx_regs + PLIC_CLAIM);
    if (id == 0)
        return; /* nothing pending any more: no completion is owed */
    if (id == console_source)
        console_handler();
    else if (id <= ndev_max)
        arch_mmio_write32(enable_regs + 4 * (id / 32),
                          arch_mmio_read32(enable_regs + 4 * (id / 32)) & ~(1u << id % 32));
    arch_mmio_write32(ctx_regs + PLIC_CLAIM, id);
}
