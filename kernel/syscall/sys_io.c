/* SPDX-License-Identifier: MIT */
/*
 * kernel/syscall/sys_io.c - read and write on the kernel's debug console, the only
 * file there is: fd 0 reads from it, fds 1 and 2 write to it. While a
 * console server serves (user/servers/console_server.c), the console is the
 * server's: only a program holding the control capability's CONSOLE right
 * may still write or read here; the others get -EPERM and print and read
 * through the server (which otherwise could not tell its clients' input
 * from what another program took).
 * Their output (with no server) is guarded (lib/result_guard.h).
 */
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/ipc/ipc.h"
#include "kernel/printk.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task.h"
#include "kernel/uaccess.h"

#define CHUNK 256

/* Whether the caller may use the debug console: always, with the CONSOLE
 * right; otherwise only while no console server serves. */
static bool debug_console_allowed(void)
{
    return control_allows(IPC_RIGHT_CONSOLE) || !console_service_serving();
}

long sys_write(const struct sysargs *args)
{
    uintptr_t fd = args->a[0]; /* every bit: 2^32 + 1 is no fd */
    uintptr_t buf = args->a[1];
    size_t len = args->a[2];
    if (fd != 1 && fd != 2)
        return -EBADF;
    if (len > (1ul << 30))
        return -EINVAL;
    if (!user_range_ok(buf, len))
        return -EFAULT;
    if (!debug_console_allowed())
        return -EPERM;
    bool vouched = control_allows(IPC_RIGHT_CONSOLE);
    char chunk[CHUNK];
    size_t done = 0;
    while (done < len) {
        size_t n = MIN(len - done, sizeof(chunk));
        if (copy_from_user(chunk, buf + done, n) != 0)
            return done ? (long)done : -EFAULT;
        kwrite_user(chunk, n, vouched);
        done += n;
    }
    return (long)done;
}

/* Returns what has been typed so far (possibly nothing): the console is polled. */
long sys_read(const struct sysargs *args)
{
    uintptr_t fd = args->a[0];
    uintptr_t buf = args->a[1];
    size_t len = args->a[2];
    if (fd != 0)
        return -EBADF;
    if (len > (1ul << 30))
        return -EINVAL;
    if (!user_access_ok(buf, len, true))
        return -EFAULT;
    if (!debug_console_allowed())
        return -EPERM;
    size_t done = 0;
    int c;
    while (done < len && (c = console_getc()) >= 0) {
        char ch = (char)c;
        if (copy_to_user(buf + done, &ch, 1) != 0)
            return done ? (long)done : -EFAULT;
        done++;
    }
    return (long)done;
}
