/* SPDX-License-Identifier: MIT */
/*
 * kernel/ipc/handle_lookup.h - finding a handle in a task's table, inline:
 * one copy of the checks for every path that takes a handle (handle.c's
 * handle_lookup_locked for the ordinary calls, and the IPC fastpath, which
 * pays no call and frame for it).
 */
#ifndef KERNEL_IPC_HANDLE_LOOKUP_H
#define KERNEL_IPC_HANDLE_LOOKUP_H

#include "kernel/errno.h"
#include "kernel/ipc/types.h"
#include "kernel/task.h"

/* The handle h of task t if it names an object of `kind` with `right`:
 * else NULL and *err = -EBADF (no such handle), -EINVAL (another kind) or
 * -EPERM (without the right). With sched_lock held. */
static inline __attribute__((always_inline)) struct ipc_handle *
handle_lookup_inline(struct task *t, int h, enum ipc_kind kind, unsigned right, long *err)
{
    if (h < 0 || h >= IPC_MAX_HANDLES) {
        *err = -EBADF;
        return NULL;
    }
    struct ipc_handle *s = &t->handles.h[h];
    if (s->kind != kind) {
        *err = s->kind == IPC_KIND_NONE ? -EBADF : -EINVAL;
        return NULL;
    }
    if (!(s->rights & right)) {
        *err = -EPERM;
        return NULL;
    }
    return s;
}

#endif
