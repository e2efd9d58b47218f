/* SPDX-License-Identifier: MIT */
/* kernel/ipc/fastpath_long.h - the fastpath's one copy of a long message,
 * sender's buffer to receiver's, through the direct map
 * (kernel/ipc/fastpath_long.c). */
#ifndef KERNEL_IPC_FASTPATH_LONG_H
#define KERNEL_IPC_FASTPATH_LONG_H

#include <stdbool.h>
#include <stddef.h>

struct thread;

/* sched_lock held, IRQs off. The n extra words (1..IPC_BUF_WORDS) from
 * from's buffer into to's, both threads' buffers set: true if copied;
 * false, with nothing written, if a page of either is not mapped as it
 * must be (readable / writable by user mode, RAM) or an address space is
 * busy: the ordinary path then copies through from's slot and gives the
 * errors. */
bool ipc_fast_copy_long_locked(const struct thread *from, const struct thread *to, size_t n);

#endif
