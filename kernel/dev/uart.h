/* SPDX-License-Identifier: MIT */
/* kernel/dev/uart.h - the two serial port drivers the kernel knows. */
#ifndef KERNEL_DEV_UART_H
#define KERNEL_DEV_UART_H

#include "kernel/types.h"

enum uart_kind { UART_NONE, UART_NS16550_PIO, UART_NS16550_MMIO, UART_PL011 };

struct uart {
    enum uart_kind kind;
    uint64_t phys;      /* physical address of the registers (MMIO kinds) */
    uintptr_t base;     /* I/O port, or virtual address of the registers */
    unsigned reg_shift; /* register i is at base + (i << reg_shift) */
    unsigned io_width;  /* 1 or 4 bytes per register access */
};

void ns16550_init(const struct uart *u);
void ns16550_putc(const struct uart *u, char c);
int ns16550_getc(const struct uart *u);
/* Interrupt when a byte arrives (and keep the other interrupt sources off). */
void ns16550_rx_irq_enable(const struct uart *u);
void ns16550_rx_irq_disable(const struct uart *u);
void pl011_init(const struct uart *u);
void pl011_putc(const struct uart *u, char c);
int pl011_getc(const struct uart *u);
void pl011_rx_irq_enable(const struct uart *u);
/* Acknowledge the receive interrupts; the caller drains the FIFO after it. */
void pl011_rx_irq_clear(const struct uart *u);

#endif
