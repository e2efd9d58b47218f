/* SPDX-License-Identifier: MIT */
/*
 * kernel/ipc/endpoint.c - endpoints: synchronous rendezvous between threads
 * (see ipc.h for the model and the lock).
 *
 * Whoever arrives second does the work: a sender that finds a receiver
 * waiting copies its message into the receiver's slot and completes the
 * receiver's wait; a receiver that finds a caller queued takes the message
 * from the caller's slot. A caller then waits for its reply, which the
 * server thread's next reply (ipc_reply_recv) delivers the same way. When
 * the thread that is woken is the one this CPU would run next anyway (the
 * server a call reaches, the caller a reply answers), the CPU is handed
 * straight to it (sched_sleep_handoff_locked), without the run queue.
 *
 * Failures never strand a thread: every thread that waits is on exactly
 * one list an ending object or thread walks (the endpoint's queues, or its
 * server's caller pointer), and whichever side goes first unlinks itself
 * from the other, all under sched_lock.
 */
#include "kernel/errno.h"
#include "kernel/ipc/endpoint_impl.h"
#include "kernel/ipc/ipc.h"
#include "kernel/quota.h"
#include "kernel/sched/sched.h"
#include "kernel/task.h"
#include "lib/string.h"

#define MAX_ENDPOINTS 128

static struct endpoint endpoints[MAX_ENDPOINTS];

/* ---- queues ------------------------------------------------------------- */

static void queue_remove(struct thread_queue *q, struct thread *t)
{
    struct thread *prev = NULL;
    for (struct thread *p = q->head; p; prev = p, p = p->ipc.qnext) {
        if (p != t)
            continue;
        if (prev)
            prev->ipc.qnext = t->ipc.qnext;
        else
            q->head = t->ipc.qnext;
        if (q->tail == t)
            q->tail = prev;
        t->ipc.qnext = NULL;
        return;
    }
}

/* ---- completing waits ----------------------------------------------------- */

static void fail_locked(struct thread *t, long err)
{
    ipc_complete_locked(t, err);
    sched_wake_thread_locked(t);
}

/* Copy the tag and register words of `from`'s staged message into `to`'s
 * slot and complete to's wait with `result`. Extra words are not copied:
 * if the message arrives (result >= 0) and has some, from's slot is lent
 * to `to`, which copies them straight into its user buffer (types.h). */
static void deliver_locked(struct thread *from, struct thread *to, long result)
{
    const struct ipc_msg *src = &from->ipc.msg;
    struct ipc_msg *m = &to->ipc.msg;
    for (int i = 0; i < 1 + IPC_REG_WORDS; i++)
        m->regs[i] = src->regs[i];
    to->ipc.lender = NULL;
    if (result >= 0 && IPC_TAG_LEN(src->tag)) {
        to->ipc.lender = from;
        __atomic_fetch_add(&from->ipc.lent, 1, __ATOMIC_RELAXED); /* under sched_lock */
    }
    to->ipc.direct = false; /* in the slot: unstage copies it out */
    ipc_complete_locked(to, result);
}

/* Whether `to` can take m's extra words: a thread with no buffer cannot.
 * The message is then refused to its sender (-EMSGSIZE) and the receiver
 * never sees it, so a client cannot make a server's receive fail. */
static bool fits_locked(const struct ipc_msg *m, const struct thread *to)
{
    return IPC_TAG_LEN(m->tag) == 0 || to->ipc.ubuf != 0;
}

/* Whether the receiver a message to ep would reach now (if one waits) can take it. */
static bool fits_waiting_locked(const struct endpoint *ep, const struct ipc_msg *m)
{
    return !ep->recvs.head || fits_locked(m, ep->recvs.head);
}

/* Server thread `server` will reply to `client` next (NULL: to nobody). A
 * caller it had not answered never will be now: it fails with -EPIPE. */
static void set_caller_locked(struct thread *server, struct thread *client)
{
    struct thread *old = server->ipc.caller;
    if (old) {
        old->ipc.replier = NULL;
        fail_locked(old, -EPIPE);
    }
    server->ipc.caller = client;
    if (client) {
        client->ipc.state = IPC_REPLY_WAIT;
        client->ipc.ep = NULL;
        client->ipc.replier = server;
    }
}

