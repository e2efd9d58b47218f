/* SPDX-License-Identifier: MIT */
/* kernel/ipc/fastpath.h - ipc_call and ipc_reply_recv, the common case
 * straight-line (kernel/ipc/fastpath.c). */
#ifndef KERNEL_IPC_FASTPATH_H
#define KERNEL_IPC_FASTPATH_H

#include "kernel/syscall/syscall.h"
#include "kernel/uapi/ipc.h"

struct thread;

/* Boot: ipc.fastpath=0 on the command line turns it off (default on). */
void ipc_fastpath_init(const char *cmdline);
bool ipc_fastpath_enabled(void);
/* Turn it on or off at run time (SYS_debug_ipc_fastpath): the state before. */
bool ipc_fastpath_set(bool on);

/* The call (args as SYS_ipc_call's, h its handle): true, with the calling
 * thread and what its wait ended with (the caller finishes as after
 * endpoint_call: sys_ipc.c's unstage), whether every guard passed or one
 * failed under the lock (then endpoint_call_locked did the call). False,
 * with nothing done, for a long message or with the fastpath off. */
bool ipc_fast_call(int h, const struct sysargs *args, struct thread **self, long *ret);
/* The same for ipc_reply_recv. */
bool ipc_fast_reply_recv(int h, const struct sysargs *args, struct thread **self, long *ret);

/* Of every CPU: hits, and misses by guard (kernel/uapi/ipc.h IPC_FAST_*);
 * partners resumed straight to user mode, and those that were not, by why
 * (IPC_DIRECT_*). */
struct ipc_fast_stats {
    unsigned long hits, misses[IPC_FAST_GUARDS];
    unsigned long direct, not_direct[IPC_DIRECT_WHYS];
};
void ipc_fast_stats_locked(struct ipc_fast_stats *out);

#endif
