/* SPDX-License-Identifier: MIT */
/*
 * kernel/ipc/endpoint_impl.h - what an endpoint is inside, for the two files
 * that run the rendezvous: endpoint.c (every case) and fastpath.c (the
 * common one, straight-line). Everything here needs sched_lock.
 */
#ifndef KERNEL_IPC_ENDPOINT_IMPL_H
#define KERNEL_IPC_ENDPOINT_IMPL_H

#include "kernel/sched/sched.h"

struct quota_account;

struct thread_queue {
    struct thread *head, *tail;
};

struct endpoint {
    int refs;                  /* handles naming it; 0 = a free slot */
    int receivers;             /* of those, handles with IPC_RIGHT_RECV */
    const struct task *owner;  /* the task that made it (its quota), or NULL */
    struct thread_queue sends; /* callers waiting for a receiver (IPC_SEND_WAIT) */
    struct thread_queue recvs; /* receivers waiting for a message (IPC_RECV_WAIT) */
    /* The account of its creator's tree, which pays for it until it goes. */
    struct quota_account *account;
};

static inline void queue_push(struct thread_queue *q, struct thread *t)
{
    t->ipc.qnext = NULL;
    if (q->tail)
        q->tail->ipc.qnext = t;
    else
        q->head = t;
    q->tail = t;
}

/* Take t, q's head (not NULL), off q. */
static inline void queue_drop_head(struct thread_queue *q, struct thread *t)
{
    q->head = t->ipc.qnext;
    if (!q->head)
        q->tail = NULL;
    t->ipc.qnext = NULL;
}

static inline struct thread *queue_pop(struct thread_queue *q)
{
    struct thread *t = q->head;
    if (t)
        queue_drop_head(q, t);
    return t;
}

/* t's wait is over with `result`; the caller wakes it (or hands off to it). */
static inline void ipc_complete_locked(struct thread *t, long result)
{
    t->ipc.state = IPC_IDLE;
    t->ipc.ep = NULL;
    t->ipc.result = result;
    t->ipc.done = true;
}

/* Wait until another thread completes self's wait, giving the CPU to `to`
 * first if there is one (a thread whose wait self has just completed).
 * -EINTR if self's task is exiting. */
long endpoint_wait_done_locked(struct thread *self, struct thread *to);

/* endpoint_call and endpoint_reply_recv without taking sched_lock: the
 * fastpath, having failed a guard under the lock, goes on with them. */
long endpoint_call_locked(struct thread *self, int h);
long endpoint_reply_recv_locked(struct thread *self, int h);

#endif
