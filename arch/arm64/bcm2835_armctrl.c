/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/bcm2835_armctrl.c - the BCM2835 "ARM control" interrupt
 * controller (devicetree "brcm,bcm2835-armctrl-ic", on the BCM2836/7 also
 * "brcm,bcm2836-armctrl-ic"): the GPU peripherals' interrupts (the UARTs,
 * the RNG, ...) as the ARM sees them. On a BCM2836/7 its one output is the
 * "GPU interrupt" input of the per-core local controller (bcm2836_local.c,
 * which routes it to one core); this file only enables, disables and reads
 * the pending bits.
 *
 * Registers: BCM2835 ARM Peripherals, 7.5 "Registers" (base 0x7E00B000;
 * the devicetree's reg starts at offset 0x200, the IRQ basic pending
 * register): basic pending +0x00, pending 1 (GPU IRQs 0-31) +0x04, pending
 * 2 (GPU IRQs 32-63) +0x08, FIQ control +0x0c, enable 1/2/basic +0x10,
 * +0x14, +0x18, disable 1/2/basic +0x1c, +0x20, +0x24. Writing a 1 to an
 * enable (disable) bit enables (disables) that source; 0 bits change
 * nothing. The sources are level-sensitive: a pending bit stays set until
 * the peripheral's own condition is cleared.
 *
 * The devicetree's #interrupt-cells = 2: <bank number>, bank 0 the basic
 * register's ARM sources, bank 1 GPU IRQs 0-31, bank 2 GPU IRQs 32-63
 * (DT binding brcm,bcm2835-armctrl-ic). The mini UART is <1 29> (the AUX
 * interrupt, GPU IRQ 29), the PL011 <2 25> (GPU IRQ 57).
 */
#include "arm64.h"
#include "kernel/arch_callbacks.h"
#include "lib/fdt.h"

#define PENDING(bank) (0x00 + 4 * (bank)) /* basic, 1, 2 */
#define ENABLE(bank)  ((bank) == 0 ? 0x18 : 0x0c + 4 * (bank))
#define DISABLE(bank) ((bank) == 0 ? 0x24 : 0x18 + 4 * (bank))

static uintptr_t base;
static uint32_t enabled[3]; /* what this kernel enabled, per bank */

bool arm64_armctrl_init(const struct fdt *f, int node)
{
    uint64_t pa, size;
    if (fdt_reg_cpu(f, node, 0, &pa, &size, NULL)) {
        kprintf("armctrl: no usable reg\n");
        return false;
    }
    base = (uintptr_t)ioremap(pa, 0x1000);
    for (unsigned bank = 0; bank < 3; bank++)
        arch_mmio_write32(base + DISABLE(bank), ~0u);
    arch_mmio_write32(base + 0x0c, 0); /* FIQ control: no FIQ source */
    kprintf("armctrl: BCM2835 interrupt controller @ %#lx\n", (unsigned long)pa);
    return true;
}

void arm64_armctrl_enable(unsigned bank, unsigned irq, bool on)
{
    if (bank >= 3 || irq >= 32)
        return;
    if (on)
        __atomic_fetch_or(&enabled[bank], 1u << irq, __ATOMIC_RELAXED);
    else
        __atomic_fetch_and(&enabled[bank], ~(1u << irq), __ATOMIC_RELAXED);
    arch_mmio_write32(base + (on ? ENABLE(bank) : DISABLE(bank)), 1u << irq);
}

/* The lowest pending source this kernel enabled, as bank * 32 + number; -1 if none. */
int arm64_armctrl_pending(void)
{
    for (unsigned bank = 0; bank < 3; bank++) {
        uint32_t p = arch_mmio_read32(base + PENDING(bank)) &
                     __atomic_load_n(&enabled[bank], __ATOMIC_RELAXED);
        if (bank == 0)
            p &= 0xff; /* bits 8-9 summarise banks 1 and 2, the rest repeat GPU IRQs */
        if (p)
            return (int)(bank * 32 + (unsigned)__builtin_ctz(p));
    }
    return -1;
}
