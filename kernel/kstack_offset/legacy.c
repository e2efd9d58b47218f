/* SPDX-License-Identifier: MIT */
/*
 * kernel/kstack_offset/legacy.c - the designs Linux used until 7.0, kept to
 * show what went wrong with them. All three choose the next offset at the
 * END of a system call and store it; the next call's entry uses it as is.
 *
 *   counter  x86, s390, powerpc, loongarch: per CPU,
 *            next = ror32(old, 5) ^ (timestamp counter & 0xFF).
 *   crng16   arm64, riscv: per CPU, next = ror32(old, 5) ^ get_random_u16().
 *   task     the first 2026 fix: the same as crng16, but kept per thread.
 *
 * Bug 1: the stored offset is per CPU, the update runs at exit, and the
 * thread can be moved to another CPU in the middle of the call. The update
 * then lands on the new CPU, and the old CPU's next offset is the one this
 * call used: known to anyone who can observe its own offset (the
 * kstack.migration_attack tests stage it). `task` keeps the offset with
 * the thread, so whichever CPU it runs on, the next call uses a fresh one.
 */
#include "kernel/kstack_offset/kstack_offset.h"

/* Their entry and exit code is in draw.h, with every strategy's. */

const struct kstack_strategy kstack_counter = {KSTACK_COUNTER, "counter", NULL};
const struct kstack_strategy kstack_crng16 = {KSTACK_CRNG16, "crng16", NULL};
const struct kstack_strategy kstack_task = {KSTACK_TASK, "task", NULL};
