/* SPDX-License-Identifier: MIT */
/*
 * user/longrun/fuzz/fuzz_ipc.h - IPC calls for the syscall fuzzer (user/longrun/fuzz/fuzz.c).
 *
 * So that no fuzzed IPC call waits for ever, each child serves one endpoint
 * of its own from a server thread and tracks the handles it holds:
 * ipc_call through any other endpoint, and ipc_recv/reply_recv through a
 * handle that may receive, get a closed handle number instead; notify_wait
 * on a live notification is preceded by a signal (or becomes notify_poll);
 * the served handle is never closed. Everything else is left random.
 */
#ifndef USER_LONGRUN_FUZZ_FUZZ_IPC_H
#define USER_LONGRUN_FUZZ_FUZZ_IPC_H

#include <stdbool.h>
#include <stdint.h>

/* Once per child, before its first call: the served endpoint and its
 * server; `kept` (or -1) is a handle no drawn call may close (the child's
 * control capability, which its canary checks need). */
void fuzz_ipc_init(int kept);
/* True for the IPC system call numbers. */
bool fuzz_ipc_number(long nr);
/* Aim half the calls at a held handle (from `random`) and keep the call
 * from waiting for ever; may change the number (notify_wait -> notify_poll). */
void fuzz_ipc_constrain(long *nr, long a[6], uint64_t random);
/* Make the call: its message travels in argument registers 1-5 both ways.
 * Returns the result, or -errno in the C library's numbering. */
long fuzz_ipc_make(long nr, const long a[6]);
/* Keep the handle table in step with what the call returned. */
void fuzz_ipc_track(long nr, const long a[6], long r);

#endif
