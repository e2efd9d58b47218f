/* SPDX-License-Identifier: MIT */
/*
 * lib/user/console_client.h - the console server's protocol
 * (user/console_server.c) and the client side of it.
 *
 * Messages carry bytes in the register words w1..w3 (24 bytes), w0 the
 * count, so no long-message buffer is needed and any thread can call:
 *   CONSOLE_WRITE w0 = n, w1..w3 = bytes -> w0 = bytes written;
 *   CONSOLE_READ  w0 = at most        -> w0 = n (0: none yet), w1..w3 = bytes;
 *   CONSOLE_STATS                     -> w0 = bytes written, w1 = bytes
 *                                        received, w2 = interrupts served;
 *   CONSOLE_DIE   (tests) the server exits at once, without replying;
 *   CONSOLE_QUIT  (badge 0 only: init) the server replies 0 and exits.
 * A dead server makes every call fail with -EPIPE at once.
 */
#ifndef LIB_USER_CONSOLE_CLIENT_H
#define LIB_USER_CONSOLE_CLIENT_H

#include <stddef.h>

enum { CONSOLE_WRITE = 1, CONSOLE_READ, CONSOLE_STATS, CONSOLE_DIE, CONSOLE_QUIT };
#define CONSOLE_MSG_BYTES 24 /* w1..w3 */

struct console_stats {
    unsigned long written, received, interrupts;
};

/* From now on this program's write(1 or 2) and read(0) (newlib's and
 * stdio's) go to the console server through endpoint handle h (SEND);
 * -1: back to the kernel's SYS_write / SYS_read. */
void console_client_use(int h);
/* The handle in use, or -1. */
int console_client_handle(void);
/* Write n bytes: the count, or -errno (-EPIPE: the server is gone). */
long console_client_write(const void *buf, size_t n);
/* Up to n bytes that have arrived, 0 if none (never waits), or -errno. */
long console_client_read(void *buf, size_t n);
long console_client_stats(struct console_stats *st);

#endif
