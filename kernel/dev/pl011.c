/* SPDX-License-Identifier: MIT */
/*
 * kernel/dev/pl011.c - Arm PrimeCell UART (PL011), the console of QEMU's
 * arm64 virt machine and the Raspberry Pi. Register offsets from the PL011
 * Technical Reference Manual (DDI 0183), section 3.2: UARTDR 0x000,
 * UARTFR 0x018, UARTCR 0x030. The firmware has set the baud rate.
 */
#include "arch/arch.h"
#include "kernel/dev/uart.h"

#define UARTDR    0x000
#define UARTFR    0x018
#define UARTCR    0x030
#define UARTIMSC  0x038     /* interrupt mask set/clear: 1 = enabled */
#define UARTICR   0x044     /* interrupt clear */
#define INT_RX    (1u << 4) /* receive (FIFO level reached) */
#define INT_RT    (1u << 6) /* receive timeout (bytes waiting, line idle) */
#define FR_RXFE   (1u << 4) /* receive FIFO empty */
#define FR_TXFF   (1u << 5) /* transmit FIFO full */
#define CR_UARTEN (1u << 0)
#define CR_TXE    (1u << 8)
#define CR_RXE    (1u << 9)

static void pl011_init(const struct uart *u)
{
    uint32_t cr = arch_mmio_read32(u->base + UARTCR);
    arch_mmio_write32(u->base + UARTCR, cr | CR_UARTEN | CR_TXE | CR_RXE);
}

static int pl011_getc(const struct uart *u)
{
    if (arch_mmio_read32(u->base + UARTFR) & FR_RXFE)
        return -1;
    return (int)(arch_mmio_read32(u->base + UARTDR) & 0xff);
}

static void pl011_rx_irq_enable(const struct uart *u)
{
    arch_mmio_write32(u->base + UARTIMSC, INT_RX | INT_RT);
}

static void pl011_rx_irq_disable(const struct uart *u)
{
    arch_mmio_write32(u->base + UARTIMSC, 0);
}

/*
 * PL011 TRM (DDI 0183), 2.8 "Interrupts", UARTRXINTR and UARTRTINTR: the
 * receive interrupt is raised when the FIFO reaches its trigger level (one
 * byte with the FIFO off) and cleared by reading below that level OR by a
 * write to UARTICR; the receive timeout is cleared by emptying the FIFO OR
 * by UARTICR. So UARTICR must come before the FIFO is drained, never after:
 * a byte that arrives between the last read (FR.RXFE seen) and a later
 * UARTICR write has its interrupt cleared with the byte still in the FIFO.
 * QEMU 7.2's PL011 raises RXIS only as the FIFO goes from empty to one byte
 * and has no receive timeout, so that byte, and every byte after it, then
 * never interrupts: console input stopped after the first character (about
 * one boot in six on a loaded host). Cleared first, a byte arriving during
 * or after the drain re-raises the (level) interrupt, which the GIC takes
 * again after the EOI (at worst one interrupt that finds the FIFO empty).
 */
static void pl011_rx_irq_clear(const struct uart *u)
{
    arch_mmio_write32(u->base + UARTICR, INT_RX | INT_RT);
}

static void pl011_putc(const struct uart *u, char c)
{
    for (int spins = 0; (arch_mmio_read32(u->base + UARTFR) & FR_TXFF) && spins < 1000000; spins++)
        arch_cpu_relax();
    arch_mmio_write32(u->base + UARTDR, (uint8_t)c);
}

const struct uart_driver pl011_driver = {
    .name = "pl011",
    .init = pl011_init,
    .putc = pl011_putc,
    .getc = pl011_getc,
    .rx_irq_enable = pl011_rx_irq_enable,
    .rx_irq_disable = pl011_rx_irq_disable,
    .rx_irq_clear = pl011_rx_irq_clear,
};
