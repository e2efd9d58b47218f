/* SPDX-License-Identifier: MIT */
/*
 * kernel/dev/ns16550.c - the 16550 UART (PC COM ports, QEMU riscv virt,
 * many SoCs as "snps,dw-apb-uart"). Register map from the TI/National
 * PC16550D data sheet: THR/RBR 0, IER 1, FCR 2, LCR 3, MCR 4, LSR 5.
 * The firmware has already set the baud rate; we keep it and only make
 * sure the line is 8N1 with FIFOs on.
 */
#include "arch/arch.h"
#include "kernel/dev/uart.h"

enum { THR = 0, IER = 1, FCR = 2, LCR = 3, MCR = 4, LSR = 5 };
#define LSR_DR   0x01 /* data ready */
#define LSR_THRE 0x20 /* transmit holding register empty */

static uint8_t reg_read(const struct uart *u, unsigned reg)
{
#if ARCH_HAS_PIO
    if (u->kind == UART_NS16550_PIO)
        return arch_pio_read8((uint16_t)(u->base + reg));
#endif
    uintptr_t a = u->base + (reg << u->reg_shift);
    return u->io_width == 4 ? (uint8_t)arch_mmio_read32(a) : arch_mmio_read8(a);
}

static void reg_write(const struct uart *u, unsigned reg, uint8_t v)
{
#if ARCH_HAS_PIO
    if (u->kind == UART_NS16550_PIO) {
        arch_pio_write8((uint16_t)(u->base + reg), v);
        return;
    }
#endif
    uintptr_t a = u->base + (reg << u->reg_shift);
    if (u->io_width == 4)
        arch_mmio_write32(a, v);
    else
        arch_mmio_write8(a, v);
}

static void ns16550_init(const struct uart *u)
{
    reg_write(u, IER, 0x00); /* polled for now: no interrupts */
    reg_write(u, LCR, 0x03); /* 8 data bits, no parity, 1 stop bit, DLAB off */
    reg_write(u, FCR, 0x07); /* enable and clear both FIFOs */
    reg_write(u, MCR, 0x03); /* DTR and RTS */
}

static int ns16550_getc(const struct uart *u)
{
    return (reg_read(u, LSR) & LSR_DR) ? reg_read(u, THR) : -1; /* RBR shares offset 0 */
}

/* IER bit 0: "received data available" (and, with FIFOs, the character
 * timeout). The line raises its interrupt only with MCR.OUT2 set on PCs. */
static void ns16550_rx_irq_enable(const struct uart *u)
{
    reg_write(u, MCR, 0x0b); /* DTR, RTS, OUT2 */
    reg_write(u, IER, 0x01);
}

static void ns16550_rx_irq_disable(const struct uart *u)
{
    reg_write(u, IER, 0x00);
}

static void ns16550_putc(const struct uart *u, char c)
{
    for (int spins = 0; !(reg_read(u, LSR) & LSR_THRE) && spins < 1000000; spins++)
        arch_cpu_relax();
    reg_write(u, THR, (uint8_t)c);
}

const struct uart_driver ns16550_driver = {
    .name = "ns16550",
    .init = ns16550_init,
    .putc = ns16550_putc,
    .getc = ns16550_getc,
    .rx_irq_enable = ns16550_rx_irq_enable,
    .rx_irq_disable = ns16550_rx_irq_disable,
};
