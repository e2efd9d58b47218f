/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/plic.c - the platform-level interrupt controller, just enough
 * to take the boot console UART's interrupt on the boot hart (one struct
 * riscv_irqchip: irq.c finds it as the UART's interrupt parent).
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
 * are: the UART's interrupt specifier is the source (one cell); the PLIC's
 * "reg", "riscv,ndev" (the highest source number) and
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

static uintptr_t ctx_regs;    /* the boot hart's S-mode context block */
static uintptr_t enable_regs; /* that context's enable bits */
static uint32_t console_source, ndev_max;

static bool plic_route(const struct fdt *f, int plic, const uint8_t *spec, uint32_t cells,
                       uint32_t hart)
{
    uint32_t src = fdt_be32(spec), ndev = 0;
    uint64_t base, size;
    (void)cells; /* one: the source */
    if (fdt_reg_cpu(f, plic, 0, &base, &size, NULL) != 0 ||
        !fdt_prop_u32(f, plic, "riscv,ndev", &ndev) || ndev > PLIC_MAX_SOURCE || src == 0 ||
        src > ndev)
        return false;
    int ctx = riscv_s_external_index(f, plic, hart);
    if (ctx < 0 || PLIC_CONTEXT(ctx) + 8 > size)
        return false;
    uintptr_t prio = (uintptr_t)ioremap(base + PLIC_PRIORITY(src), 4);
    enable_regs = (uintptr_t)ioremap(base + PLIC_ENABLE(ctx), 4 * (ndev / 32 + 1));
    arch_mmio_write32(prio, 1);
    /* Only the console's source in this context. Other contexts are left
     * alone: their harts never set sie.SEIE. */
    for (uint32_t w = 0; w <= ndev / 32; w++)
        arch_mmio_write32(enable_regs + 4 * w, w == src / 32 ? 1u << src % 32 : 0);
    console_source = src;
    ndev_max = ndev;
    ctx_regs = (uintptr_t)ioremap(base + PLIC_CONTEXT(ctx), 8);
    arch_mmio_write32(ctx_regs + PLIC_THRESHOLD, 0); /* any priority > 0 gets through */
    kprintf("plic: @ %#llx, console source %u to hart %u S-mode context %d\n",
            (unsigned long long)base, src, hart, ctx);
    return true;
}

/* PLIC spec, "Interrupt Enables": a source whose enable bit is 0 in a
 * context is not presented to it; its gateway still latches a request as
 * pending, so an unmask presents it then. */
static void plic_mask(bool masked)
{
    uintptr_t word = enable_regs + 4 * (console_source / 32);
    uint32_t bit = 1u << console_source % 32, v = arch_mmio_read32(word);
    arch_mmio_write32(word, masked ? v & ~bit : v | bit);
}

/* A source other than the console's (none is enabled) is disabled in this
 * context and completed, so it cannot come back. */
static void plic_interrupt(void (*console)(void))
{
    uint32_t id = arch_mmio_read32(ctx_regs + PLIC_CLAIM);
    if (id == 0)
        return; /* nothing pending any more: no completion is owed */
    if (id == console_source)
        console();
    else if (id <= ndev_max)
        arch_mmio_write32(enable_regs + 4 * (id / 32),
                          arch_mmio_read32(enable_regs + 4 * (id / 32)) & ~(1u << id % 32));
    arch_mmio_write32(ctx_regs + PLIC_CLAIM, id);
}

const struct riscv_irqchip riscv_plic = {
    .route = plic_route,
    .mask = plic_mask,
    .interrupt = plic_interrupt,
};
