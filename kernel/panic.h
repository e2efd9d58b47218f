/* SPDX-License-Identifier: MIT */
/* kernel/panic.h - stop the machine with a report when the kernel cannot go on. */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

#include "kernel/types.h"

/* Exit statuses the kernel powers off with (QEMU turns them into its exit code). */
#define EXIT_OK           0
#define EXIT_TESTS_FAILED 1
#define EXIT_PANIC        3

/* Report and stop: the CPU, the message, the registers and a backtrace.
 * (panic_trap, for faults, is in kernel/arch_callbacks.h.) */
__noreturn void panic(const char *fmt, ...) __printf(1, 2);

#define BUG_ON(cond)                                                                               \
    do {                                                                                           \
        if (unlikely(cond))                                                                        \
            panic("BUG_ON(%s) at %s:%d", #cond, __FILE__, __LINE__);                               \
    } while (0)

#endif
