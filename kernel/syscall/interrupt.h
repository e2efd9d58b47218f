/* SPDX-License-Identifier: MIT */
/*
 * kernel/syscall/interrupt.h - the background work of the system call
 * path's subsystems (interrupt.c); interrupt_enter, interrupt_exit and
 * tick, which arch code calls, are declared in kernel/arch_callbacks.h.
 */
#ifndef KERNEL_SYSCALL_INTERRUPT_H
#define KERNEL_SYSCALL_INTERRUPT_H

#include "kernel/cpu.h"

/* The idle loop, IRQs off (sched_init's idle work): one step of the stack
 * offset pool's refill or of the latency timers' drain; false if neither
 * had anything to do. */
bool idle_work(struct cpu *c);

#endif
