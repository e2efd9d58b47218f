/* SPDX-License-Identifier: MIT */
/*
 * kernel/mm/kernel_stack.h - kernel stacks (kstack_* and KSTACK_SIZE, ...
 * here: the stacks themselves; the stack offset strategies, which move the
 * stack pointer down inside one, are kernel/kstack_offset/ and
 * kernel/uapi/kstack.h).
 *
 * Every thread has its own kernel stack of KSTACK_SIZE bytes, mapped page by
 * page in the kernel-stack area with one unmapped guard page below it, so
 * running off the bottom faults instead of silently corrupting a neighbour.
 */
#ifndef KERNEL_MM_KERNEL_STACK_H
#define KERNEL_MM_KERNEL_STACK_H

#include "kernel/types.h"

#define KSTACK_SIZE      (16 * 1024)
#define KSTACK_SLOTS     1024
/* The slots' part of the kernel-stack area (kernel/mm/kvmap.c follows it). */
#define KSTACK_AREA_SIZE ((uintptr_t)KSTACK_SLOTS * (KSTACK_SIZE + PAGE_SIZE))

/* The top (highest address) of a new stack, or 0 when out of memory/slots. */
uintptr_t kstack_alloc(void);
void kstack_free(uintptr_t top);
/* Pages of the stacks kept mapped for reuse that no thread has now: the
 * leak checks count them as free (a freed stack keeps its pages, and how
 * many stacks were ever live at once depends on the timing). */
size_t kstack_cached_pages(void);
/* True if addr lies in a kernel stack's guard page. */
bool kstack_is_guard(uintptr_t addr);

#endif
