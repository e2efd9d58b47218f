/* SPDX-License-Identifier: MIT */
/* kernel/dev/uart.h - the serial port drivers the kernel knows. */
#ifndef KERNEL_DEV_UART_H
#define KERNEL_DEV_UART_H

#include "kernel/types.h"

enum uart_kind { UART_NONE, UART_NS16550_PIO, UART_NS16550_MMIO, UART_PL011, UART_SIFIVE };

struct uart {
    enum uart_kind kind;
    uint64_t phys;      /* physical address of the registers (MMIO kinds) */
    uintptr_t base;     /* I/O port, or virtual address of the registers */
    unsigned reg_shift; /* register i is at base + (i << reg_shift) */
    unsigned io_width;  /* 1 or 4 bytes per register access */
    uint64_t size;      /* bytes of registers (MMIO kinds): the devicetree's reg */
};

/* What the console needs of a UART: one table per kind of device. */
struct uart_driver {
    const char *name;
    void (*init)(const struct uart *u);
    void (*putc)(const struct uart *u, char c);
    int (*getc)(const struct uart *u); /* a received byte, or -1 */
    /* Interrupt when a byte arrives (and keep the other sources off). */
    void (*rx_irq_enable)(const struct uart *u);
    void (*rx_irq_disable)(const struct uart *u);
    /* Acknowledge the receive interrupt; the caller drains the FIFO after
     * it. NULL where reading the FIFO is what clears it. */
    void (*rx_irq_clear)(const struct uart *u);
};

extern const struct uart_driver ns16550_driver;     /* PC16550D, port or MMIO */
extern const struct uart_driver pl011_driver;       /* Arm PrimeCell PL011 */
extern const struct uart_driver sifive_uart_driver; /* SiFive FU540/FU740 UART */

#endif
