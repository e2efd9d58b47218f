/* SPDX-License-Identifier: MIT */
/*
 * kernel/ipc/notify.c - notifications: a word of bits that signal ORs into
 * and wait collects (and clears). A signal never blocks and never fails for
 * want of a waiter: the bits stay until someone takes them, so several
 * signals before a wait arrive as one word. Waiters sleep on the object.
 */
#include "kernel/errno.h"
#include "kernel/ipc/ipc.h"
#include "kernel/quota.h"
#include "kernel/sched/sched.h"
#include "kernel/task.h"

#define MAX_NOTIFIES 128

struct notify {
    int refs;                 /* handles naming it; 0 = a free slot */
    const struct task *owner; /* the task that made it (its quota), or NULL */
    uint64_t bits;
    /* The account of its creator's tree, which pays for it until it goes. */
    struct quota_account *account;
};

static struct notify notifies[MAX_NOTIFIES];

struct notify *notify_alloc_locked(const struct task *owner)
{
    for (int i = 0; i < MAX_NOTIFIES; i++) {
        if (notifies[i].refs == 0) {
            notifies[i].bits = 0;
            notifies[i].owner = owner;
            notifies[i].account = owner ? owner->account : NULL;
            return &notifies[i];
        }
    }
    return NULL;
}

int notifies_owned_locked(const struct task *t)
{
    int n = 0;
    for (int i = 0; i < MAX_NOTIFIES; i++)
        n += notifies[i].refs != 0 && notifies[i].owner == t;
    return n;
}

void notifies_disown_locked(const struct task *t)
{
    for (int i = 0; i < MAX_NOTIFIES; i++) {
        if (notifies[i].owner == t)
            notifies[i].owner = NULL;
    }
}

void notify_hold_locked(struct notify *n)
{
    n->refs++;
}

void notify_release_locked(struct notify *n)
{
    if (--n->refs == 0) {
        quota_uncharge_locked(n->account, CHARGE_NOTIFICATIONS, 1);
        sched_wakeup_locked(n); /* a waiter looks its handle up again, and fails */
    }
}

unsigned long notifies_alive_locked(void)
{
    unsigned long alive = 0;
    for (int i = 0; i < MAX_NOTIFIES; i++)
        alive += notifies[i].refs != 0;
    return alive;
}

void notify_signal_locked(struct notify *n, uint64_t bits)
{
    n->bits |= bits;
    if (n->bits)
        sched_wakeup_locked(n);
}

long notify_signal(struct task *t, int h, uint64_t bits)
{
    if (bits & ~IPC_NOTIFY_BITS)
        return -EINVAL;
    long err = 0;
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    struct ipc_handle *s = handle_lookup_locked(t, h, IPC_KIND_NOTIFY, IPC_RIGHT_SIGNAL, &err);
    if (s)
        notify_signal_locked(s->obj, bits);
    spin_unlock_irqrestore(&sched_lock, flags);
    return err;
}

/* The handle is looked up again after every sleep: another thread of the
 * task may have closed it meanwhile (and the object gone with it). */
long notify_take(struct task *t, int h, bool block)
{
    long ret = 0;
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    for (;;) {
        struct ipc_handle *s = handle_lookup_locked(t, h, IPC_KIND_NOTIFY, IPC_RIGHT_WAIT, &ret);
        if (!s)
            break;
        struct notify *n = s->obj;
        if (n->bits || !block) {
            ret = (long)n->bits;
            n->bits = 0;
            break;
        }
        if ((ret = sched_sleep_killable_locked(n)) < 0)
            break;
    }
    spin_unlock_irqrestore(&sched_lock, flags);
    return ret;
}