/* Take t out of whatever it waits in (sched_lock held): it is leaving. */
static void cancel_locked(struct thread *t)
{
    if (t->ipc.state == IPC_SEND_WAIT)
        queue_remove(&t->ipc.ep->sends, t);
    else if (t->ipc.state == IPC_RECV_WAIT)
        queue_remove(&t->ipc.ep->recvs, t);
    else if (t->ipc.state == IPC_REPLY_WAIT && t->ipc.replier)
        t->ipc.replier->ipc.caller = NULL; /* its reply will be dropped */
    t->ipc.state = IPC_IDLE;
    t->ipc.ep = NULL;
    t->ipc.replier = NULL;
}

/* (endpoint_impl.h) sched_lock held throughout. */
long endpoint_wait_done_locked(struct thread *self, struct thread *to)
{
    for (;;) {
        if (self->ipc.done)
            return self->ipc.result;
        if (self->killed) {
            cancel_locked(self);
            if (to)
                sched_wake_thread_locked(to);
            return -EINTR;
        }
        if (to)
            sched_sleep_handoff_locked(&self->ipc, to);
        else
            sched_sleep_locked(&self->ipc, 0);
        to = NULL;
    }
}

/* ---- objects ------------------------------------------------------------ */

struct endpoint *endpoint_alloc_locked(const struct task *owner)
{
    for (int i = 0; i < MAX_ENDPOINTS; i++) {
        if (endpoints[i].refs == 0) {
            memset(&endpoints[i], 0, sizeof(endpoints[i]));
            endpoints[i].owner = owner;
            endpoints[i].account = owner ? owner->account : NULL;
            return &endpoints[i];
        }
    }
    return NULL;
}

int endpoints_owned_locked(const struct task *t)
{
    int n = 0;
    for (int i = 0; i < MAX_ENDPOINTS; i++)
        n += endpoints[i].refs != 0 && endpoints[i].owner == t;
    return n;
}

void endpoints_disown_locked(const struct task *t)
{
    for (int i = 0; i < MAX_ENDPOINTS; i++) {
        if (endpoints[i].owner == t)
            endpoints[i].owner = NULL;
    }
}

void endpoint_hold_locked(struct endpoint *ep, unsigned rights)
{
    ep->refs++;
    if (rights & IPC_RIGHT_RECV)
        ep->receivers++;
}

static void fail_queue_locked(struct thread_queue *q, long err)
{
    struct thread *t;
    while ((t = queue_pop(q)))
        fail_locked(t, err);
}

void endpoint_release_locked(struct endpoint *ep, unsigned rights)
{
    if ((rights & IPC_RIGHT_RECV) && --ep->receivers == 0) {
        fail_queue_locked(&ep->sends, -EPIPE); /* nobody will ever receive them */
        fail_queue_locked(&ep->recvs, -EPIPE); /* a sibling closed the handle it waits on */
    }
    if (--ep->refs == 0) {
        fail_queue_locked(&ep->sends, -EPIPE);
        fail_queue_locked(&ep->recvs, -EPIPE);
        quota_uncharge_locked(ep->account, CHARGE_ENDPOINTS, 1);
    }
}

int endpoint_receivers_locked(const struct endpoint *ep)
{
    return ep->receivers;
}

bool endpoint_receiver_waiting_locked(const struct endpoint *ep)
{
    return ep->recvs.head != NULL;
}

unsigned long endpoints_alive_locked(void)
{
    unsigned long alive = 0;
    for (int i = 0; i < MAX_ENDPOINTS; i++)
        alive += endpoints[i].refs != 0;
    return alive;
}

/* The endpoint behind handle h with `right`, and the handle's badge. */
static struct endpoint *endpoint_of(struct thread *self, int h, unsigned right, uintptr_t *badge,
                                    long *err)
{
    struct ipc_handle *s = handle_lookup_locked(self->task, h, IPC_KIND_ENDPOINT, right, err);
    if (!s)
        return NULL;
    *badge = s->badge;
    return s->obj;
}

/* ---- the calls ---------------------------------------------------------- */

