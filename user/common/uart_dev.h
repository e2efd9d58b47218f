/* SPDX-License-Identifier: MIT */
/*
 * user/common/uart_dev.h - the console UART seen from user space, through a
 * device handle (device_io, kernel/uapi/ipc.h): a 16550 (PC16550D data
 * sheet), a PL011 (Arm DDI 0183, 3.2) or a SiFive UART (FU540-C000
 * Manual), whichever the kernel reports.
 */
#ifndef USER_COMMON_UART_DEV_H
#define USER_COMMON_UART_DEV_H

#include <stdbool.h>

struct uart_dev {
    int h;          /* the device handle */
    unsigned kind;  /* DEVICE_UART_* */
    unsigned shift; /* 16550: register n at n << shift */
};

/* Read the device's description: 0, or -errno (not a device, no UART). */
int uart_dev_open(struct uart_dev *u, int h);
/* "16550", "PL011" or "SiFive", for messages. */
const char *uart_dev_name(const struct uart_dev *u);
/* A received byte, or -1 if none waits. */
int uart_dev_getc(const struct uart_dev *u);
/* Send a byte (waits, bounded, for room in the transmitter). The kernel
 * marks it if it completes a test result's start (kernel/uapi/ipc.h,
 * device_io), unless `vouched`; uart_dev_putc: not vouched. */
void uart_dev_send(const struct uart_dev *u, char c, bool vouched);
void uart_dev_putc(const struct uart_dev *u, char c);
/* The receive interrupt on; with tx, the transmitter-empty one too (tests
 * use it to raise an interrupt without typing). */
void uart_dev_irq_enable(const struct uart_dev *u, bool tx);
/* Clear what the device latched (PL011 UARTICR; a 16550 clears itself
 * when read; the SiFive UART's transmit level is switched off), so a level
 * interrupt drops. */
void uart_dev_irq_clear(const struct uart_dev *u);

#endif
