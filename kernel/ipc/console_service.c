/* SPDX-License-Identifier: MIT */
/*
 * kernel/ipc/console_service.c - the console service: one endpoint, made by
 * the kernel and kept for the machine's life, through which every user
 * program reaches the system's console server (user/servers/console_server.c).
 *
 * The kernel hands out two kinds of handle to it, and nothing else:
 *   - to init (task_spawn_init), an unbadged handle with every right: init
 *     passes the right to receive on to the console server it starts;
 *   - to every task started while a server holds that right, a handle that
 *     may only send, at the well-known index IPC_CONSOLE_HANDLE, badged
 *     with the task's pid, so the server can tell its clients apart and a
 *     client cannot pass itself off as init (badge 0); the badge also has
 *     IPC_CONSOLE_BADGE_VOUCHED if the task holds the control capability's
 *     CONSOLE right, and the server guards every other client's lines
 *     (lib/result_guard.h).
 * A task started while no server is there (init=off, or the server died)
 * gets no such handle, and the C library writes to the kernel's debug
 * console instead (lib/user/console_client.c).
 */
#include "kernel/errno.h"
#include "kernel/ipc/ipc.h"
#include "kernel/sched/sched.h"
#include "kernel/task.h"

static struct endpoint *service;

/* Made on first use; the kernel's own reference (no rights) keeps it. */
static struct endpoint *service_locked(void)
{
    if (!service) {
        service = endpoint_alloc_locked(NULL);
        if (service)
            endpoint_hold_locked(service, 0);
    }
    return service;
}

long console_service_give_init_locked(struct task *t)
{
    struct endpoint *ep = service_locked();
    if (!ep)
        return -ENOSPC;
    return handle_install_locked(t, IPC_KIND_ENDPOINT, ep,
                                 IPC_RIGHT_SEND | IPC_RIGHT_RECV | IPC_RIGHT_MINT, 0);
}

void console_service_give_client_locked(struct task *t)
{
    bool vouched = control_held_locked(t, IPC_RIGHT_CONSOLE);
    uintptr_t badge = (uintptr_t)t->pid | (vouched ? IPC_CONSOLE_BADGE_VOUCHED : 0);
    if (service && endpoint_receivers_locked(service) > 0)
        handle_install_at_locked(t, IPC_CONSOLE_HANDLE, IPC_KIND_ENDPOINT, service, IPC_RIGHT_SEND,
                                 badge);
}

bool console_service_serving(void)
{
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    bool serving = service && endpoint_receivers_locked(service) > 0;
    spin_unlock_irqrestore(&sched_lock, flags);
    return serving;
}

bool console_service_ready(void)
{
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    bool ready = service && endpoint_receiver_waiting_locked(service);
    spin_unlock_irqrestore(&sched_lock, flags);
    return ready;
}
