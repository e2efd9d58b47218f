/* SPDX-License-Identifier: MIT */
/*
 * kernel/ipc/ipc.h - synchronous IPC: endpoints, notifications, handles.
 *
 * An endpoint (endpoint.c) holds two queues of threads, those waiting to
 * send (callers) and those waiting to receive; a message goes straight
 * from one thread's slot to the other's (struct ipc_thread), never stored
 * in the endpoint. A call is a send plus a wait for the reply: the server
 * thread that received it remembers the caller (ipc_thread.caller) and its
 * next reply goes there. A notification (notify.c) is a word of bits.
 * Tasks name both through handles (handle.c), counted references: an
 * object lives while a handle names it.
 *
 * Locking: every piece of IPC state (objects, queues, handle tables, each
 * thread's ipc_thread) is guarded by sched_lock. Waiting means sleeping, and
 * a sleep must be decided and begun under sched_lock (sched_sleep_locked),
 * so one lock makes "nobody there: wait" and the other side's delivery one
 * atomic step, with no lock order to get wrong. Copies from and to user
 * memory happen outside it, in the thread's own address space: the sender
 * stages its long words in its own slot before taking the lock, the
 * receiver copies them out after it let go.
 */
#ifndef KERNEL_IPC_IPC_H
#define KERNEL_IPC_IPC_H

#include "kernel/ipc/types.h"

struct task;
struct notify;

/* A handle argument of a system call: out-of-range values (2^32 too)
 * become -1, which no handle is, rather than being cut to an int that
 * might be one. */
static inline int ipc_handle_arg(uintptr_t v)
{
    return v < IPC_MAX_HANDLES ? (int)v : -1;
}

/* ---- handle.c: the per-task tables (sched_lock held) ---- */

/* The handle h of task t if it names an object of `kind` with `right`:
 * else NULL and *err = -EBADF (no such handle), -EINVAL (another kind) or
 * -EPERM (without the right). */
struct ipc_handle *handle_lookup_locked(struct task *t, int h, enum ipc_kind kind, unsigned right,
                                        long *err);
/* A new handle in t's table for obj (taking a reference): its index, or -EMFILE. */
long handle_install_locked(struct task *t, enum ipc_kind kind, void *obj, unsigned rights,
                           uintptr_t badge);
/* The same at index h, if that slot is free: h, or -EMFILE. */
long handle_install_at_locked(struct task *t, int h, enum ipc_kind kind, void *obj, unsigned rights,
                              uintptr_t badge);
/* handle_mint: a derived handle in the same table. */
long handle_mint_locked(struct task *t, int h, unsigned rights, uintptr_t badge);
long handle_close_locked(struct task *t, int h);
/* Copies of parent's handles list[0..n-1] as child's handles 0..n-1; child's
 * table must be empty. 0, or -EBADF (then nothing is copied). */
long handles_give_locked(struct task *child, struct task *parent, const int *list, int n);
/* The control capability (uapi/ipc.h IPC_CONTROL_HANDLE): give t one with
 * `rights` (and MINT), at that index; 0 or -EMFILE. */
long control_give_locked(struct task *t, unsigned rights);
/* Whether t holds a control handle with `right` (every bit of it). */
bool control_held_locked(const struct task *t, unsigned right);
/* The same for the calling task (takes sched_lock). */
bool control_allows(unsigned right);
/* The task's last thread is leaving: close every handle. */
void handles_close_all_locked(struct task *t);

/* ---- endpoint.c ---- */

/* A free endpoint (no reference yet: handle_install_locked takes the first),
 * made by `owner` (NULL: the kernel), or NULL. */
struct endpoint *endpoint_alloc_locked(const struct task *owner);
/* How many live endpoints t made (its quota, uapi/quota.h); t is ending:
 * what it made and still lives counts against nobody. */
int endpoints_owned_locked(const struct task *t);
void endpoints_disown_locked(const struct task *t);
/* A handle with `rights` now names / no longer names ep. The last handle
 * that may receive gone: every waiting thread fails with -EPIPE; the last
 * handle gone: ep is free again. */
void endpoint_hold_locked(struct endpoint *ep, unsigned rights);
void endpoint_release_locked(struct endpoint *ep, unsigned rights);
/* How many handles may receive on ep; whether a thread waits to receive. */
int endpoint_receivers_locked(const struct endpoint *ep);
bool endpoint_receiver_waiting_locked(const struct endpoint *ep);
/* The calls, for the calling thread `self` of task self->task. A message
 * to send is staged in self->ipc.msg; a message received is left there.
 * They take sched_lock themselves. */
long endpoint_call(struct thread *self, int h);
long endpoint_send(struct thread *self, int h);
long endpoint_recv(struct thread *self, int h);
long endpoint_reply_recv(struct thread *self, int h);
/* A user thread is ending (task_exit, sched_lock held): leave any queue,
 * forget a pending reply, and fail its own caller with -EPIPE. */
void ipc_thread_exit_locked(struct thread *t);
/* Until no receiver copies extra words out of self's slot any more
 * (types.h): before self stages new ones, and before it ends. Preemptible,
 * sched_lock not held. */
void ipc_loan_wait(struct thread *self);
/* Every copy of extra message words the kernel makes counts its words
 * here; ipc_words_copied() is the sum over the CPUs (SYS_debug_stats). */
void ipc_count_copied(size_t n);
unsigned long ipc_words_copied(void);
unsigned long endpoints_alive_locked(void);

/* ---- notify.c ---- */

/* The same for notifications. */
struct notify *notify_alloc_locked(const struct task *owner);
int notifies_owned_locked(const struct task *t);
void notifies_disown_locked(const struct task *t);
void notify_hold_locked(struct notify *n);
void notify_release_locked(struct notify *n);
/* They take sched_lock themselves. wait: block until a bit is set if `block`. */
long notify_signal(struct task *t, int h, uint64_t bits);
long notify_take(struct task *t, int h, bool block);
unsigned long notifies_alive_locked(void);
/* Signal bits on n itself (any context, sched_lock held). */
void notify_signal_locked(struct notify *n, uint64_t bits);

/* ---- console_service.c: the console server's endpoint (sched_lock held) ---- */

/* init's handle to it, with every endpoint right: its index, or -errno. */
long console_service_give_init_locked(struct task *t);
/* t's IPC_CONSOLE_HANDLE, if a console server serves (else nothing). */
void console_service_give_client_locked(struct task *t);
/* A console server waits for requests (takes sched_lock). */
bool console_service_ready(void);
/* A console server holds the service's receive right: the console is its
 * (takes sched_lock). */
bool console_service_serving(void);

/* ---- device.c: the console UART as an object (sched_lock held) ---- */

struct device;
void device_hold_locked(struct device *d);
/* Handle h of task t naming d is closing: unbind d's interrupt if it was
 * bound through that handle. */
void device_release_locked(struct device *d, struct task *t, int h);
/* Give t a handle to the console device: its index, or -EMFILE. */
long device_give_console_locked(struct task *t);
/* The console's interrupt fired (interrupt context, IRQs off, no lock
 * held): true if a user driver has it bound (the line is now masked and
 * the driver signalled), false if the kernel should serve it. */
bool device_console_interrupt(void);

#endif
