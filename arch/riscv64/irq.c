/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/irq.c - the console UART's interrupt, through whichever
 * controller the devicetree names as its interrupt parent: a PLIC
 * (plic.c; QEMU virt's default, the FU540) or an APLIC (aplic.c; QEMU
 * virt,aia=aplic and virt,aia=aplic-imsic, the RISC-V Advanced Interrupt
 * Architecture), which delivers either directly or by MSIs to the harts'
 * IMSICs (imsic.c). Each is a struct riscv_irqchip (riscv.h).
 *
 * Whatever the controller, the hart sees one supervisor external interrupt
 * (sip.SEIP, scause 9: priv spec 4.1.3, table 4.2), which this kernel
 * enables (sie.SEIE) on the boot hart only, the one the console's source
 * is routed to. IPIs are not the controller's business on any of them:
 * they stay SBI calls, which the firmware delivers as the supervisor
 * software interrupt whatever controller the machine has: the SBI IPI
 * extension's send_ipi makes the target hart take it (scause 1), and the
 * hart acknowledges it by clearing sip.SSIP (priv spec 4.1.3). What was
 * asked travels in the target's cpu->arch.ipi_pending bits, set before the
 * send.
 *
 * The devicetree (Devicetree Specification v0.4, 2.4) says where things
 * are: the UART's "interrupts-extended" = <&controller specifier>, or
 * "interrupts" = <specifier> with the interrupt-parent found on the node or
 * inherited from its nearest ancestor (2.4.1); the specifier has the
 * controller's #interrupt-cells words.
 */
#include "kernel/arch_callbacks.h"
#include "riscv.h"
#include "sbi.h"

static const struct riscv_irqchip *chip; /* the console's controller; NULL: not routed */
static void (*console_handler)(void);
static struct cpu *irq_cpu; /* the hart the console's source is routed to */

static const struct riscv_irqchip *chip_for(const struct fdt *f, int node)
{
    if (fdt_is_compatible(f, node, "riscv,plic0") ||
        fdt_is_compatible(f, node, "sifive,plic-1.0.0"))
        return &riscv_plic;
    if (fdt_is_compatible(f, node, "riscv,aplic"))
        return &riscv_aplic;
    uint32_t len;
    const char *compat = fdt_prop(f, node, "compatible", &len);
    kprintf("irq: the console's interrupt controller '%s' is '%s': not a PLIC or an APLIC\n",
            fdt_node_name(f, node), compat ? compat : "?");
    return NULL;
}

/* The console's interrupt controller node and its specifier, or -1. */
static int console_irq(const struct fdt *f, const uint8_t **spec, uint32_t *cells)
{
    uint32_t len;
    int where, ctl, uart = fdt_stdout_node(f, &where);
    if (uart < 0)
        return -1;
    const uint8_t *p = fdt_prop(f, uart, "interrupts-extended", &len);
    if (p && len >= 4) {
        ctl = fdt_node_by_phandle(f, fdt_be32(p));
        p += 4, len -= 4; /* the first interrupt only */
    } else {
        ctl = fdt_interrupt_parent(f, uart);
        p = fdt_prop(f, uart, "interrupts", &len);
    }
    if (ctl < 0 || !p || !fdt_prop_u32(f, ctl, "#interrupt-cells", cells) || *cells < 1 ||
        *cells > 4 || 4 * *cells > len)
        return -1;
    *spec = p;
    return ctl;
}

int riscv_s_external_index(const struct fdt *f, int node, uint32_t hart)
{
    uint32_t len;
    const uint8_t *p = fdt_prop(f, node, "interrupts-extended", &len);
    int cpu = riscv_cpu_node(f, hart);
    if (!p || cpu < 0)
        return -1;
    for (uint32_t off = 0, i = 0; off + 4 <= len; i++) {
        int intc = fdt_node_by_phandle(f, fdt_be32(p + off));
        uint32_t cells = 1; /* the hart-local controllers say 1 */
        if (intc >= 0)
            fdt_prop_u32(f, intc, "#interrupt-cells", &cells);
        if (cells < 1 || cells > 4 || off + 4 + 4 * cells > len)
            return -1;
        if (intc >= 0 && fdt_parent(f, intc) == cpu && fdt_be32(p + off + 4) == IRQ_S_EXTERNAL)
            return (int)i;
        off += 4 + 4 * cells;
    }
    return -1;
}

bool arch_console_irq(void (*handler)(void))
{
    const struct fdt *f = boot_fdt();
    const uint8_t *spec = NULL;
    uint32_t cells = 0;
    int node = f ? console_irq(f, &spec, &cells) : -1;
    const struct riscv_irqchip *c = node >= 0 ? chip_for(f, node) : NULL;
    if (!c)
        return false;
    /* IRQs off: the controller's per-hart state and sie belong to one hart. */
    unsigned long flags = arch_irq_save();
    bool routed = c->route(f, node, spec, cells, (uint32_t)this_cpu()->hwid);
    if (routed) {
        console_handler = handler;
        irq_cpu = this_cpu();
        chip = c;
        csr_set(sie, SIE_SEIE);
    }
    arch_irq_restore(flags);
    return routed;
}

bool arch_console_irq_maskable(void)
{
    return chip != NULL;
}

bool arch_console_irq_mask(bool masked)
{
    if (!chip)
        return false;
    chip->mask(masked);
    return true;
}

/* Supervisor external interrupt (scause 9), IRQs off, any hart. Only the
 * boot hart has sie.SEIE set and the console routed to it; anywhere else
 * it is switched off. */
void riscv_external_interrupt(void)
{
    if (!chip || this_cpu() != irq_cpu) {
        csr_clear(sie, SIE_SEIE);
        return;
    }
    chip->interrupt(console_handler);
}

void arch_send_ipi(unsigned cpu, int kind)
{
    __atomic_fetch_or(&cpus[cpu].arch.ipi_pending, 1u << kind, __ATOMIC_SEQ_CST);
    sbi_send_ipi(1, cpus[cpu].hwid);
}

/* Software interrupt, IRQs off. IPI_RESCHEDULE needs nothing more: the
 * sender set need_resched, which the trap's way out looks at. */
void riscv_ipi_interrupt(void)
{
    csr_clear(sip, SIE_SSIE);
    uint32_t pending = __atomic_exchange_n(&this_cpu()->arch.ipi_pending, 0, __ATOMIC_SEQ_CST);
    if (pending & (1u << IPI_STOP))
        arch_halt();
}
