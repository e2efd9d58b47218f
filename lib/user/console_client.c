/* SPDX-License-Identifier: MIT */
/* lib/user/console_client.c - talking to the console server (console_client.h). */
#include "lib/user/console_client.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "lib/user/ipc.h"

static int console_h = IPC_CONSOLE_HANDLE; /* until the program says otherwise */
static bool chosen;                        /* it chose another (console_client_use) */

void console_client_use(int h)
{
    __atomic_store_n(&chosen, h != IPC_CONSOLE_HANDLE, __ATOMIC_RELAXED);
    __atomic_store_n(&console_h, h, __ATOMIC_RELAXED);
}

bool console_client_fall_back(long r)
{
    bool no_console = r == -EBADF || r == -EPIPE || r == -EINVAL || r == -EPERM;
    if (!no_console || __atomic_load_n(&chosen, __ATOMIC_RELAXED))
        return false;
    __atomic_store_n(&console_h, CONSOLE_DEBUG, __ATOMIC_RELAXED);
    return true;
}

int console_client_handle(void)
{
    return __atomic_load_n(&console_h, __ATOMIC_RELAXED);
}

long console_client_write(const void *buf, size_t n)
{
    const char *p = buf;
    size_t done = 0;
    while (done < n) {
        size_t chunk = n - done < CONSOLE_MSG_BYTES ? n - done : CONSOLE_MSG_BYTES;
        struct ipc_msg m = {.tag = IPC_TAG(CONSOLE_WRITE, 0), .w = {chunk}};
        memcpy(&m.w[1], p + done, chunk);
        long r = ipc_call(console_client_handle(), &m);
        if (r < 0)
            return done ? (long)done : r;
        if (m.w[0] == 0 || m.w[0] > chunk)
            break;
        done += m.w[0];
    }
    return (long)done;
}

long console_client_read(void *buf, size_t n)
{
    struct ipc_msg m = {.tag = IPC_TAG(CONSOLE_READ, 0),
                        .w = {n < CONSOLE_MSG_BYTES ? n : CONSOLE_MSG_BYTES}};
    long r = ipc_call(console_client_handle(), &m);
    if (r < 0)
        return r;
    size_t got = m.w[0] <= n && m.w[0] <= CONSOLE_MSG_BYTES ? m.w[0] : 0;
    memcpy(buf, &m.w[1], got);
    return (long)got;
}

long console_client_stats(struct console_stats *st)
{
    struct ipc_msg m = {.tag = IPC_TAG(CONSOLE_STATS, 0)};
    long r = ipc_call(console_client_handle(), &m);
    if (r < 0)
        return r;
    *st = (struct console_stats){m.w[0], m.w[1], m.w[2], (long)m.w[3]};
    return 0;
}
