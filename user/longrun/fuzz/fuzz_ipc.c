/* SPDX-License-Identifier: MIT */
/*
 * user/longrun/fuzz/fuzz_ipc.c - the IPC calls of user/longrun/fuzz/fuzz.c, kept from waiting for
 * ever (see fuzz_ipc.h): the handles the child holds, the server thread
 * that answers one endpoint, and the wrapper that knows IPC calls return
 * words in argument registers 1-5.
 */
#include "user/longrun/fuzz/fuzz_ipc.h"

#include <errno.h>

#include "lib/user/ipc.h"
#include "lib/user/ulib.h"

enum { H_NONE, H_ENDPOINT, H_NOTIFY, H_CONTROL };
static struct {
    unsigned char kind;
    unsigned short rights;
    unsigned object; /* which object: numbered as they are made (handle numbers are reused) */
} held[IPC_MAX_HANDLES];
static unsigned objects_made;
static int served = -1; /* the endpoint the server thread answers, or -1 */
static int kept = -1;   /* a handle that stays open */
static char server_stack[4096] __attribute__((aligned(16)));

bool fuzz_ipc_number(long nr)
{
    return nr >= SYS_endpoint_create && nr <= SYS_spawn_with;
}

static bool holds(long h, unsigned kind, unsigned right)
{
    return h >= 0 && h < IPC_MAX_HANDLES && held[h].kind == kind && (held[h].rights & right);
}

/* Answers every call on `served` with an empty reply; ends when the handle goes. */
static void ipc_server(void *arg)
{
    (void)arg;
    for (;;) {
        struct ipc_msg m = {0};
        long r = raw_ipc_syscall(SYS_ipc_reply_recv, served, &m);
        int e = r < 0 ? errno_from_kernel((int)-r) : 0;
        if (e == EBADF || e == EINTR)
            break;
    }
    raw_syscall6(SYS_thread_exit, 0, 0, 0, 0, 0, 0);
}

void fuzz_ipc_init(int keep)
{
    kept = keep;
    /* The console's handle is not the fuzzer's to draw (a random message
     * would print garbage): closed, the table is what held[] says, and the
     * child's printf goes to the kernel's debug console. */
    raw_syscall6(SYS_handle_close, IPC_CONSOLE_HANDLE, 0, 0, 0, 0, 0);
    for (unsigned i = 0; i < IPC_MAX_HANDLES; i++)
        held[i].kind = H_NONE;
    if (keep >= 0 && keep < IPC_MAX_HANDLES)
        held[keep].kind = H_CONTROL;
    served = (int)raw_syscall6(SYS_endpoint_create, 0, 0, 0, 0, 0, 0);
    if (served < 0 || served >= IPC_MAX_HANDLES) { /* every endpoint in use: no server */
        served = -1;
        return;
    }
    held[served].kind = H_ENDPOINT;
    held[served].rights = IPC_RIGHTS_ALL;
    held[served].object = ++objects_made;
    if (thread_create(ipc_server, NULL, server_stack, sizeof(server_stack)) < 0)
        served = -1; /* then no call may count on an answer */
}

/* A handle number that names nothing (-EBADF), never a live one. */
static long closed_handle(void)
{
    for (long h = 0; h < IPC_MAX_HANDLES; h++) {
        if (held[h].kind == H_NONE)
            return h;
    }
    return IPC_MAX_HANDLES; /* past the table */
}

/* A live handle that may signal the same notification as h, or -1. */
static long signaller_of(long h)
{
    for (long s = 0; s < IPC_MAX_HANDLES; s++) {
        if (holds(s, H_NOTIFY, IPC_RIGHT_SIGNAL) && held[s].object == held[h].object)
            return s;
    }
    return -1;
}

/* Half the IPC calls name a handle the child holds (random numbers mostly miss). */
static void aim_at_held_handle(long nr, long a[6], uint64_t random)
{
    long h = (long)(random % IPC_MAX_HANDLES);
    if (nr != SYS_spawn_with && (random >> 32) % 2 && held[h].kind != H_NONE)
        a[0] = h;
}

void fuzz_ipc_constrain(long *nr, long a[6], uint64_t random)
{
    aim_at_held_handle(*nr, a, random);
    long h = a[0];
    switch (*nr) {
    case SYS_ipc_call:
        if (holds(h, H_ENDPOINT, IPC_RIGHT_SEND) &&
            (served < 0 || held[h].object != held[served].object))
            a[0] = closed_handle(); /* nobody would answer */
        break;
    case SYS_ipc_recv:
    case SYS_ipc_reply_recv:
        if (holds(h, H_ENDPOINT, IPC_RIGHT_RECV))
            a[0] = closed_handle(); /* nobody may ever call */
        break;
    case SYS_notify_wait:
        if (holds(h, H_NOTIFY, IPC_RIGHT_WAIT)) {
            long s = signaller_of(h);
            if (s >= 0)
                raw_syscall6(SYS_notify_signal, s, 1, 0, 0, 0, 0);
            else
                *nr = SYS_notify_poll;
        }
        break;
    case SYS_handle_close:
        if (h == served || h == kept)
            a[0] = closed_handle();
        break;
    }
}

/* Keep the table in step with what a call did. */
void fuzz_ipc_track(long nr, const long a[6], long r)
{
    long h = a[0];
    if (r < 0)
        return;
    if ((nr == SYS_endpoint_create || nr == SYS_notify_create) && r < IPC_MAX_HANDLES) {
        held[r].kind = nr == SYS_endpoint_create ? H_ENDPOINT : H_NOTIFY;
        held[r].rights = nr == SYS_endpoint_create
                             ? IPC_RIGHT_SEND | IPC_RIGHT_RECV | IPC_RIGHT_MINT
                             : IPC_RIGHT_SIGNAL | IPC_RIGHT_WAIT | IPC_RIGHT_MINT;
        held[r].object = ++objects_made;
    } else if (nr == SYS_handle_mint && r < IPC_MAX_HANDLES && h >= 0 && h < IPC_MAX_HANDLES) {
        held[r] = held[h];
        held[r].rights = (unsigned short)(a[1] & held[h].rights);
    } else if (nr == SYS_handle_close && h >= 0 && h < IPC_MAX_HANDLES) {
        held[h].kind = H_NONE;
    }
}

long fuzz_ipc_make(long nr, const long a[6])
{
    struct ipc_msg m = {
        (unsigned long)a[1],
        {(unsigned long)a[2], (unsigned long)a[3], (unsigned long)a[4], (unsigned long)a[5]}};
    long r = raw_ipc_syscall(nr, a[0], &m);
    return (unsigned long)r >= -4095ul ? -errno_from_kernel((int)-r) : r;
}
