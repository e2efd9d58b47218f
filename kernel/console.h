/* SPDX-License-Identifier: MIT */
/* kernel/console.h - the serial console the kernel prints to. */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include "boot/bootinfo.h"
#include "kernel/types.h"

/* Pick the UART named by the loader or the devicetree's stdout-path. */
void console_init(const struct boot_info *bi);
bool console_ready(void);
/* Write n bytes, turning "\n" into "\r\n". Caller serialises. */
void console_write(const char *s, size_t n);
/* A received byte, or -1 if none is waiting (never blocks). */
int console_getc(void);
/* Boot CPU, interrupts running: take input by interrupt from now on, into
 * a buffer console_getc() drains, if the arch can route the UART's IRQ. */
void console_start_input_irq(void);
/* Set before console_start_input_irq: a hook the UART's interrupt calls
 * first, which returns true when it took the interrupt (a user-space driver
 * serves the UART; kernel/ipc/device.c). The console knows nothing above it. */
void console_set_irq_hook(bool (*hook)(void));
/* Bytes received by interrupt since boot (tests). */
unsigned long console_rx_interrupts(void);
/* The console's register page if it is memory-mapped (mm_init maps it). */
bool console_mmio(uint64_t *pa, uint64_t *size);
/* mm_init switched page tables: recompute the registers' virtual address. */
void console_relocate(void);
/* The console as a user-space driver sees it (kernel/ipc/device.c):
 * DEVICE_INFO_* (0: no UART); one register access (DEVICE_IO_*; -EINVAL
 * outside its window; a character sent goes through printk's guard);
 * whether its interrupt is routed; and, when the driver let go,
 * the UART's receive interrupt back on for the kernel. */
unsigned long console_device_info(void);
long console_device_io(unsigned long offset, unsigned long value, unsigned how);
bool console_input_irq_routed(void);
void console_input_to_kernel(void);
/* Short description, e.g. "pl011 @ 0x9000000". */
const char *console_name(void);

#endif
