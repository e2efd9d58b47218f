/* SPDX-License-Identifier: MIT */
/*
 * lib/user/console_client.h - the console server's protocol
 * (user/servers/console_server.c) and the client side of it.
 *
 * Messages carry bytes in the register words w1..w3 (24 bytes), w0 the
 * count, so no long-message buffer is needed and any thread can call:
 *   CONSOLE_WRITE w0 = n, w1..w3 = bytes -> w0 = bytes written;
 *   CONSOLE_READ  w0 = at most        -> w0 = n (0: none yet), w1..w3 = bytes;
 *   CONSOLE_STATS                     -> w0 = bytes written, w1 = bytes
 *                                        received, w2 = interrupts served,
 *                                        w3 = the caller's badge;
 *   CONSOLE_DIE   (tests; badge 0 only) the server exits at once, without
 *                 replying;
 *   CONSOLE_QUIT  (badge 0 only: init) the server stops cleanly: it exits
 *                 with status 0, without replying (the caller's ipc_call
 *                 fails with -EPIPE, as for DIE, whose exit status is 9).
 * Any other badge asking DIE or QUIT gets an empty reply with the request's
 * label, and so does any label not listed here: the server serves on. A dead server
 * makes every call fail with -EPIPE at once.
 *
 * Every program starts with the console at IPC_CONSOLE_HANDLE
 * (kernel/uapi/ipc.h) when a console server serves: its stdout, stderr
 * and stdin (newlib's, through lib/user/syscalls.c) go there. Where that
 * handle is missing (init=off) or the server has died, they go to the
 * kernel's debug console instead, so that no output is lost; a program
 * that chose a handle itself (console_client_use) sees the errors.
 */
#ifndef LIB_USER_CONSOLE_CLIENT_H
#define LIB_USER_CONSOLE_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

enum { CONSOLE_WRITE = 1, CONSOLE_READ, CONSOLE_STATS, CONSOLE_DIE, CONSOLE_QUIT };
#define CONSOLE_MSG_BYTES 24 /* w1..w3 */

#define CONSOLE_DEBUG (-1) /* the kernel's debug console (SYS_write, SYS_read) */

struct console_stats {
    unsigned long written, received, interrupts;
    long badge; /* the asker's, as the server saw it */
};

/* From now on this program's write(1 or 2) and read(0) (newlib's and
 * stdio's) go to the console server through endpoint handle h (SEND);
 * CONSOLE_DEBUG: to the kernel's SYS_write / SYS_read; IPC_CONSOLE_HANDLE:
 * back to the default. */
void console_client_use(int h);
/* The handle in use, or CONSOLE_DEBUG. */
int console_client_handle(void);
/* A call through the handle in use returned r: if the program never chose
 * one and r says no console server is there (-EBADF no handle, -EPIPE it
 * died, -EINVAL or -EPERM the program closed it and the index now names
 * something else), use the debug console from now on and return true. */
bool console_client_fall_back(long r);
/* Write n bytes: the count, or -errno (-EPIPE: the server is gone). */
long console_client_write(const void *buf, size_t n);
/* Up to n bytes that have arrived, 0 if none (never waits), or -errno. */
long console_client_read(void *buf, size_t n);
long console_client_stats(struct console_stats *st);

#endif
