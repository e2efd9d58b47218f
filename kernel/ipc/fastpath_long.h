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
 * from's buffer into to's: true if copied; false, with nothing written, if
 * either has no buffer, a page of either is not mapped as ipc_set_buffer
 * requires (the user's to read and write, RAM) or an address space is
 * busy: the ordinary path then copies through from's slot and gives the
 * errors. Keeps where each buffer is (ipc_thread.buf_map). */
bool ipc_fast_copy_long_locked(struct thread *from, struct thread *to, size_t n);

#endif
