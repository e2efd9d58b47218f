/* SPDX-License-Identifier: MIT */
/*
 * kernel/printk.h - kernel messages.
 * Everything printed is kept in a log buffer and written to the console
 * once there is one, so messages from before console_init() are not lost.
 */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include <stdarg.h>

#include "kernel/types.h"

void kprintf(const char *fmt, ...) __printf(1, 2);
void kvprintf(const char *fmt, va_list ap) __printf(1, 0);
/* Write a user program's output: under the same lock, a short piece at a
 * time, its lines guarded unless `vouched` (lib/result_guard.h). */
void kwrite_user(const char *buf, size_t n, bool vouched);
/* A user-space console driver's character: `send(c)` stores it in the
 * UART's transmit register, under the same lock and after the same guard
 * (a '~' first if it completes a result's start and is not vouched). */
void kwrite_device(void (*send)(unsigned long c), unsigned long c, bool vouched);
/* Panic path: print without taking the log lock (it may be held by this CPU). */
void printk_emergency(void);
/* console_init(), once a console works: every line goes to `write` from
 * now on, and what was printed before is written to it first. */
void printk_set_console(void (*write)(const char *s, size_t n));

#endif
