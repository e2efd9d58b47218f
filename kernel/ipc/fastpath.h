/* SPDX-License-Identifier: MIT */
/* kernel/ipc/fastpath.h - ipc_call and ipc_reply_recv, the common case
 * straight-line (kernel/ipc/fastpath.c). */
#ifndef KERNEL_IPC_FASTPATH_H
#define KERNEL_IPC_FASTPATH_H

#include "kernel/ipc/types.h"
#include "kernel/syscall/syscall.h"
#include "kernel/uapi/ipc.h"

struct thread;

/* Boot: ipc.fastpath=0 on the command line turns it off (default on). */
void ipc_fastpath_init(const char *cmdline);
bool ipc_fastpath_enabled(void);
/* Turn it on or off at run time (SYS_debug_ipc_fastpath): the state before. */
bool ipc_fastpath_set(bool on);

/* The system call table's handlers of SYS_ipc_call and SYS_ipc_reply_recv
 * (where the arch has ARCH_HAS_SWITCH_TO_USER, what its table entries
 * arch_ipc_call_entry and arch_ipc_reply_recv_entry jump to): the fastpath,
 * or, when it is off or may not take the message, the ordinary path
 * (sys_ipc.c: sys_ipc_call, sys_ipc_reply_recv), called from here. Every
 * guard passed: straight-line; one failed under the lock:
 * endpoint_call_locked or endpoint_reply_recv_locked goes on with the lock
 * kept; a long message that failed one: the ordinary path from its start. */
long ipc_fast_call(const struct sysargs *args);
long ipc_fast_reply_recv(const struct sysargs *args);

/* How a wait of the ordinary path ends (sys_ipc.c), the fastpath's too
 * when it did not resume the thread straight to user mode: the message
 * that arrived into the registers and buffer, or `result` if an error. */
long ipc_unstage(struct thread *self, long result);

/* The counters of every CPU (struct ipc_fast_stats, kernel/ipc/types.h) summed. */
void ipc_fast_stats_locked(struct ipc_fast_stats *out);

#endif
