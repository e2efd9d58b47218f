/* SPDX-License-Identifier: MIT */
/*
 * kernel/dev/sifive_uart.c - the UART of SiFive's FU540 and FU740 SoCs
 * ("sifive,uart0"), the console of QEMU's sifive_u machine and the HiFive
 * boards. Register map from the FU540-C000 Manual, chapter "Universal
 * Asynchronous Receiver/Transmitter (UART)": every register is 32 bits.
 *   txdata 0x00  bits 7:0 the byte to send; bit 31 reads 1 while the
 *                transmit FIFO is full (the write is then ignored)
 *   rxdata 0x04  bits 7:0 a received byte; bit 31 reads 1 if none waited
 *   txctrl 0x08  bit 0 txen; bits 18:16 txcnt, the transmit watermark
 *   rxctrl 0x0c  bit 0 rxen; bits 18:16 rxcnt, the receive watermark
 *   ie     0x10  bit 0 txwm, bit 1 rxwm: interrupt enables
 *   ip     0x14  the same bits, pending (read only)
 *   div    0x18  the baud rate divisor (the firmware's is kept)
 * The interrupts are levels, not events: rxwm is pending while the receive
 * FIFO holds more than rxcnt bytes, txwm while the transmit FIFO holds
 * fewer than txcnt. So nothing is acknowledged: draining the FIFO is what
 * drops the receive interrupt.
 */
#include "arch/arch.h"
#include "kernel/dev/uart.h"

#define TXDATA        0x00
#define RXDATA        0x04
#define TXCTRL        0x08
#define RXCTRL        0x0c
#define IE            0x10
#define DATA_FLAG     (1u << 31) /* txdata: FIFO full; rxdata: FIFO empty */
#define CTRL_EN       (1u << 0)
#define CTRL_CNT_MASK (7u << 16)
#define IE_RXWM       (1u << 1)

/* Both directions on, rxcnt 0 (interrupt from the first byte), txcnt 1
 * (txwm pending when the transmit FIFO is empty, for user-space tests). */
static void sifive_uart_init(const struct uart *u)
{
    uint32_t tx = arch_mmio_read32(u->base + TXCTRL) & ~CTRL_CNT_MASK;
    uint32_t rx = arch_mmio_read32(u->base + RXCTRL) & ~CTRL_CNT_MASK;
    arch_mmio_write32(u->base + IE, 0);
    arch_mmio_write32(u->base + TXCTRL, tx | CTRL_EN | 1u << 16);
    arch_mmio_write32(u->base + RXCTRL, rx | CTRL_EN);
}

static int sifive_uart_getc(const struct uart *u)
{
    uint32_t r = arch_mmio_read32(u->base + RXDATA); /* the read pops the byte */
    return (r & DATA_FLAG) ? -1 : (int)(r & 0xff);
}

static void sifive_uart_putc(const struct uart *u, char c)
{
    for (int spins = 0; (arch_mmio_read32(u->base + TXDATA) & DATA_FLAG) && spins < 1000000;
         spins++)
        arch_cpu_relax();
    arch_mmio_write32(u->base + TXDATA, (uint8_t)c);
}

static void sifive_uart_rx_irq_enable(const struct uart *u)
{
    arch_mmio_write32(u->base + IE, IE_RXWM);
}

static void sifive_uart_rx_irq_disable(const struct uart *u)
{
    arch_mmio_write32(u->base + IE, 0);
}

const struct uart_driver sifive_uart_driver = {
    .name = "sifive-uart",
    .init = sifive_uart_init,
    .putc = sifive_uart_putc,
    .getc = sifive_uart_getc,
    .rx_irq_enable = sifive_uart_rx_irq_enable,
    .rx_irq_disable = sifive_uart_rx_irq_disable,
};