long endpoint_call_locked(struct thread *self, int h)
{
    uintptr_t badge;
    long ret;
    struct endpoint *ep = endpoint_of(self, h, IPC_RIGHT_SEND, &badge, &ret);
    if (ep && ep->receivers == 0) {
        ret = -EPIPE; /* the server is gone: fail now, do not queue */
        ep = NULL;
    } else if (ep && !fits_waiting_locked(ep, &self->ipc.msg)) {
        ret = -EMSGSIZE;
        ep = NULL;
    }
    if (ep) {
        self->ipc.done = false;
        struct thread *server = queue_pop(&ep->recvs);
        if (server) {
            deliver_locked(self, server, (long)badge);
            set_caller_locked(server, self);
        } else {
            self->ipc.state = IPC_SEND_WAIT;
            self->ipc.ep = ep;
            self->ipc.badge = badge;
            queue_push(&ep->sends, self);
        }
        ret = endpoint_wait_done_locked(self, server);
    }
    return ret;
}

long endpoint_call(struct thread *self, int h)
{
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    long ret = endpoint_call_locked(self, h);
    spin_unlock_irqrestore(&sched_lock, flags);
    return ret;
}

long endpoint_send(struct thread *self, int h)
{
    uintptr_t badge;
    long ret;
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    struct endpoint *ep = endpoint_of(self, h, IPC_RIGHT_SEND, &badge, &ret);
    if (ep) {
        struct thread *server = NULL;
        if (!fits_waiting_locked(ep, &self->ipc.msg))
            ret = -EMSGSIZE;
        else if ((server = queue_pop(&ep->recvs)) == NULL)
            ret = ep->receivers ? -EAGAIN : -EPIPE;
        else
            ret = 0;
        if (server) {
            deliver_locked(self, server, (long)badge);
            set_caller_locked(server, NULL); /* a send wants no reply */
            sched_wake_thread_locked(server);
        }
    }
    spin_unlock_irqrestore(&sched_lock, flags);
    return ret;
}

/* Receive on ep: a queued caller's message at once, else wait for one.
 * `answered` is a caller self has just replied to (or NULL): it is handed
 * the CPU if self has to wait, else woken. */
static long receive_locked(struct thread *self, struct endpoint *ep, struct thread *answered)
{
    self->ipc.done = false;
    struct thread *client;
    while ((client = queue_pop(&ep->sends)) && !fits_locked(&client->ipc.msg, self))
        fail_locked(client, -EMSGSIZE);
    if (client) {
        deliver_locked(client, self, (long)client->ipc.badge);
        set_caller_locked(self, client);
        if (answered)
            sched_wake_thread_locked(answered);
        return self->ipc.result;
    }
    set_caller_locked(self, NULL);
    self->ipc.state = IPC_RECV_WAIT;
    self->ipc.ep = ep;
    queue_push(&ep->recvs, self);
    return endpoint_wait_done_locked(self, answered);
}

long endpoint_recv(struct thread *self, int h)
{
    uintptr_t badge;
    long ret;
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    struct endpoint *ep = endpoint_of(self, h, IPC_RIGHT_RECV, &badge, &ret);
    if (ep)
        ret = receive_locked(self, ep, NULL);
    spin_unlock_irqrestore(&sched_lock, flags);
    return ret;
}

/* The reply (staged in self's slot) goes to self's caller, if it is still
 * there: one that has gone (killed, say) has unlinked itself, and the reply
 * is dropped. Nothing happens if h is bad. */
long endpoint_reply_recv_locked(struct thread *self, int h)
{
    uintptr_t badge;
    long ret;
    struct endpoint *ep = endpoint_of(self, h, IPC_RIGHT_RECV, &badge, &ret);
    if (ep) {
        struct thread *client = self->ipc.caller;
        if (client) {
            self->ipc.caller = NULL;
            client->ipc.replier = NULL;
            bool fits = fits_locked(&self->ipc.msg, client);
            deliver_locked(self, client, fits ? 0 : -EMSGSIZE);
        }
        ret = receive_locked(self, ep, client);
    }
    return ret;
}

long endpoint_reply_recv(struct thread *self, int h)
{
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    long ret = endpoint_reply_recv_locked(self, h);
    spin_unlock_irqrestore(&sched_lock, flags);
    return ret;
}

void ipc_thread_exit_locked(struct thread *t)
{
    cancel_locked(t);
    set_caller_locked(t, NULL);
}
