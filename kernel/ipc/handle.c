/* SPDX-License-Identifier: MIT */
/*
 * kernel/ipc/handle.c - each task's table of handles (see ipc.h).
 *
 * A handle is an index into the task's table; the slot says what kind of
 * object it names, which rights it carries and the badge receivers see.
 * Every handle holds one reference to its object: installing takes it,
 * closing drops it, and the object goes when its last handle does. Rights
 * only ever shrink when a handle is derived (handle_mint), and a badge, once
 * set, cannot be changed, so a server can trust the badge it sees.
 */
#include "kernel/errno.h"
#include "kernel/ipc/handle_lookup.h"
#include "kernel/ipc/ipc.h"
#include "kernel/sched/sched.h"
#include "kernel/task.h"
#include "lib/string.h"

/* The control capability names no object that could go away: one static
 * token, never counted. */
static int control_token;

static void hold(enum ipc_kind kind, void *obj, unsigned rights)
{
    if (kind == IPC_KIND_CONTROL)
        return;
    if (kind == IPC_KIND_ENDPOINT)
        endpoint_hold_locked(obj, rights);
    else if (kind == IPC_KIND_DEVICE)
        device_hold_locked(obj);
    else
        notify_hold_locked(obj);
}

/* Handle h of t, naming obj, is going. */
static void release(struct task *t, int h, enum ipc_kind kind, void *obj, unsigned rights)
{
    if (kind == IPC_KIND_CONTROL)
        return;
    if (kind == IPC_KIND_DEVICE)
        device_release_locked(obj, t, h);
    else if (kind == IPC_KIND_ENDPOINT)
        endpoint_release_locked(obj, rights);
    else
        notify_release_locked(obj);
}

/* The slot for h, used or not; NULL if h is out of range. */
static struct ipc_handle *slot(struct task *t, int h)
{
    if (h < 0 || h >= IPC_MAX_HANDLES)
        return NULL;
    return &t->handles.h[h];
}

struct ipc_handle *handle_lookup_locked(struct task *t, int h, enum ipc_kind kind, unsigned right,
                                        long *err)
{
    return handle_lookup_inline(t, h, kind, right, err);
}

long handle_install_at_locked(struct task *t, int h, enum ipc_kind kind, void *obj, unsigned rights,
                              uintptr_t badge)
{
    struct ipc_handle *s = slot(t, h);
    if (!s || s->kind != IPC_KIND_NONE)
        return -EMFILE;
    *s = (struct ipc_handle){.kind = kind, .rights = rights, .badge = badge, .obj = obj};
    hold(kind, obj, rights);
    return h;
}

long handle_install_locked(struct task *t, enum ipc_kind kind, void *obj, unsigned rights,
                           uintptr_t badge)
{
    for (int h = 0; h < IPC_MAX_HANDLES; h++) {
        if (t->handles.h[h].kind == IPC_KIND_NONE)
            return handle_install_at_locked(t, h, kind, obj, rights, badge);
    }
    return -EMFILE;
}

/* The new handle has a subset of h's rights, and h's badge or, if h has
 * none, the one asked for. */
long handle_mint_locked(struct task *t, int h, unsigned rights, uintptr_t badge)
{
    struct ipc_handle *s = slot(t, h);
    if (!s || s->kind == IPC_KIND_NONE)
        return -EBADF;
    if (!(s->rights & IPC_RIGHT_MINT) || (rights & ~s->rights))
        return -EPERM;
    if (badge > IPC_BADGE_MAX)
        return -EINVAL;
    if (s->badge && badge)
        return -EPERM; /* a badge is fixed once set */
    return handle_install_locked(t, s->kind, s->obj, rights, s->badge | badge);
}

long handle_close_locked(struct task *t, int h)
{
    struct ipc_handle *s = slot(t, h);
    if (!s || s->kind == IPC_KIND_NONE)
        return -EBADF;
    struct ipc_handle old = *s;
    s->kind = IPC_KIND_NONE;
    s->obj = NULL;
    release(t, h, old.kind, old.obj, old.rights);
    return 0;
}

long handles_give_locked(struct task *child, struct task *parent, const int *list, int n)
{
    for (int i = 0; i < n; i++) {
        struct ipc_handle *s = slot(parent, list[i]);
        if (!s || s->kind == IPC_KIND_NONE)
            return -EBADF;
    }
    for (int i = 0; i < n; i++) {
        struct ipc_handle *s = slot(parent, list[i]);
        child->handles.h[i] = *s;
        hold(s->kind, s->obj, s->rights);
    }
    return 0;
}

void handles_close_all_locked(struct task *t)
{
    for (int h = 0; h < IPC_MAX_HANDLES; h++) {
        if (t->handles.h[h].kind != IPC_KIND_NONE)
            handle_close_locked(t, h);
    }
    endpoints_disown_locked(t); /* what others still hold: no task's quota now (its tree's) */
    notifies_disown_locked(t);
}

long control_give_locked(struct task *t, unsigned rights)
{
    return handle_install_at_locked(t, IPC_CONTROL_HANDLE, IPC_KIND_CONTROL, &control_token,
                                    rights | IPC_RIGHT_MINT, 0);
}

bool control_held_locked(const struct task *t, unsigned right)
{
    for (int h = 0; h < IPC_MAX_HANDLES; h++) {
        const struct ipc_handle *s = &t->handles.h[h];
        if (s->kind == IPC_KIND_CONTROL && (s->rights & right) == right)
            return true;
    }
    return false;
}

bool control_allows(unsigned right)
{
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    bool allowed = control_held_locked(current_task(), right);
    spin_unlock_irqrestore(&sched_lock, flags);
    return allowed;
}
