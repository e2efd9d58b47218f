/* SPDX-License-Identifier: MIT */
/*
 * kernel/text_patch.h - changing kernel code while other CPUs run it.
 *
 * text_patch_run(fn, arg) stops every other online CPU with interrupts
 * masked, in a loop that executes none of the code being changed, runs
 * fn(arg) on this CPU (which rewrites instructions with arch_text_patch_call,
 * through a writable mapping of the code made for the patch and removed
 * after it: text_patch_alias), then lets them go, each forgetting any
 * translation of that mapping; each discards what it fetched before (arch_text_sync)
 * before it runs on. This is the protocol the manuals give for code that
 * one CPU modifies while others may execute it (Intel SDM vol. 3A,
 * "Handling Self- and Cross-Modifying Code"; the RISC-V unprivileged spec's
 * Zifencei chapter: FENCE.I orders only the hart that runs it); arm64 would
 * allow a BL to be rewritten in place (Arm ARM, "Concurrent modification
 * and execution of instructions"), and is simply treated alike.
 *
 * The other CPUs are reached through the reschedule IPI and join from
 * interrupt_enter(), the first thing every interrupt does. The entry code's
 * call sites run with interrupts masked, so no stopped CPU is between an
 * entry and its call. Callers: IRQs on, no spinlock held, CPUs all started
 * (or only the boot CPU: then no other CPU is involved).
 */
#ifndef KERNEL_TEXT_PATCH_H
#define KERNEL_TEXT_PATCH_H

#include "kernel/types.h"

void text_patch_run(void (*fn)(void *arg), void *arg);

/* Odd while other CPUs are being stopped (interrupt_enter reads it). */
extern unsigned long text_patch_generation;
/* interrupt_enter, IRQs off, the generation odd: wait here until it ends. */
void text_patch_join(void);
/* Inside text_patch_run's fn: how many other CPUs are waiting (the tests). */
unsigned text_patch_cpus_stopped(void);

/* Remove the mapping text_patch_alias made (nothing if none): text_patch_run
 * does, after fn. */
void text_patch_unalias(void);
/* The patch window's address and size (va 0: never used); true while it
 * is mapped (the tests look for writable aliases of code). */
bool text_patch_window(uintptr_t *va, size_t *size);

/* The stops so far: how many, and how long the other CPUs were held, in
 * all and at most (nanoseconds: from the IPIs to the release). */
struct text_patch_stats {
    unsigned long stops;
    uint64_t ns_total, ns_max;
};
void text_patch_stats(struct text_patch_stats *st);

#endif
